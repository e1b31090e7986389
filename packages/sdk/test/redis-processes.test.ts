/**
 * Four real merchant processes sharing one real redis-server: the same webhook delivered to
 * all four at once runs its handler once; a handler that throws gives the claim back and the
 * redelivery runs it; and the SEP-10 token against the mock anchor is obtained once per
 * lifetime for all four, even when the process renewing it is killed mid-way.
 */
import { createHmac } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerMessage } from './helpers/redis-worker.js';
import { forkWorkers, startRedis, type RedisServer, type Worker } from './helpers/redis.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';

const SECRET = 'whsec_processes0123456789abcdef012345';
const LOCK_MS = 1500;
let redis: RedisServer;
let env: MockEnv;
let workers: Worker[];
const stellarSecret = Keypair.random().secret();

beforeAll(async () => {
  [redis, env] = await Promise.all([startRedis(), startStandalone({ seed: 20 })]);
  const base = { redisUrl: '', secret: SECRET, anchorUrl: `${env.origin}/anchor`, stellarSecret, lockMs: LOCK_MS, handlerMs: 50 };
  base.redisUrl = redis.url;
  // Two processes on each client: the stores' keys and scripts are the same whichever a process uses.
  workers = [
    ...(await forkWorkers(2, { ...base, client: 'node-redis' })),
    ...(await forkWorkers(2, { ...base, client: 'ioredis' })),
  ];
}, 60_000);
afterAll(async () => {
  await Promise.all((workers ?? []).map((w) => w.kill()));
  await Promise.all([redis?.stop(), env?.close()]);
});

async function deliver(worker: Worker, orderId: string) {
  const body = JSON.stringify({ event: 'order.completed', order_id: orderId, type: 'onramp', fiat_amount: '150.00', timestamp: new Date().toISOString() });
  const res = await fetch(`${worker.url}/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-webhook-signature': createHmac('sha256', SECRET).update(body).digest('hex'),
      'x-webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** What each worker's handler ran since the last call, taken out of their message lists. */
function drainRuns(): Extract<WorkerMessage, { type: 'ran' }>[] {
  return workers.flatMap((w) => {
    const runs = w.messages.filter((m): m is Extract<WorkerMessage, { type: 'ran' }> => m.type === 'ran');
    w.messages.splice(0, w.messages.length, ...w.messages.filter((m) => m.type !== 'ran'));
    return runs;
  });
}

describe('webhooks delivered to four processes at once', () => {
  it('runs the handler exactly once per event; the others answer 409 in flight', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `ord_race_${i}`);
    const answers = await Promise.all(ids.flatMap((id) => workers.map((w) => deliver(w, id))));
    const runs = drainRuns();
    expect(runs.map((r) => r.key).toSorted()).toEqual(ids.toSorted());
    expect(answers.filter((a) => a.status === 200 && a.body.duplicate === undefined)).toHaveLength(ids.length);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    // Delivered again once handled: a duplicate everywhere, and nothing runs.
    const again = await Promise.all(workers.map((w) => deliver(w, ids[0]!)));
    expect(again).toEqual(workers.map(() => ({ status: 200, body: { received: true, duplicate: true } })));
    expect(drainRuns()).toEqual([]);
  });

  it('a handler that throws releases the claim: no 200 until the redelivery runs it once', async () => {
    for (const w of workers) w.send({ cmd: 'fail', on: true });
    const first = await Promise.all(workers.map((w) => deliver(w, 'ord_fails_once')));
    expect(first.map((a) => a.status)).toContain(500);
    expect(first.some((a) => a.status === 200)).toBe(false);
    expect(drainRuns().every((r) => r.failed)).toBe(true);

    for (const w of workers) w.send({ cmd: 'fail', on: false });
    const retry = await Promise.all(workers.map((w) => deliver(w, 'ord_fails_once')));
    expect(retry.filter((a) => a.status === 200)).not.toHaveLength(0);
    expect(drainRuns()).toEqual([{ type: 'ran', key: 'ord_fails_once', failed: false, pid: expect.any(Number) }]);
  });
});

describe('the SEP-10 token shared on Redis', () => {
  let round = 0;
  const offset = () => env.backend.clock.now() - Date.now();
  const authenticate = (worker: Worker, hang = false) => {
    const id = ++round;
    worker.send({ cmd: 'auth', id, offset: offset(), hang });
    return worker.next((m): m is Extract<WorkerMessage, { type: 'token' }> => (m.type === 'token' || m.type === 'error') && m.id === id, 15_000);
  };
  /** Each process's own count of sign-ins; a killed one keeps its last. */
  const signIns = new Map<Worker, number>();
  const total = () => [...signIns.values()].reduce((a, b) => a + b, 0);
  const everyone = async (ws: Worker[]) => {
    const tokens = await Promise.all(ws.map((w) => authenticate(w)));
    for (const [i, t] of tokens.entries()) signIns.set(ws[i]!, t.signIns);
    return new Set(tokens.map((t) => t.token));
  };

  it('is obtained once per lifetime for four processes', async () => {
    const first = await everyone(workers);
    expect(first.size).toBe(1);
    expect(total()).toBe(1);
    // Within its lifetime, nobody signs in again.
    expect(await everyone(workers)).toEqual(first);
    expect(total()).toBe(1);
    // Its 15 minutes are over: one renewal for all four.
    await env.backend.clock.advance(16 * 60);
    const second = await everyone(workers);
    expect(second.size).toBe(1);
    expect(second).not.toEqual(first);
    expect(total()).toBe(2);
  });

  it('is renewed by another process once the lock of one killed while renewing expires', async () => {
    await env.backend.clock.advance(16 * 60);
    const [doomed, ...rest] = workers as [Worker, ...Worker[]];
    doomed.send({ cmd: 'auth', id: ++round, offset: offset(), hang: true });
    await doomed.next((m): m is Extract<WorkerMessage, { type: 'signing' }> => m.type === 'signing');
    const killedAt = Date.now();
    await doomed.kill('SIGKILL');
    workers = rest;

    const third = await everyone(rest);
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(LOCK_MS - 500);
    expect(third.size).toBe(1);
    expect(total()).toBe(3);
    const token = [...third][0]!;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string; exp: number };
    expect(claims.sub).toBe(Keypair.fromSecret(stellarSecret).publicKey());
    expect(claims.exp * 1000).toBeGreaterThan(env.backend.clock.now());
  });
});

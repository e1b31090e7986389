/**
 * A bounded load test: the standalone mock delivers 1,000 checkout webhooks, 800 events and
 * 200 redeliveries of them (half sent while the first delivery is still in flight, half
 * after), to createWebhookHandler in four node:cluster workers on one port sharing one
 * redis-server. Every event is fulfilled exactly once; Redis runs one script per delivery and
 * one more per handled event. Prints the time and the Redis operations per event.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCheckout, payment } from './helpers/checkout.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';
import { commandCalls, deliverLoad } from './helpers/redis-load.js';
import { forkWorkers, freePort, startRedis, type RedisServer, type Worker } from './helpers/redis.js';
import type { WorkerMessage } from './helpers/redis-worker.js';

const EVENTS = 800;
const DUPLICATES = 200;
const CONCURRENCY = 32;

let redis: RedisServer;
let env: MockEnv;
let cluster: Worker;
let reference: string;
let client: RedisClientType;

beforeAll(async () => {
  [redis, env] = await Promise.all([startRedis(), startStandalone({ seed: 2020 })]);
  const checkout = await newCheckout(env);
  const created = await checkout.client.payments.create(payment());
  if (created.outcome === 'in_progress') throw new Error('unexpected 202');
  reference = created.data.reference!;
  const port = await freePort();
  const { secret } = await checkout.client.webhooks.create({ url: `http://127.0.0.1:${port}/webhooks` });
  [cluster] = (await forkWorkers(1, {
    redisUrl: redis.url,
    client: 'node-redis',
    secret: secret!,
    kind: 'checkout',
    port,
    cluster: 4,
    handlerMs: 2,
    anchorUrl: `${env.origin}/anchor`,
    stellarSecret: Keypair.random().secret(),
    lockMs: 30_000,
  })) as [Worker];
  client = createClient({ url: redis.url });
  await client.connect();
}, 60_000);
afterAll(async () => {
  await client?.close();
  await cluster?.kill();
  await Promise.all([redis?.stop(), env?.close()]);
});

describe('1,000 deliveries to four cluster workers on one Redis', () => {
  it('fulfils each of the 800 events exactly once, with one Redis script per delivery plus one per event', async () => {
    const { deliveries, seconds, peakOps } = await deliverLoad(env.backend, client, { reference, events: EVENTS, duplicates: DUPLICATES, concurrency: CONCURRENCY });

    const attempts = deliveries.flatMap((d) => d.attempts);
    const events = new Set(deliveries.map((d) => d.event_id));
    expect(attempts).toHaveLength(EVENTS + DUPLICATES);
    expect(events.size).toBe(EVENTS);
    // A delivery answered 409 met its own event in flight in another worker, which fulfilled it.
    expect(attempts.filter((a) => a.status !== 200 && a.status !== 409)).toEqual([]);

    // Fulfilment messages arrive over IPC shortly after the answers.
    const deadline = Date.now() + 5000;
    const runs = () => cluster.messages.filter((m): m is Extract<WorkerMessage, { type: 'ran' }> => m.type === 'ran');
    while (runs().length < EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const fulfilled = runs().map((r) => r.key);
    expect(fulfilled).toHaveLength(EVENTS);
    expect(new Set(fulfilled)).toEqual(events);
    expect(new Set(runs().map((r) => r.pid)).size).toBe(4);

    const calls = await commandCalls(client);
    // One claim per delivery and one commit per fulfilled event; nothing was released.
    expect(calls.eval).toBe(EVENTS + DUPLICATES + EVENTS);
    const scripts = calls.eval!;
    const inScripts = (calls.set ?? 0) + (calls.get ?? 0) + (calls.del ?? 0);
    console.log(
      `redis load: ${EVENTS + DUPLICATES} deliveries (${EVENTS} events, ${attempts.filter((a) => a.status === 409).length} answered 409 in flight) in ${seconds.toFixed(2)} s; ` +
        `${(scripts / EVENTS).toFixed(2)} scripts and ${(inScripts / EVENTS).toFixed(2)} commands in them per event ` +
        `(at most 2 scripts / 4 commands for one event: claim SET NX [+GET], commit GET+SET); peak ${peakOps} ops/s`,
    );
  }, 60_000);
});

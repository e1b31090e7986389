/**
 * The shop as src/cluster.ts runs it behind a load balancer: two worker processes, each alone
 * on its own port (CLUSTER_PORTS=each), REDIS_URL set, against the standalone mock seeded as
 * the demo seeds it. The test is the load balancer, sending each request to the process it
 * chooses: a widget transaction started through one process is answered by `status-url` on
 * the other, to its customer; both processes sign in to the anchor once between them (counted
 * at the mock); and while Redis is down `status-url` answers 500, never a 404.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startMockServer, type MockServer } from '@sikaramp/mock-server';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../../../packages/sdk/test/helpers/redis.ts';
import type { Config } from '../src/config.ts';
import { seedMock } from '../src/seed.ts';
import { tempDatabase } from './helpers.ts';

let redis: RedisServer;
let mock: MockServer;
let shop: ChildProcess;
let client: RedisClientType;
let config: Config;
/** Each worker's own address. */
let workers: [string, string];
let output = '';

/** The SEP-10 challenges the mock anchor exchanged for a token: one per sign-in. */
const signIns = () => mock.backend.store.anchor.usedChallenges.size;

/** A port whose next one is free too, on 127.0.0.1. */
async function twoFreePorts(): Promise<number> {
  const listen = (port: number) =>
    new Promise<ReturnType<typeof createServer> | undefined>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  for (;;) {
    const first = (await listen(0))!;
    const port = (first.address() as { port: number }).port;
    const second = await listen(port + 1);
    await new Promise((resolve) => first.close(resolve));
    if (second) {
      await new Promise((resolve) => second.close(resolve));
      return port;
    }
  }
}

beforeAll(async () => {
  [redis, mock] = await Promise.all([startRedis(), startMockServer({ port: 0 })]);
  const port = await twoFreePorts();
  ({ config } = await seedMock({ mockUrl: mock.url, publicUrl: `http://127.0.0.1:${port}`, port, databasePath: tempDatabase() }));
  workers = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`];
  shop = spawn(process.execPath, ['--experimental-strip-types', '--experimental-sqlite', 'src/cluster.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
    // No SIKARAMP_STELLAR_SECRET: src/cluster.ts gives its workers one account.
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: config.publicUrl,
      DATABASE_PATH: config.databasePath,
      REDIS_URL: redis.url,
      CLUSTER_WORKERS: '2',
      CLUSTER_PORTS: 'each',
      SIKARAMP_BASE_URL: config.baseUrl,
      SIKARAMP_ANCHOR_URL: config.anchorUrl,
      SIKARAMP_PUBLIC_KEY: config.publicKey,
      SIKARAMP_SECRET_KEY: config.secretKey,
      SIKARAMP_WEBHOOK_SECRET: config.webhookSecret,
      SIKARAMP_CUSTOMER_ID: config.customer.id,
      SIKARAMP_CHECKOUT_API_KEY: config.checkoutApiKey,
      SIKARAMP_CHECKOUT_WEBHOOK_SECRET: config.checkoutWebhookSecret,
      SIKARAMP_RAMP_PHONE: config.customer.phone,
    },
  });
  shop.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  shop.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const up = (url: string) => fetch(`${url}/`).then((r) => r.ok, () => false);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !(await up(workers[0]) && (await up(workers[1])))) await new Promise((r) => setTimeout(r, 100));
  if (!output.includes(`2 processes on ports ${port} to ${port + 1}; webhook keys, transaction owners and the anchor token in Redis`)) {
    throw new Error(`the shop did not start:\n${output}`);
  }
  client = createClient({ url: redis.url });
  client.on('error', () => undefined);
  await client.connect();
}, 60_000);
afterAll(async () => {
  await client?.close().catch(() => undefined);
  if (shop && shop.exitCode === null) {
    const exited = new Promise((resolve) => shop.once('exit', resolve));
    shop.kill('SIGTERM');
    await exited;
  }
  await Promise.all([redis?.stop(), mock?.close()]);
});

/** What the shop's page sends to `session-url`, through the worker `w`. */
async function session(w: 0 | 1, body: unknown) {
  const res = await fetch(`${workers[w]}/api/ramp/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: config.publicUrl },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { url: string; id: string };
}

const status = async (w: 0 | 1, id: string) => {
  const res = await fetch(`${workers[w]}/api/ramp/status?id=${encodeURIComponent(id)}`);
  return { status: res.status, body: (await res.json()) as any };
};

describe('the shop as two processes on one Redis (src/cluster.ts, CLUSTER_PORTS=each)', () => {
  let buy: { id: string };
  let sell: { id: string };

  it('answers status-url on the process that did not start the transaction, and signs in to the anchor once for both', async () => {
    const before = signIns();
    // Both processes need the anchor's token at once: one signs in, the other waits for its token.
    [buy, sell] = await Promise.all([session(0, { flow: 'buy', amount: 120, destination: config.customer.wallet }), session(1, { flow: 'sell', amount: 15 })]);

    expect(await status(1, buy.id)).toEqual({ status: 200, body: { transaction: expect.objectContaining({ id: buy.id, kind: 'deposit' }) } });
    expect(await status(0, sell.id)).toEqual({ status: 200, body: { transaction: expect.objectContaining({ id: sell.id, kind: 'withdrawal' }) } });
    // Polled on both, as a load balancer spreads a widget's polls.
    const polls = await Promise.all(Array.from({ length: 10 }, (_, i) => status((i % 2) as 0 | 1, i < 5 ? buy.id : sell.id)));
    expect(polls.map((p) => p.status)).toEqual(Array(10).fill(200));
    expect(signIns() - before).toBe(1);

    // A transaction no process of this shop started is unknown on both.
    for (const w of [0, 1] as const) expect((await status(w, '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d')).status).toBe(404);

    // What Redis holds: one token for the shop's account, and each transaction's customer for 7 days.
    expect(await client.keys('sikaramp:token:*')).toHaveLength(1);
    for (const id of [buy.id, sell.id]) {
      expect(await client.get(`sikaramp:owner:${id}`)).toBe(config.customer.id);
      expect(await client.ttl(`sikaramp:owner:${id}`)).toBeGreaterThan(7 * 24 * 3600 - 60);
    }
  });

  it('answers 500 on both processes while Redis is down, never 404; a Redis back empty has forgotten the owners', async () => {
    await redis.stop();
    try {
      // Each waits for Redis up to the store's timeoutMs (2 s), then answers.
      const answers = await Promise.all([status(0, buy.id), status(1, buy.id)]);
      expect(answers).toEqual([0, 1].map(() => ({ status: 500, body: { error: { code: 'internal_error', message: expect.any(String) } } })));
    } finally {
      await redis.start();
    }
    // Redis ran without persistence: what it held is gone (the scaling guide says to turn it on).
    for (const w of [0, 1] as const) {
      let answer = await status(w, buy.id);
      for (let i = 0; i < 50 && answer.status === 500; i++) answer = await new Promise((r) => setTimeout(r, 100)).then(() => status(w, buy.id));
      expect(answer.status).toBe(404);
    }
  });
});

/**
 * The shop as src/cluster.ts runs it: four worker processes on one port, REDIS_URL set, the
 * standalone mock seeded as the demo seeds it. The mock delivers 1,000 checkout webhooks to
 * the shop, 800 events and 200 redeliveries of them (half while the first delivery is still
 * in flight, half after): each event is handled once by the four processes together, answered
 * `{ received: true }` once and recorded once in the shop's SQLite file, and Redis runs one
 * script per delivery and one per handled event. Prints the time and the Redis operations.
 */
import type { ChildProcess } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { startMockServer, type MockServer } from '@sikaramp/mock-server';
import { CheckoutClient } from '@sikaramp/sdk';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandCalls, deliverLoad } from '../../../packages/sdk/test/helpers/redis-load.ts';
import { freePort, startRedis, type RedisServer } from '../../../packages/sdk/test/helpers/redis.ts';
import { seedMock } from '../src/seed.ts';
import { spawnCluster } from './cluster-shop.ts';
import { tempDatabase } from './helpers.ts';

const EVENTS = 800;
const DUPLICATES = 200;
const CONCURRENCY = 32;

let redis: RedisServer;
let mock: MockServer;
let shop: ChildProcess;
let client: RedisClientType;
let databasePath: string;
let reference: string;
let output = '';

beforeAll(async () => {
  [redis, mock] = await Promise.all([startRedis(), startMockServer({ port: 0, clock: 'manual' })]);
  const port = await freePort();
  databasePath = tempDatabase();
  const { config } = await seedMock({ mockUrl: mock.url, publicUrl: `http://127.0.0.1:${port}`, port, databasePath });
  shop = spawnCluster(config, { PORT: String(port), REDIS_URL: redis.url, CLUSTER_WORKERS: '4' });
  shop.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  shop.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  // The port answers once a worker listens; wait until every worker has said it listens.
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline && !(await fetch(`${config.publicUrl}/`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 200));
  if (!output.includes(`4 processes on port ${port}; webhook keys, transaction owners and the anchor token in Redis`)) {
    throw new Error(`the shop did not start:\n${output}`);
  }
  const checkout = new CheckoutClient({ baseUrl: config.checkoutBaseUrl, apiKey: config.checkoutApiKey });
  const created = await checkout.payments.create({
    amount: 10_000,
    currency: 'GHS',
    recipient: { name: 'Ama Mensah', email: 'ama@example.com' },
    redirect_url: `${config.publicUrl}/orders/none`,
  });
  if (created.outcome === 'in_progress') throw new Error('unexpected 202');
  reference = created.data.reference!;
  client = createClient({ url: redis.url });
  await client.connect();
}, 90_000);
afterAll(async () => {
  await client?.close();
  if (shop && shop.exitCode === null) {
    const exited = new Promise((resolve) => shop.once('exit', resolve));
    shop.kill('SIGTERM');
    await exited;
  }
  await Promise.all([redis?.stop(), mock?.close()]);
});

describe('the shop as four processes on one Redis (src/cluster.ts, REDIS_URL)', () => {
  it('handles each of 800 events once across 1,000 deliveries from the mock', async () => {
    const { deliveries, seconds, peakOps } = await deliverLoad(mock.backend, client, { reference, events: EVENTS, duplicates: DUPLICATES, concurrency: CONCURRENCY });

    const attempts = deliveries.flatMap((d) => d.attempts);
    const events = new Set(deliveries.map((d) => d.event_id));
    expect(attempts).toHaveLength(EVENTS + DUPLICATES);
    expect(events.size).toBe(EVENTS);
    // 409: the same event was in flight in another process, which handled it.
    expect(attempts.filter((a) => a.status !== 200 && a.status !== 409).map((a) => a.status ?? a.error)).toEqual([]);
    // The handler ran once per event: one answer `{ received: true }` each, the rest duplicates or 409.
    const handled = attempts.filter((a) => a.status === 200 && JSON.parse(a.response!.body).duplicate === undefined);
    expect(handled).toHaveLength(EVENTS);
    // And the shop recorded each event once, in the SQLite file all four processes share.
    const db = new DatabaseSync(databasePath, { readOnly: true });
    const recorded = db.prepare('SELECT event_id FROM webhook_events').all().map((row) => row.event_id);
    db.close();
    expect(new Set(recorded)).toEqual(events);

    const calls = await commandCalls(client);
    expect(calls.eval).toBe(EVENTS + DUPLICATES + EVENTS);
    const commands = (calls.set ?? 0) + (calls.get ?? 0) + (calls.del ?? 0);
    console.log(
      `merchant-express on 4 processes: ${EVENTS + DUPLICATES} deliveries (${EVENTS} events, ${attempts.filter((a) => a.status === 409).length} answered 409 in flight) ` +
        `in ${seconds.toFixed(2)} s; ${(calls.eval! / EVENTS).toFixed(2)} Redis scripts and ${(commands / EVENTS).toFixed(2)} commands in them per event; peak ${peakOps} ops/s`,
    );
  }, 60_000);
});

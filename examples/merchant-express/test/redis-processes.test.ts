/**
 * The shop as src/cluster.ts runs it behind a load balancer: two worker processes, each alone
 * on its own port (CLUSTER_PORTS=each), REDIS_URL set, against the standalone mock. The test is
 * the load balancer, sending each request to the process it chooses: a widget transaction
 * started through one process is answered by `status-url` on the other, to its customer; both
 * processes sign in to the anchor once between them (counted at the mock); and while Redis is
 * down `status-url` answers 500, never a 404.
 */
import { startMockServer, type MockServer } from '@sikaramp/mock-server';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../../../packages/sdk/test/helpers/redis.ts';
import { readStatus, signIns, startClusterShop, startTransaction, type ClusterShop } from './cluster-shop.ts';

let redis: RedisServer;
let mock: MockServer;
let shop: ClusterShop;
let client: RedisClientType;

beforeAll(async () => {
  [redis, mock] = await Promise.all([startRedis(), startMockServer({ port: 0 })]);
  shop = await startClusterShop(mock, { count: 2, redisUrl: redis.url });
  client = createClient({ url: redis.url });
  client.on('error', () => undefined);
  await client.connect();
}, 60_000);
afterAll(async () => {
  await client?.close().catch(() => undefined);
  await shop?.stop();
  await Promise.all([redis?.stop(), mock?.close()]);
});

describe('the shop as two processes on one Redis (src/cluster.ts, CLUSTER_PORTS=each)', () => {
  let buy: { id: string };
  let sell: { id: string };

  it('says where its state is', () => {
    const [port] = shop.workers.map((url) => Number(new URL(url).port));
    expect(shop.output()).toContain(`2 processes on ports ${port} to ${port! + 1}; webhook keys, transaction owners and the anchor token in Redis`);
  });

  it('answers status-url on the process that did not start the transaction, and signs in to the anchor once for both', async () => {
    const before = signIns(mock);
    // Both processes need the anchor's token at once: one signs in, the other waits for its token.
    [buy, sell] = await Promise.all([
      startTransaction(shop, 0, { flow: 'buy', amount: 120, destination: shop.config.customer.wallet }),
      startTransaction(shop, 1, { flow: 'sell', amount: 15 }),
    ]);

    expect(await readStatus(shop, 1, buy.id)).toEqual({ status: 200, body: { transaction: expect.objectContaining({ id: buy.id, kind: 'deposit' }) } });
    expect(await readStatus(shop, 0, sell.id)).toEqual({ status: 200, body: { transaction: expect.objectContaining({ id: sell.id, kind: 'withdrawal' }) } });
    // Polled on both, as a load balancer spreads a widget's polls.
    const polls = await Promise.all(Array.from({ length: 10 }, (_, i) => readStatus(shop, i % 2, i < 5 ? buy.id : sell.id)));
    expect(polls.map((p) => p.status)).toEqual(Array(10).fill(200));
    expect(signIns(mock) - before).toBe(1);

    // A transaction no process of this shop started is unknown on both.
    for (const w of [0, 1]) expect((await readStatus(shop, w, '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d')).status).toBe(404);

    // What Redis holds: one token for the shop's account, and each transaction's customer for 7 days.
    expect(await client.keys('sikaramp:token:*')).toHaveLength(1);
    for (const id of [buy.id, sell.id]) {
      expect(await client.get(`sikaramp:owner:${id}`)).toBe(shop.config.customer.id);
      expect(await client.ttl(`sikaramp:owner:${id}`)).toBeGreaterThan(7 * 24 * 3600 - 60);
    }
  });

  it('answers 500 on both processes while Redis is down, never 404; a Redis back empty has forgotten the owners', async () => {
    await redis.stop();
    try {
      // Each waits for Redis up to the store's timeoutMs (2 s), then answers.
      const answers = await Promise.all([readStatus(shop, 0, buy.id), readStatus(shop, 1, buy.id)]);
      expect(answers).toEqual([0, 1].map(() => ({ status: 500, body: { error: { code: 'internal_error', message: expect.any(String) } } })));
    } finally {
      await redis.start();
    }
    // Redis ran without persistence: what it held is gone (the scaling guide says to turn it on).
    for (const w of [0, 1]) {
      let answer = await readStatus(shop, w, buy.id);
      for (let i = 0; i < 50 && answer.status === 500; i++) answer = await new Promise((r) => setTimeout(r, 100)).then(() => readStatus(shop, w, buy.id));
      expect(answer.status).toBe(404);
    }
  });
});

/**
 * The shop as src/cluster.ts runs it on one host without Redis: two worker processes, each on
 * its own port, sharing the SQLite file. The widget transactions' owners are in that file, so
 * `status-url` answers on the process that did not start the transaction; the anchor token
 * stays per process (two sign-ins, counted at the mock).
 */
import { startMockServer, type MockServer } from '@sikaramp/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStatus, signIns, startClusterShop, startTransaction, type ClusterShop } from './cluster-shop.ts';

let mock: MockServer;
let shop: ClusterShop;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  shop = await startClusterShop(mock, { count: 2 });
}, 60_000);
afterAll(async () => {
  await shop?.stop();
  await mock?.close();
});

describe('the shop as two processes on one SQLite file (src/cluster.ts without REDIS_URL)', () => {
  it('says where its state is', () => {
    expect(shop.output()).toContain('2 processes on ports');
    expect(shop.output()).toContain('webhook keys and transaction owners in the SQLite file, an anchor token per process');
  });

  it('answers status-url on the other process from the shared file; each process signs in to the anchor itself', async () => {
    const before = signIns(mock);
    const [buy, sell] = await Promise.all([
      startTransaction(shop, 0, { flow: 'buy', amount: 80, destination: shop.config.customer.wallet }),
      startTransaction(shop, 1, { flow: 'sell', amount: 12 }),
    ]);
    expect(await readStatus(shop, 1, buy.id)).toEqual({ status: 200, body: { transaction: expect.objectContaining({ id: buy.id, kind: 'deposit' }) } });
    expect(await readStatus(shop, 0, sell.id)).toEqual({ status: 200, body: { transaction: expect.objectContaining({ id: sell.id, kind: 'withdrawal' }) } });
    for (const w of [0, 1]) expect((await readStatus(shop, w, '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d')).status).toBe(404);
    // One Stellar account (src/cluster.ts hands the primary's to both), one token in each process's memory.
    expect(signIns(mock) - before).toBe(2);
  });
});

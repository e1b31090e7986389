import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderRecord } from '../src/store.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { expectError, registerMerchant, type TestMerchant } from './helpers/merchant.js';

describe.each(MODES)('merchant order list, %s', (_name, start) => {
  let env: MockEnv;
  let merchant: TestMerchant;
  beforeAll(async () => {
    env = await start();
    merchant = await registerMerchant(env);
  });
  afterAll(() => env.close());

  /** Records an order as a completed interactive transaction does (handlers of the anchor surface). */
  function addOrder(merchantId: string, n: number): OrderRecord {
    const store = env.backend.store;
    const order: OrderRecord = {
      id: `ord_${crypto.randomUUID()}`,
      merchant_id: merchantId,
      status: 'completed',
      type: n % 2 ? 'offramp' : 'onramp',
      fiat_currency: 'GHS',
      fiat_amount: 100 + n,
      crypto_currency: 'USDC',
      crypto_amount: 6 + n,
      payment_method: 'mobile_money',
      destination_address: null,
      transaction_id: crypto.randomUUID(),
      created_at: new Date(env.backend.clock.now()).toISOString(),
      seq: store.seq++,
    };
    store.orders.set(order.id, order);
    return order;
  }

  const list = (query = '', m = merchant) => call(env, 'GET', `/api/v1/merchant/orders${query}`, { headers: m.auth });

  it('answers an empty list until orders exist', async () => {
    const res = await list('?limit=20&cursor=');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'has_more', 'meta', 'next_cursor']);
    expect(res.body).toMatchObject({ data: [], next_cursor: null, has_more: false });
    expect(res.body.meta).toEqual({ request_id: expect.stringMatching(/^req_/), timestamp: expect.any(String) });
  });

  it('pages through the merchant\'s orders, newest first, by cursor', async () => {
    const m = await registerMerchant(env);
    const other = await registerMerchant(env);
    const mine = Array.from({ length: 45 }, (_, i) => addOrder(m.id, i));
    addOrder(other.id, 99);
    const newestFirst = mine.map((o) => o.id).reverse();

    const seen: string[] = [];
    let cursor = '';
    const pages: { size: number; has_more: boolean }[] = [];
    for (;;) {
      const res = await list(`?limit=20&cursor=${cursor}`, m);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((o: { id: string }) => o.id));
      pages.push({ size: res.body.data.length, has_more: res.body.has_more });
      expect(res.body.next_cursor).toBe(res.body.data.at(-1).id);
      if (!res.body.has_more) break;
      cursor = res.body.next_cursor;
    }
    expect(pages).toEqual([
      { size: 20, has_more: true },
      { size: 20, has_more: true },
      { size: 5, has_more: false },
    ]);
    expect(seen).toEqual(newestFirst);
  });

  it('shows each documented field of an order list item', async () => {
    const m = await registerMerchant(env);
    const order = addOrder(m.id, 2);
    const res = await list('', m);
    expect(res.body.data).toEqual([
      {
        id: order.id,
        type: 'onramp',
        status: 'completed',
        fiat_currency: 'GHS',
        fiat_amount: 102,
        crypto_currency: 'USDC',
        crypto_amount: 8,
        payment_method: 'mobile_money',
        destination_address: null,
        transaction_id: order.transaction_id,
        created_at: order.created_at,
      },
    ]);
    expect(res.body.data[0].id).toMatch(/^ord_[0-9a-f-]{36}$/);
  });

  it('returns 20 orders when no limit is given', async () => {
    const m = await registerMerchant(env);
    for (let i = 0; i < 21; i++) addOrder(m.id, i);
    const res = await list('', m);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.has_more).toBe(true);
  });

  it('is not disturbed by an order created while paging', async () => {
    const m = await registerMerchant(env);
    const [a, b, c] = [addOrder(m.id, 1), addOrder(m.id, 2), addOrder(m.id, 3)];
    const first = await list('?limit=2', m);
    expect(first.body.data.map((o: OrderRecord) => o.id)).toEqual([c.id, b.id]);
    addOrder(m.id, 4);
    const second = await list(`?limit=2&cursor=${first.body.next_cursor}`, m);
    expect(second.body).toMatchObject({ data: [{ id: a.id }], next_cursor: a.id, has_more: false });
  });

  it('refuses a bad limit or an unknown cursor with VALIDATION_ERROR', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=ten', '?limit=1.5', '?limit=-1', '?cursor=ord_unknown']) {
      expectError(await list(query), 400, 'VALIDATION_ERROR');
    }
    const other = await registerMerchant(env);
    const foreign = addOrder(other.id, 1);
    expectError(await list(`?cursor=${foreign.id}`), 400, 'VALIDATION_ERROR');
  });

  it('needs the access token', async () => {
    expectError(await call(env, 'GET', '/api/v1/merchant/orders'), 401, 'UNAUTHORIZED');
  });
});

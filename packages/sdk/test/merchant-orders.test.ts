import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantClient } from '../src/clients/merchant.js';
import { ValidationError, type Order } from '../src/index.js';
import { newMerchant, type Merchant } from './helpers/clients.js';
import { json, startTestServer } from './helpers/http-server.js';
import { MODES, type MockEnv } from './helpers/mock.js';

describe.each(MODES)('merchant.orders, %s', (_name, start) => {
  let env: MockEnv;
  let merchant: Merchant;
  let ids: string[];
  beforeAll(async () => {
    env = await start({ seed: 24 });
    merchant = await newMerchant(env);
    // No public call completes orders yet: record them as a completed interactive transaction does.
    ids = Array.from({ length: 7 }, (_, n) => addOrder(merchant.id, n)).reverse();
  });
  afterAll(() => env.close());

  function addOrder(merchantId: string, n: number): string {
    const store = env.backend.store;
    const id = `ord_${crypto.randomUUID()}`;
    store.orders.set(id, {
      id,
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
    });
    return id;
  }

  it('iterates every order across pages, newest first', async () => {
    const seen: Order[] = [];
    for await (const order of merchant.client.orders.list({ limit: 3 })) seen.push(order);
    expect(seen.map((o) => o.id)).toEqual(ids);
    expect(seen[0]).toMatchObject({ status: 'completed', fiat_currency: 'GHS', fiat_amount: 106, crypto_currency: 'USDC', payment_method: 'mobile_money' });
    expect(merchant.sent.filter((s) => s === 'GET /api/v1/merchant/orders')).toHaveLength(3);
  });

  it('gives one page at a time', async () => {
    const first = await merchant.client.orders.list({ limit: 5 });
    expect(first.data.map((o) => o.id)).toEqual(ids.slice(0, 5));
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe(ids[4]);
    const second = await first.getNextPage();
    expect(second.data.map((o) => o.id)).toEqual(ids.slice(5));
    expect(second.hasNextPage()).toBe(false);
    await expect(second.getNextPage()).rejects.toThrow('There is no next page');
    const pages = [];
    for await (const page of first.iterPages()) pages.push(page.data.length);
    expect(pages).toEqual([5, 2]);
  });

  it('starts after a cursor', async () => {
    const page = await merchant.client.orders.list({ cursor: ids[1] });
    expect(page.data.map((o) => o.id)).toEqual(ids.slice(2));
  });

  it('lists nothing for a merchant without orders', async () => {
    const other = await newMerchant(env);
    const page = await other.client.orders.list();
    expect(page).toMatchObject({ data: [], has_more: false });
  });

  it('refuses a limit above 100 before sending, from await and from for await alike', async () => {
    const before = merchant.sent.length;
    await expect(merchant.client.orders.list({ limit: 101 })).rejects.toBeInstanceOf(ValidationError);
    const iterate = async () => {
      for await (const _ of merchant.client.orders.list({ limit: 0 }));
    };
    await expect(iterate()).rejects.toBeInstanceOf(ValidationError);
    expect(merchant.sent.length).toBe(before);
  });
});

describe('merchant.orders against a service that ends the list its own way (127.0.0.1)', () => {
  // 000 shows `next_cursor` only as a string on a page with more to come: a last page may
  // leave it out or send it empty, and iterating must stop there rather than throw.
  it('reads a last page whose next_cursor is absent, empty or null', async () => {
    const order = (id: string) => ({
      id,
      status: 'completed',
      fiat_currency: 'GHS',
      fiat_amount: 100,
      crypto_currency: 'USDC',
      crypto_amount: 6.2,
      payment_method: 'mobile_money',
      created_at: '2026-11-01T10:00:00Z',
    });
    for (const ending of [{}, { next_cursor: '' }, { next_cursor: null }]) {
      const server = await startTestServer((req, res) => {
        const first = !new URL(req.url, 'http://x').searchParams.get('cursor');
        json(res, 200, first ? { data: [order('ord_2')], next_cursor: 'ord_2', has_more: true } : { data: [order('ord_1')], has_more: false, ...ending });
      });
      try {
        const merchant = new MerchantClient({ baseUrl: server.url, accessToken: 'token' });
        const seen: string[] = [];
        for await (const o of merchant.orders.list()) seen.push(o.id);
        expect(seen).toEqual(['ord_2', 'ord_1']);
        expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/merchant/orders', '/api/v1/merchant/orders?cursor=ord_2']);
      } finally {
        await server.close();
      }
    }
  });
});

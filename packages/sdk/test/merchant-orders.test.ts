import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError, type Order } from '../src/index.js';
import { newMerchant, type Merchant } from './helpers/clients.js';
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

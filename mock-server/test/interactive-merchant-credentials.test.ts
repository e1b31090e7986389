/**
 * The interactive page's `POST /interactive/api/complete` for a merchant's transaction, over
 * real HTTP on 127.0.0.1: the page token alone does not confirm a merchant's order. The key and
 * the widget session of the request's merchant fields must still be good, as at POST
 * /api/v1/widget/orders; a revoked key or an expired session is refused with the widget
 * backend's error body (401 UNAUTHORIZED) and changes nothing (no order, no Mobile Money
 * prompt, the transaction still `incomplete`). A direct client's transaction (no
 * merchant) still completes with its page token. Set up through public endpoints only; time
 * moves on the manual clock.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStandalone, type MockEnv } from './helpers/env.js';
import { advance, signIn } from './helpers/interactive.js';
import { createKey, expectEnvelope, expectError, registerMerchant, type TestMerchant } from './helpers/merchant.js';

const PHONE = '+233201234567';

interface Shop {
  owner: TestMerchant;
  secretKey: { key: string; id: string };
  publicKey: { key: string; id: string };
  customerId: string;
}

async function openShop(env: MockEnv): Promise<Shop> {
  const owner = await registerMerchant(env);
  const secretKey = await createKey(env, owner, { key_type: 'secret', domains: [] });
  const publicKey = await createKey(env, owner, { key_type: 'public', domains: ['https://shop.example'] });
  const customer = await call(env, 'POST', '/api/v1/widget/customer', {
    headers: { 'x-api-key': secretKey.key },
    body: { first_name: 'Ama', last_name: 'Mensah', email_address: `ama.${owner.id}@example.com` },
  });
  expect(customer.status, JSON.stringify(customer.body)).toBe(201);
  return { owner, secretKey, publicKey, customerId: customer.body.data.id };
}

/** The page as its script starts: the page token and the API base from `#ramp-config`. */
async function openPage(url: string): Promise<{ api: string; token: string }> {
  const html = await (await fetch(url)).text();
  return JSON.parse(html.match(/<script type="application\/json" id="ramp-config">(.*?)<\/script>/s)![1]!);
}

/** One call of the page's API, with its token, as its script makes it. */
async function step(page: { api: string; token: string }, path: string, body?: unknown) {
  const res = await fetch(`${page.api}/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${page.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('POST /interactive/api/complete for a merchant\'s transaction (standalone, 127.0.0.1)', () => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await startStandalone({ seed: 5 });
  });
  afterAll(() => env.close());

  const wallet = Keypair.random().publicKey();
  const form = { provider: 'mtn', phone: PHONE, amount: 150, destination_address: wallet };

  /** A buy through the widget backend, its page opened and the phone verified by OTP on it. */
  async function startBuy(shop: Shop) {
    const res = await call(env, 'POST', '/api/v1/widget/deposit/interactive', {
      headers: { 'x-api-key': shop.secretKey.key },
      body: { asset_code: 'USDC', user_id: shop.customerId, api_key: shop.publicKey.key },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = await openPage(res.body.data.url);
    await verifyPhone(page);
    return { id: res.body.data.id as string, url: res.body.data.url as string, page };
  }

  async function verifyPhone(page: { api: string; token: string }) {
    expect((await step(page, 'otp', { phone: PHONE })).status).toBe(200);
    const code = (await call(env, 'GET', `/_mock/otp?phone=${encodeURIComponent(PHONE)}`)).body.code;
    expect((await step(page, 'verify', { phone: PHONE, code })).status).toBe(200);
  }

  /** What a refused completion must leave as it was: the transaction, the merchant's orders, the Mobile Money prompts. */
  async function observed(shop: Shop, id: string) {
    const transaction = (await call(env, 'GET', `/_mock/transactions/${id}`)).body;
    const orders = await call(env, 'GET', '/api/v1/merchant/orders?limit=100', { headers: shop.owner.auth });
    expect(orders.status, JSON.stringify(orders.body)).toBe(200);
    const prompts = (await call(env, 'GET', '/_mock/mobile-money')).body.data;
    return { transaction, orders: orders.body.data, prompts };
  }

  const revoke = async (shop: Shop, id: string) => {
    const res = await call(env, 'DELETE', `/api/v1/merchant/apikeys/${id}`, { headers: shop.owner.auth });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('completes with the page token while the key and session are good: the order is listed, the prompt sent', async () => {
    const shop = await openShop(env);
    const { id, page } = await startBuy(shop);
    const done = await step(page, 'complete', form);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expectEnvelope(done.body);
    expect(done.body.data.transaction).toMatchObject({ id, status: 'pending_user_transfer_start', amount_in: '150.00', to: wallet });
    const after = await observed(shop, id);
    expect(after.orders).toEqual([expect.objectContaining({ id: after.transaction.order_id, transaction_id: id, fiat_amount: 150 })]);
    expect(after.prompts.filter((p: any) => p.owner.id === id)).toMatchObject([{ status: 'pending', phone: PHONE, amount: 150 }]);
  });

  it('refuses with 401 UNAUTHORIZED once the merchant revoked its keys in the dashboard, and changes nothing', async () => {
    const shop = await openShop(env);
    const { id, page } = await startBuy(shop);
    await revoke(shop, shop.publicKey.id);
    await revoke(shop, shop.secretKey.id);
    const before = await observed(shop, id);

    const res = await step(page, 'complete', form);
    expectError(res, 401, 'UNAUTHORIZED');
    expect(res.body.error.message).toBe('Invalid or revoked API key');
    // The same code a second time, and with an OTP code in the body: still refused, still nothing.
    expectError(await step(page, 'complete', { ...form, otp_code: '123456' }), 401, 'UNAUTHORIZED');

    const after = await observed(shop, id);
    expect(after).toEqual(before);
    expect(after.transaction.transaction.status).toBe('incomplete');
    expect(after.transaction.order_id).toBeNull();
    expect(after.orders).toEqual([]);
  });

  it('refuses once only the public key the page confirms with is revoked, as the widget backend refuses the page', async () => {
    const shop = await openShop(env);
    const { id, url, page } = await startBuy(shop);
    await revoke(shop, shop.publicKey.id);
    const before = await observed(shop, id);
    expectError(await step(page, 'complete', form), 401, 'UNAUTHORIZED');
    // What the page sends to POST /api/v1/widget/orders with the credentials it is handed gets the same answer.
    const { order } = (await openPage(url)) as any;
    const viaOrders = await call(env, 'POST', '/api/v1/widget/orders', {
      headers: {
        origin: new URL(env.origin).origin,
        'x-api-key': order.api_key,
        'x-session-id': order.session_id,
        'x-session-token': order.session_token,
        'x-idempotency-key': crypto.randomUUID(),
      },
      body: { transaction_id: id, provider: 'mtn', phone: PHONE, amount: 150, destination_address: wallet },
    });
    expectError(viaOrders, 401, 'UNAUTHORIZED');
    expect(await observed(shop, id)).toEqual(before);
  });

  it('refuses with 401 UNAUTHORIZED once the widget session expired (30 minutes of clock time), the form still open, and changes nothing', async () => {
    // The merchant's backend opened the session 20 minutes before it started the transaction at
    // the anchor with its merchant fields: the session ends 10 minutes into the form's 30.
    const shop = await openShop(env);
    const opened = await call(env, 'POST', '/api/v1/widget/session', { headers: { 'x-api-key': shop.secretKey.key }, body: { user_id: shop.customerId } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const session = opened.body.data;
    await advance(env, 20 * 60);
    const token = await signIn(env, Keypair.random());
    const started = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: { authorization: `Bearer ${token}` },
      body: {
        asset_code: 'USDC',
        merchant_id: shop.owner.id,
        session_id: session.session_id,
        session_token: session.session_token,
        api_key: shop.publicKey.key,
        user_id: shop.customerId,
      },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const page = await openPage(started.body.url);
    await verifyPhone(page);
    await advance(env, 10 * 60);
    const before = await observed(shop, started.body.id);
    expect(before.transaction.transaction.status).toBe('incomplete');

    const res = await step(page, 'complete', form);
    expectError(res, 401, 'UNAUTHORIZED');
    expect(res.body.error.message).toBe('Session expired');
    expect(await observed(shop, started.body.id)).toEqual(before);
  });

  it("still completes a direct anchor client's transaction (no merchant) with the page token alone", async () => {
    const token = await signIn(env, Keypair.random());
    const started = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: { authorization: `Bearer ${token}` },
      body: { asset_code: 'USDC', amount: '150', account: wallet },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const page = await openPage(started.body.url);
    await verifyPhone(page);
    const done = await step(page, 'complete', { provider: 'mtn', phone: PHONE });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.transaction).toMatchObject({ id: started.body.id, status: 'pending_user_transfer_start', amount_in: '150.00', to: wallet });
    expect((await call(env, 'GET', `/_mock/transactions/${started.body.id}`)).body.order_id).toBeNull();
  });
});

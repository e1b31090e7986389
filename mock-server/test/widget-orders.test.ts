/**
 * `POST /api/v1/widget/orders` over real HTTP on 127.0.0.1: every documented answer (400
 * MISSING_HEADER, 401 UNAUTHORIZED, 409 DUPLICATE_ORDER, 422 PHONE_NOT_VERIFIED, 422
 * QUOTE_EXPIRED, 400 VALIDATION_ERROR, 201), set up through public endpoints only, and a
 * refusal changing nothing. Session and quote expiry come from advancing the manual clock.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStandalone, type MockEnv } from './helpers/env.js';
import { advance, signIn } from './helpers/interactive.js';
import { createKey, expectEnvelope, expectError, registerMerchant, type TestMerchant } from './helpers/merchant.js';

const SHOP_ORIGIN = 'https://shop.example';
const PHONE = '+233201234567';

interface Shop {
  owner: TestMerchant;
  secretKey: string;
  publicKey: string;
  customerId: string;
}

async function openShop(env: MockEnv): Promise<Shop> {
  const owner = await registerMerchant(env);
  const { key: secretKey } = await createKey(env, owner, { key_type: 'secret', domains: [] });
  const { key: publicKey } = await createKey(env, owner, { key_type: 'public', domains: [SHOP_ORIGIN] });
  const customer = await call(env, 'POST', '/api/v1/widget/customer', {
    headers: { 'x-api-key': secretKey },
    body: { first_name: 'Ama', last_name: 'Mensah', email_address: `ama.${owner.id}@example.com` },
  });
  expect(customer.status, JSON.stringify(customer.body)).toBe(201);
  return { owner, secretKey, publicKey, customerId: customer.body.data.id };
}

async function openSession(env: MockEnv, shop: Shop, userId = shop.customerId) {
  const res = await call(env, 'POST', '/api/v1/widget/session', { headers: { 'x-api-key': shop.secretKey }, body: { user_id: userId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { session_id: string; session_token: string };
}

async function startBuy(env: MockEnv, shop: Shop, body: Record<string, unknown> = {}) {
  const res = await call(env, 'POST', '/api/v1/widget/deposit/interactive', {
    headers: { 'x-api-key': shop.secretKey },
    body: { asset_code: 'USDC', user_id: shop.customerId, api_key: shop.publicKey, fiat_amount: 150, destination_address: Keypair.random().publicKey(), ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; url: string };
}

/** The page's settings, as its script reads them from `#ramp-config`. */
async function pageConfig(url: string) {
  const html = await (await fetch(url)).text();
  return JSON.parse(html.match(/<script type="application\/json" id="ramp-config">(.*?)<\/script>/s)![1]!);
}

/** Verifies the phone by OTP as the page does (its own API with the page token, the code read from the control API). */
async function verifyPhone(env: MockEnv, config: any, phone = PHONE) {
  const post = (path: string, body: unknown) =>
    fetch(`${config.api}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${config.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await post('otp', { phone })).status).toBe(200);
  const code = (await call(env, 'GET', `/_mock/otp?phone=${encodeURIComponent(phone)}`)).body.code;
  expect((await post('verify', { phone, code })).status).toBe(200);
}

const headersOf = (key: string, session: { session_id: string; session_token: string }, idempotencyKey: string = crypto.randomUUID()) => ({
  'x-api-key': key,
  'x-session-id': session.session_id,
  'x-session-token': session.session_token,
  'x-idempotency-key': idempotencyKey,
});

describe('POST /api/v1/widget/orders (standalone, 127.0.0.1)', () => {
  let env: MockEnv;
  let shop: Shop;
  beforeAll(async () => {
    env = await startStandalone({ rateLifetimeSeconds: 300 });
    shop = await openShop(env);
  });
  afterAll(() => env.close());

  const order = (headers: Record<string, string>, body: Record<string, unknown>) => call(env, 'POST', '/api/v1/widget/orders', { headers, body });
  const status = async (id: string) => (await call(env, 'GET', `/_mock/transactions/${id}`)).body;

  it('confirms the order with the session (201): the ord_ order and the transaction, now waiting for the payment', async () => {
    const tx = await startBuy(env, shop);
    await verifyPhone(env, await pageConfig(tx.url));
    const session = await openSession(env, shop);
    const res = await order(headersOf(shop.secretKey, session), { transaction_id: tx.id, provider: 'mtn', phone: PHONE });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectEnvelope(res.body);
    expect(Object.keys(res.body.data).sort()).toEqual(['order', 'transaction']);
    expect(res.body.data.order).toMatchObject({
      id: expect.stringMatching(/^ord_/),
      type: 'onramp',
      status: 'pending',
      fiat_currency: 'GHS',
      fiat_amount: 150,
      crypto_currency: 'USDC',
      payment_method: 'mobile_money',
      transaction_id: tx.id,
    });
    expect(res.body.data.transaction).toMatchObject({ id: tx.id, kind: 'deposit', status: 'pending_user_transfer_start', amount_in: '150.00' });
    const listed = await call(env, 'GET', '/api/v1/merchant/orders', { headers: shop.owner.auth });
    expect(JSON.stringify(listed.body)).toContain(res.body.data.order.id);
  });

  it('answers 400 MISSING_HEADER for a missing session or idempotency header (401 without the key), and changes nothing', async () => {
    const tx = await startBuy(env, shop);
    await verifyPhone(env, await pageConfig(tx.url));
    const all = headersOf(shop.secretKey, await openSession(env, shop));
    for (const name of ['x-session-id', 'x-session-token', 'x-idempotency-key'] as const) {
      for (const value of [undefined, '  ']) {
        const { [name]: _left, ...headers } = all;
        const res = await order(value === undefined ? headers : { ...headers, [name]: value }, { transaction_id: tx.id, provider: 'mtn', phone: PHONE });
        expectError(res, 400, 'MISSING_HEADER');
        expect(res.body.error.message.toLowerCase()).toContain(name);
      }
    }
    const { 'x-api-key': _key, ...keyless } = all;
    expectError(await order(keyless, { transaction_id: tx.id, provider: 'mtn', phone: PHONE }), 401, 'UNAUTHORIZED');
    expect((await status(tx.id)).transaction.status).toBe('incomplete');
  });

  it('answers 400 VALIDATION_ERROR for an X-Idempotency-Key that is not a UUID, and changes nothing; a UUID in either case is one key', async () => {
    const tx = await startBuy(env, shop);
    await verifyPhone(env, await pageConfig(tx.url));
    const session = await openSession(env, shop);
    const body = { transaction_id: tx.id, provider: 'mtn', phone: PHONE };
    const uuid = crypto.randomUUID();
    const notUuids = ['order-42', 'valid-1', uuid.replaceAll('-', ''), `${uuid}x`, `{${uuid}}`, uuid.slice(0, -1) + 'g', 'k'.repeat(36)];
    for (const key of notUuids) {
      const res = await order(headersOf(shop.secretKey, session, key), body);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.message).toBe('X-Idempotency-Key must be a UUID, e.g. crypto.randomUUID()');
    }
    const after = await status(tx.id);
    expect(after.transaction.status).toBe('incomplete');
    expect(after.order_id).toBeNull();
    expect((await call(env, 'GET', '/api/v1/merchant/orders?limit=100', { headers: shop.owner.auth })).body.data.map((o: any) => o.transaction_id)).not.toContain(tx.id);

    const first = await order(headersOf(shop.secretKey, session, uuid.toUpperCase()), body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const other = await startBuy(env, shop);
    expectError(await order(headersOf(shop.secretKey, session, uuid), { ...body, transaction_id: other.id }), 409, 'DUPLICATE_ORDER');
  });

  it('answers 401 UNAUTHORIZED for an unknown key, a wrong session token or another merchant\'s session', async () => {
    const tx = await startBuy(env, shop);
    const session = await openSession(env, shop);
    const other = await openShop(env);
    const body = { transaction_id: tx.id, provider: 'mtn', phone: PHONE };
    expectError(await order(headersOf('sika_public_nope', session), body), 401, 'UNAUTHORIZED');
    expectError(await order(headersOf(shop.secretKey, { ...session, session_token: 'wrong' }), body), 401, 'UNAUTHORIZED');
    expectError(await order(headersOf(shop.secretKey, await openSession(env, other)), body), 401, 'UNAUTHORIZED');
    // A transaction that is not the session's customer's is unknown to it.
    expectError(await order(headersOf(other.secretKey, await openSession(env, other)), body), 404, 'NOT_FOUND');
    expect((await status(tx.id)).transaction.status).toBe('incomplete');
  });

  it('answers 400 VALIDATION_ERROR for a bad body', async () => {
    const tx = await startBuy(env, shop);
    const session = await openSession(env, shop);
    const bodies = [
      {},
      { transaction_id: tx.id, phone: PHONE },
      { transaction_id: tx.id, provider: 'mtn', phone: PHONE, amount: -5 },
      { transaction_id: tx.id, provider: 'mtn', phone: PHONE, amount: 'ten' },
      { transaction_id: tx.id, provider: 'nokia', phone: PHONE },
      { transaction_id: tx.id, provider: 'mtn', phone: '024 123' },
    ];
    for (const body of bodies) expectError(await order(headersOf(shop.secretKey, session), body), 400, 'VALIDATION_ERROR');
    const raw = await call(env, 'POST', '/api/v1/widget/orders', { headers: { ...headersOf(shop.secretKey, session), 'content-type': 'application/json' }, rawBody: '{' });
    expectError(raw, 400, 'VALIDATION_ERROR');
    expect((await status(tx.id)).transaction.status).toBe('incomplete');
  });

  it('answers 422 PHONE_NOT_VERIFIED for a phone without OTP, and nothing changes', async () => {
    const tx = await startBuy(env, shop);
    const res = await order(headersOf(shop.secretKey, await openSession(env, shop)), { transaction_id: tx.id, provider: 'mtn', phone: '+233209999999' });
    expectError(res, 422, 'PHONE_NOT_VERIFIED');
    const after = await status(tx.id);
    expect(after.transaction.status).toBe('incomplete');
    expect(after.order_id).toBeNull();
  });

  it('answers 409 DUPLICATE_ORDER for a reused idempotency key, while a refused request left the key unused', async () => {
    const tx = await startBuy(env, shop);
    await verifyPhone(env, await pageConfig(tx.url));
    const session = await openSession(env, shop);
    const key = crypto.randomUUID();
    expectError(await order(headersOf(shop.secretKey, session, key), { transaction_id: tx.id, provider: 'nokia', phone: PHONE }), 400, 'VALIDATION_ERROR');
    const first = await order(headersOf(shop.secretKey, session, key), { transaction_id: tx.id, provider: 'mtn', phone: PHONE });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await order(headersOf(shop.secretKey, session, key), { transaction_id: tx.id, provider: 'mtn', phone: PHONE });
    expectError(again, 409, 'DUPLICATE_ORDER');
    // Another key cannot confirm the same form twice either.
    expectError(await order(headersOf(shop.secretKey, session), { transaction_id: tx.id, provider: 'mtn', phone: PHONE }), 409, 'INVALID_STATE');
  });

  it('takes the public key from the interactive page (its own origin) and from allowed domains, not from others', async () => {
    const tx = await startBuy(env, shop);
    const config = await pageConfig(tx.url);
    expect(config.order).toEqual({ url: `${env.origin}/api/v1/widget/orders`, api_key: shop.publicKey, session_id: expect.any(String), session_token: expect.any(String) });
    await verifyPhone(env, config);
    const body = { transaction_id: tx.id, provider: 'mtn', phone: PHONE };
    const session = { session_id: config.order.session_id, session_token: config.order.session_token };
    expectError(await order({ ...headersOf(shop.publicKey, session), origin: 'https://evil.example' }, body), 403, 'FORBIDDEN');
    const res = await order({ ...headersOf(shop.publicKey, session), origin: new URL(env.origin).origin }, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('answers 403 FORBIDDEN to a key without the permission for the transaction\'s direction', async () => {
    const sell = await call(env, 'POST', '/api/v1/widget/withdraw/interactive', {
      headers: { 'x-api-key': shop.secretKey },
      body: { asset_code: 'USDC', user_id: shop.customerId, api_key: shop.publicKey, onchain_amount: 20 },
    });
    expect(sell.status, JSON.stringify(sell.body)).toBe(200);
    const { key: buyOnly } = await createKey(env, shop.owner, { key_type: 'public', domains: [], permissions: ['onramp'] });
    const res = await order(headersOf(buyOnly, await openSession(env, shop)), { transaction_id: sell.body.data.id, provider: 'mtn', phone: PHONE });
    expectError(res, 403, 'FORBIDDEN');
    expect((await status(sell.body.data.id)).transaction.status).toBe('incomplete');
  });

  it('answers 422 QUOTE_EXPIRED when the transaction\'s SEP-38 quote ran out, and prices at a live one', async () => {
    // A customer at the anchor: a wallet signs in with its own key and sends the merchant fields.
    const wallet = Keypair.random();
    const token = await signIn(env, wallet);
    const usdc = (await call(env, 'GET', '/anchor/sep38/info')).body.assets[0].asset;
    const quote = async () => {
      const res = await call(env, 'POST', '/anchor/sep38/quote', {
        headers: { authorization: `Bearer ${token}` },
        body: { sell_asset: 'iso4217:GHS', buy_asset: usdc, sell_amount: '200', context: 'sep24', api_key: shop.publicKey },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const start = async (extra: Record<string, unknown>) => {
      const session = await openSession(env, shop);
      const res = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
        headers: { authorization: `Bearer ${token}` },
        body: { asset_code: 'USDC', merchant_id: shop.owner.id, ...session, api_key: shop.publicKey, user_id: shop.customerId, ...extra },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { ...(res.body as { id: string; url: string }), session };
    };

    const live = await quote();
    const priced = await start({ quote_id: live.id });
    const pricedPage = await pageConfig(priced.url);
    expect(pricedPage.guaranteed).toEqual({ rate: Number(live.price), expires_at: live.expires_at });
    await verifyPhone(env, pricedPage);
    const ok = await order(headersOf(shop.secretKey, priced.session), { transaction_id: priced.id, provider: 'mtn', phone: PHONE });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data.transaction).toMatchObject({ quote_id: live.id, amount_in: live.sell_amount, amount_out: live.buy_amount });

    const stale = await start({ quote_id: (await quote()).id });
    const unquoted = await start({ amount: '200' });
    const later = await quote();
    await advance(env, 300);
    const body = { provider: 'mtn', phone: PHONE };
    expectError(await order(headersOf(shop.secretKey, stale.session), { transaction_id: stale.id, ...body }), 422, 'QUOTE_EXPIRED');
    expectError(await order(headersOf(shop.secretKey, unquoted.session), { transaction_id: unquoted.id, quote_id: later.id, ...body }), 422, 'QUOTE_EXPIRED');
    for (const id of [stale.id, unquoted.id]) expect((await status(id)).transaction.status).toBe('incomplete');
    expect((await status(unquoted.id)).transaction.quote_id).toBeUndefined();
  });

  it('answers 401 UNAUTHORIZED once the session is 30 minutes old (clock time)', async () => {
    const tx = await startBuy(env, shop);
    await verifyPhone(env, await pageConfig(tx.url));
    const session = await openSession(env, shop);
    await advance(env, 30 * 60);
    const res = await order(headersOf(shop.secretKey, session), { transaction_id: tx.id, provider: 'mtn', phone: PHONE });
    expectError(res, 401, 'UNAUTHORIZED');
  });
});

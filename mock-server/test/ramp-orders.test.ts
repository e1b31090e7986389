import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/merchants.js';
import { call, MODES, startInProcess, type MockEnv } from './helpers/env.js';
import { expectEnvelope, expectError } from './helpers/merchant.js';
import {
  advance,
  createOrder,
  getOrder,
  newKey,
  newPhone,
  orderBody,
  placeOrder,
  rampMerchant,
  statusOf,
  verifyPhone,
  type RampMerchant,
} from './ramp-setup.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';

describe.each(MODES)('ramp orders: creation and lookup, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 21 });
  });
  afterAll(() => env.close());

  const ordersOf = (merchantId: string) => [...env.backend.store.ramp.orders.values()].filter((o) => o.merchant_id === merchantId);

  it('creates an on-ramp order in quote_locked with the documented fields; 2 s later the prompt is sent and it shows fiat_pending', async () => {
    const m = await rampMerchant(env);
    const phone = newPhone();
    await verifyPhone(env, m, phone);
    const destination = Keypair.random().publicKey();
    const now = Date.parse((await call(env, 'GET', '/_mock/clock')).body.now);
    const res = await createOrder(env, m, orderBody({ phone, destination_wallet: destination, fiat_amount: 100 }));
    expect(res.status).toBe(201);
    expectEnvelope(res.body);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(['crypto_amount', 'expires_at', 'fees', 'fiat_amount', 'id', 'rate', 'reference', 'status', 'type']);
    expect(data.id).toMatch(new RegExp(`^${UUID}$`));
    const day = new Date(now).toISOString().slice(0, 10).replace(/-/g, '');
    expect(data.reference).toMatch(new RegExp(`^RMP-${day}-${UUID}$`));
    // 15.5 GHS/USDC plus the 1 % spread; 1 % platform fee and 0.01 USDC network fee, out of the 100 GHS.
    expect(data).toMatchObject({
      type: 'onramp',
      status: 'quote_locked',
      fiat_amount: 100,
      crypto_amount: 6.31,
      rate: 15.66,
      fees: { platform_fee: 1, network_fee: 0.16, total: 1.16, fee_bps: 100 },
      expires_at: new Date(now + 300_000).toISOString(),
    });

    // The merchant sees quote_locked until the service sends the prompt.
    expect(await statusOf(env, m, data.reference)).toBe('quote_locked');
    expect((await call(env, 'GET', '/_mock/mobile-money')).body.data.filter((p: any) => p.owner.id === data.id)).toEqual([]);
    await advance(env, 2);
    const order = await getOrder(env, m, data.reference);
    expect(order).toMatchObject({
      id: data.id,
      reference: data.reference,
      status: 'fiat_pending',
      destination_wallet: destination,
      deposit: null,
      payment_method: 'mobile_money',
      fiat_currency: 'GHS',
      crypto_currency: 'USDC',
      user: { first_name: 'Kwame', last_name: 'Mensah', phone, network: 'MTN MoMo' },
      crypto_tx_hash: null,
      completed_at: null,
      failure_reason: null,
      expires_at: data.expires_at,
    });
    const prompts = (await call(env, 'GET', '/_mock/mobile-money?status=pending')).body.data;
    expect(prompts.find((p: any) => p.owner.id === data.id)).toMatchObject({ phone, amount: 100, provider: 'mtn', merchant_id: m.merchant.id });
  });

  it("creates an off-ramp order with the merchant's Stellar address and a memo, quote_locked, then waits in crypto_pending", async () => {
    const m = await rampMerchant(env);
    const res = await placeOrder(env, m, { type: 'offramp', fiat_amount: 100 });
    expect(Object.keys(res).sort()).toEqual(['crypto_amount', 'deposit', 'expires_at', 'fees', 'fiat_amount', 'id', 'phone', 'rate', 'reference', 'status', 'type']);
    expect(res).toMatchObject({
      type: 'offramp',
      status: 'quote_locked',
      fiat_amount: 100,
      crypto_amount: 6.6,
      rate: 15.35,
      fees: { platform_fee: 1.02, network_fee: 0.16, total: 1.18, fee_bps: 100 },
      deposit: { stellar_address: m.merchant.stellar_public_key, memo: expect.stringMatching(/^RMP[0-9A-F]{16}$/) },
    });
    expect(res.deposit.stellar_address).toMatch(/^G[A-Z2-7]{55}$/);
    expect(await statusOf(env, m, res.reference)).toBe('quote_locked');
    await advance(env, 2);
    const order = await getOrder(env, m, res.reference);
    expect(order).toMatchObject({ status: 'crypto_pending', deposit: res.deposit, destination_wallet: null, source_wallet: null });
  });

  it('requires X-Idempotency-Key: 400 MISSING_HEADER and nothing stored', async () => {
    const m = await rampMerchant(env);
    const phone = newPhone();
    await verifyPhone(env, m, phone);
    for (const headers of [m.auth, { ...m.auth, 'x-idempotency-key': '  ' }]) {
      const res = await call(env, 'POST', '/api/v1/ramp/orders', { headers, body: orderBody({ phone }) });
      expectError(res, 400, 'MISSING_HEADER');
      expect(res.body.error.message).toMatch(/X-Idempotency-Key/);
    }
    const long = await createOrder(env, m, orderBody({ phone }), 'k'.repeat(256));
    expectError(long, 400, 'VALIDATION_ERROR');
    expect(ordersOf(m.merchant.id)).toEqual([]);
  });

  it('refuses a reused X-Idempotency-Key with 409 DUPLICATE_ORDER naming the first order, once per merchant', async () => {
    const m = await rampMerchant(env);
    const phone = newPhone();
    await verifyPhone(env, m, phone);
    const key = newKey();
    const first = await createOrder(env, m, orderBody({ phone }), key);
    expect(first.status).toBe(201);
    const again = await createOrder(env, m, orderBody({ phone }), key);
    expectError(again, 409, 'DUPLICATE_ORDER');
    expect(again.body.error.message).toContain(first.body.data.reference);
    const other = await createOrder(env, m, orderBody({ phone, fiat_amount: 50 }), key);
    expectError(other, 409, 'DUPLICATE_ORDER');
    expect(ordersOf(m.merchant.id)).toHaveLength(1);

    const n = await rampMerchant(env);
    const theirPhone = newPhone();
    await verifyPhone(env, n, theirPhone);
    expect((await createOrder(env, n, orderBody({ phone: theirPhone }), key)).status).toBe(201);
  });

  it('does not spend the idempotency key on a refused request', async () => {
    const m = await rampMerchant(env);
    const phone = newPhone();
    const key = newKey();
    expectError(await createOrder(env, m, orderBody({ phone }), key), 422, 'PHONE_NOT_VERIFIED');
    expectError(await createOrder(env, m, { ...orderBody({ phone }), fiat_amount: 'ten' }, key), 400, 'VALIDATION_ERROR');
    await verifyPhone(env, m, phone);
    expect((await createOrder(env, m, orderBody({ phone }), key)).status).toBe(201);
  });

  it('refuses a phone without verified KYC at this merchant with 422 PHONE_NOT_VERIFIED', async () => {
    const m = await rampMerchant(env);
    const other = await rampMerchant(env);
    const phone = newPhone();
    await verifyPhone(env, other, phone);
    const pending = newPhone();
    await call(env, 'POST', '/api/v1/ramp/kyc/initiate', {
      headers: m.auth,
      body: { first_name: 'Yaw', last_name: 'Boateng', phone: pending, provider_name: 'mtn' },
    });
    for (const [p, type] of [[phone, 'onramp'], [pending, 'onramp'], [newPhone(), 'offramp']] as const) {
      const res = await createOrder(env, m, orderBody({ phone: p, type }));
      expectError(res, 422, 'PHONE_NOT_VERIFIED');
    }
    expect(ordersOf(m.merchant.id)).toEqual([]);
  });

  it('validates the order body, naming the field, and stores nothing', async () => {
    const m = await rampMerchant(env);
    const phone = newPhone();
    await verifyPhone(env, m, phone);
    const base = orderBody({ phone });
    // A different last character breaks the key's checksum.
    const key = Keypair.random().publicKey();
    const badChecksum = `${key.slice(0, 55)}${key.endsWith('A') ? 'B' : 'A'}`;
    const cases: [unknown, RegExp][] = [
      [{ ...base, type: 'swap' }, /^type: /],
      [{ ...base, destination_wallet: undefined }, /^destination_wallet: is required for an onramp order/],
      [{ ...base, destination_wallet: badChecksum }, /^destination_wallet: must be a Stellar public key/],
      [{ ...base, destination_wallet: Keypair.random().secret() }, /^destination_wallet: /],
      [{ ...base, payment_method: 'card' }, /^payment_method: must be mobile_money/],
      [{ ...base, fiat_amount: 10.001 }, /^fiat_amount: must have at most 2 decimal places/],
      [{ ...base, fiat_amount: -5 }, /^fiat_amount: /],
      [{ ...base, fiat_amount: '100' }, /^fiat_amount: /],
      [{ ...base, user: { ...base.user, network: 'Glo' } }, /^user\.network: must be one of/],
      [{ ...base, user: { ...base.user, phone: '241234567' } }, /^user\.phone: /],
      [{ ...base, user: undefined }, /^user: /],
    ];
    for (const [body, message] of cases) {
      const res = await createOrder(env, m, body);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }
    expectError(await call(env, 'POST', '/api/v1/ramp/orders', { headers: { ...m.auth, 'x-idempotency-key': newKey(), 'content-type': 'application/json' }, rawBody: '[1]' }), 400, 'VALIDATION_ERROR');
    expect(ordersOf(m.merchant.id)).toEqual([]);
  });

  it('refuses an order in a direction the key has no permission for with 403 FORBIDDEN, creating nothing', async () => {
    const m = await rampMerchant(env);
    const phone = newPhone();
    await verifyPhone(env, m, phone);
    const keyWith = async (permissions: string[]): Promise<RampMerchant> => {
      const { key } = await createApiKey(env.backend.context, m.merchant, { key_type: 'secret', permissions });
      return { ...m, key, auth: { authorization: `Bearer ${key}` } };
    };
    const buyOnly = await keyWith(['onramp']);
    const sellOnly = await keyWith(['offramp']);
    const prompts = async () => (await call(env, 'GET', '/_mock/mobile-money')).body.data.filter((p: any) => p.phone === phone).length;
    const key = newKey();
    for (const [who, type] of [[sellOnly, 'onramp'], [buyOnly, 'offramp']] as const) {
      const res = await createOrder(env, who, orderBody({ phone, type }), key);
      expectError(res, 403, 'FORBIDDEN');
      expect(res.body.error.message).toBe(`this key lacks the ${type} permission`);
      expect(res.body.error.message).not.toContain(who.key);
    }
    expect(ordersOf(m.merchant.id)).toEqual([]);
    expect(await prompts()).toBe(0);
    // The refusals spent neither the idempotency key nor anything else: each key can still do what it may.
    expect((await createOrder(env, buyOnly, orderBody({ phone, type: 'onramp' }), key)).status).toBe(201);
    expect((await createOrder(env, sellOnly, orderBody({ phone, type: 'offramp' }))).status).toBe(201);
    expect(ordersOf(m.merchant.id).map((o) => o.type).sort()).toEqual(['offramp', 'onramp']);
    await advance(env, 2);
    expect(await prompts()).toBe(1);
  });

  it("answers 404 NOT_FOUND for an unknown reference and for another merchant's order", async () => {
    const m = await rampMerchant(env);
    const other = await rampMerchant(env);
    const order = await placeOrder(env, m);
    for (const [who, ref] of [[m, 'RMP-20260101-00000000-0000-4000-8000-000000000000'], [other, order.reference]] as const) {
      expectError(await call(env, 'GET', `/api/v1/ramp/orders/${ref}`, { headers: who.auth }), 404, 'NOT_FOUND');
      expectError(await call(env, 'POST', `/api/v1/ramp/orders/${ref}/cancel`, { headers: who.auth }), 404, 'NOT_FOUND');
      expectError(
        await call(env, 'POST', `/api/v1/ramp/orders/${ref}/confirm`, { headers: who.auth, body: { source_wallet: Keypair.random().publicKey() } }),
        404,
        'NOT_FOUND',
      );
    }
    expect(await statusOf(env, m, order.reference)).toBe('quote_locked');
  });

  it('refuses every ramp call of a merchant not activated for ramp with 403 RAMP_NOT_ENABLED', async () => {
    const m = await rampMerchant(env, { enable: false });
    const calls = [
      call(env, 'POST', '/api/v1/ramp/orders', { headers: { ...m.auth, 'x-idempotency-key': newKey() }, body: orderBody({ phone: newPhone() }) }),
      call(env, 'GET', '/api/v1/ramp/orders/RMP-20260101-x', { headers: m.auth }),
      call(env, 'POST', '/api/v1/ramp/orders/RMP-20260101-x/cancel', { headers: m.auth }),
      call(env, 'POST', '/api/v1/ramp/orders/RMP-20260101-x/confirm', { headers: m.auth, body: {} }),
      call(env, 'POST', '/api/v1/ramp/kyc/verify', { headers: m.auth, body: {} }),
    ];
    for (const res of await Promise.all(calls)) expectError(res, 403, 'RAMP_NOT_ENABLED');
  });
});

describe('ramp orders at the production base URL (in-process)', () => {
  let env: MockEnv;
  const production = 'https://ramp.production.sikaramp.test';
  beforeAll(async () => {
    env = await startInProcess({ seed: 22, rampProductionUrl: production });
  });
  afterAll(() => env.close());

  it('serves the same API and the same orders at the sandbox and the production URL', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m);
    const res = await fetch(`${production}/api/v1/ramp/orders/${order.reference}`, { headers: m.auth });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data).toMatchObject({ reference: order.reference, status: 'quote_locked' });
    expect(env.backend.urls.ramp).toEqual([env.origin, production]);
  });
});

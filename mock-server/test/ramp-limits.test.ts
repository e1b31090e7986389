import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addVolume } from '../src/volume.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { expectError } from './helpers/merchant.js';
import { advance, createOrder, newPhone, orderBody, rampMerchant, statusOf, verifyPhone, type RampMerchant } from './ramp-setup.js';

/** A merchant with one verified phone, and an order call for it. */
async function orderer(env: MockEnv) {
  const m = await rampMerchant(env);
  const phone = newPhone();
  await verifyPhone(env, m, phone);
  const order = (fiat_amount: number, type: 'onramp' | 'offramp' = 'onramp') => createOrder(env, m, orderBody({ phone, type, fiat_amount }));
  return { m, phone, order };
}

function expectOutOfRange(res: { status: number; body: any }, message: string) {
  expectError(res, 422, 'AMOUNT_OUT_OF_RANGE');
  expect(res.body.error.message).toBe(message);
}

describe.each(MODES)('ramp amount limits at 15.5 GHS/USDC, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 51 });
  });
  afterAll(() => env.close());

  const ordersOf = (m: RampMerchant) => [...env.backend.store.ramp.orders.values()].filter((o) => o.merchant_id === m.merchant.id);

  it('refuses 0.99 USDC and accepts 1 USDC on the on-ramp (15.97 and 15.98 GHS)', async () => {
    const { m, order } = await orderer(env);
    expectOutOfRange(await order(15.97), 'crypto amount is below the minimum of 1 USDC');
    expect(ordersOf(m)).toEqual([]);
    const ok = await order(15.98);
    expect(ok.status).toBe(201);
    expect(ok.body.data.crypto_amount).toBe(1);
  });

  it('refuses 0.99 USDC and accepts 1 USDC on the off-ramp (14.88 and 14.89 GHS paid out)', async () => {
    const { order } = await orderer(env);
    expectOutOfRange(await order(14.88, 'offramp'), 'crypto amount is below the minimum of 1 USDC');
    const ok = await order(14.89, 'offramp');
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ fiat_amount: 14.89, crypto_amount: 1 });
  });

  it("accepts the merchant's maximum per transaction (5,000 GHS) and refuses 5,000.01, both directions", async () => {
    const { m, order } = await orderer(env);
    for (const type of ['onramp', 'offramp'] as const) {
      expectOutOfRange(await order(5000.01, type), 'fiat amount is above the maximum of 5000 GHS per transaction');
      expect((await order(5000, type)).status).toBe(201);
    }
    expect(ordersOf(m)).toHaveLength(2);
  });

  it('follows a per-merchant maximum configured by the operator', async () => {
    const { m, order } = await orderer(env);
    m.merchant.limits.maxPerTransaction = 200;
    expectOutOfRange(await order(200.01), 'fiat amount is above the maximum of 200 GHS per transaction');
    expect((await order(200)).status).toBe(201);
  });

  it('accepts an order that reaches the daily volume (20,000 GHS) exactly and refuses one beyond it', async () => {
    const { m, order } = await orderer(env);
    addVolume(env.backend.context, m.merchant, 19_900);
    expectOutOfRange(await order(100.01), 'the daily volume limit of 20000 GHS would be exceeded');
    expect((await order(100)).status).toBe(201);
  });

  it('counts completed orders, and only them, towards the daily volume', async () => {
    const { m, order } = await orderer(env);
    addVolume(env.backend.context, m.merchant, 18_000);
    const big = await order(1980);
    await order(20);
    // Not completed yet: only the 18,000 count.
    expect((await order(2000)).status).toBe(201);
    await call(env, 'POST', `/_mock/mobile-money/${big.body.data.reference}/approve`);
    await advance(env, 7);
    expect(await statusOf(env, m, big.body.data.reference)).toBe('completed');
    expect(m.merchant.current_month_volume).toBe(19_980);
    expect((await order(20)).status).toBe(201);
    expectOutOfRange(await order(20.01), 'the daily volume limit of 20000 GHS would be exceeded');
  });

  it('accepts an order that reaches the monthly volume (100,000 GHS) exactly and refuses one beyond it', async () => {
    const { m, order } = await orderer(env);
    addVolume(env.backend.context, m.merchant, 99_900);
    // A new day (the daily volume starts again), same month.
    await advance(env, 24 * 60 * 60);
    expectOutOfRange(await order(100.01), 'the monthly volume limit of 100000 GHS would be exceeded');
    expect((await order(100)).status).toBe(201);
  });
});

describe.each(MODES)('ramp amount limits at 5 GHS/USDC, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 52, exchangeRate: 5 });
  });
  afterAll(() => env.close());

  it('refuses 9.99 GHS and accepts 10 GHS, both directions', async () => {
    const { order } = await orderer(env);
    for (const type of ['onramp', 'offramp'] as const) {
      expectOutOfRange(await order(9.99, type), 'fiat amount is below the minimum of 10 GHS');
      const ok = await order(10, type);
      expect(ok.status).toBe(201);
      expect(ok.body.data.fiat_amount).toBe(10);
      expect(ok.body.data.crypto_amount).toBeGreaterThanOrEqual(1);
    }
  });
});

describe.each(MODES)('ramp rate limit, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 53 });
  });
  afterAll(() => env.close());

  const lookup = (m: RampMerchant) => call(env, 'GET', '/api/v1/ramp/orders/RMP-20260101-none', { headers: m.auth });

  it('answers the 101st request within one second of clock time with 429 RATE_LIMITED and Retry-After', async () => {
    const m = await rampMerchant(env);
    const other = await rampMerchant(env);
    const first = await Promise.all(Array.from({ length: 60 }, () => lookup(m)));
    expect(first.map((r) => r.status)).toEqual(Array(60).fill(404));
    await advance(env, 0.5);
    const second = await Promise.all(Array.from({ length: 40 }, () => lookup(m)));
    expect(second.map((r) => r.status)).toEqual(Array(40).fill(404));

    const limited = await lookup(m);
    expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('1');
    const order = await createOrder(env, m, orderBody({ phone: newPhone() }));
    expectError(order, 429, 'RATE_LIMITED');
    // Per merchant: another merchant is not affected.
    expect((await lookup(other)).status).toBe(404);

    // Half a second later the first 60 have left the window.
    await advance(env, 0.5);
    expect((await lookup(m)).status).toBe(404);
  });
});

import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { expectError } from './helpers/merchant.js';
import { advance, getOrder, payDeposit, placeOrder, rampMerchant, statusOf, type RampMerchant } from './ramp-setup.js';

// The default rate lock: a prompt stays open until 120 s after it, so that with the default
// settings an unanswered prompt ends in `expired` and a later approval is a late payment.
const LIFETIME = 300;

describe.each(MODES)('ramp order expiry and late payments, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 41 });
  });
  afterAll(() => env.close());

  const volumeOf = (m: RampMerchant) => env.backend.store.merchants.get(m.merchant.id)!.current_month_volume;
  const now = async () => Date.parse((await call(env, 'GET', '/_mock/clock')).body.now);

  it('expires an on-ramp order in fiat_pending when the rate lifetime elapses, keeping expires_at', async () => {
    const m = await rampMerchant(env);
    const created = await now();
    const order = await placeOrder(env, m);
    expect(order.expires_at).toBe(new Date(created + LIFETIME * 1000).toISOString());
    await advance(env, LIFETIME - 1);
    expect(await statusOf(env, m, order.reference)).toBe('fiat_pending');
    await advance(env, 1);
    expect(await getOrder(env, m, order.reference)).toMatchObject({ status: 'expired', expires_at: order.expires_at, failure_reason: null });
  });

  it('expires an off-ramp order in crypto_pending', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp' });
    await advance(env, LIFETIME);
    expect(await statusOf(env, m, order.reference)).toBe('expired');
  });

  it('does not expire an order whose payment went through before the rate lifetime elapsed', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m);
    await call(env, 'POST', `/_mock/mobile-money/${order.reference}/approve`);
    await advance(env, LIFETIME + 30);
    expect(await statusOf(env, m, order.reference)).toBe('completed');
  });

  it('refunds a Mobile Money payment approved after expiry: expired -> fiat_refunded, no volume', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { fiat_amount: 75.5 });
    await advance(env, LIFETIME);
    expect(await statusOf(env, m, order.reference)).toBe('expired');
    const approved = await call(env, 'POST', `/_mock/mobile-money/${order.reference}/approve`);
    expect(approved.status).toBe(200);
    const refunded = await getOrder(env, m, order.reference);
    expect(refunded.status).toBe('fiat_refunded');
    expect(refunded.refunds).toEqual([
      { method: 'mobile_money', amount: 75.5, status: 'pending', reason: 'Mobile Money payment confirmed after the order was expired', created_at: expect.any(String) },
    ]);
    const payouts = [...env.backend.store.mobileMoney.payouts.values()].filter((p) => p.owner.id === order.id);
    expect(payouts).toEqual([expect.objectContaining({ phone: order.phone, amount: 75.5, provider: 'mtn', status: 'pending' })]);
    await advance(env, 5);
    expect((await getOrder(env, m, order.reference)).refunds[0].status).toBe('completed');
    expect(await statusOf(env, m, order.reference)).toBe('fiat_refunded');
    expect(volumeOf(m)).toBe(0);
  });

  it('sends a failed Mobile Money refund again until it goes through', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m);
    await advance(env, LIFETIME);
    await call(env, 'POST', `/_mock/mobile-money/${order.id}/approve`);
    expect((await call(env, 'POST', `/_mock/payouts/${order.reference}/fail`)).status).toBe(200);
    expect((await getOrder(env, m, order.reference)).refunds[0].status).toBe('pending');
    await advance(env, 5);
    expect((await getOrder(env, m, order.reference)).refunds[0].status).toBe('completed');
    const payouts = [...env.backend.store.mobileMoney.payouts.values()].filter((p) => p.owner.id === order.id);
    expect(payouts.map((p) => [p.amount, p.status])).toEqual([[100, 'failed'], [100, 'succeeded']]);
  });

  it('refunds a Mobile Money payment approved after cancellation: cancelled -> fiat_refunded', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m);
    await advance(env, 2); // the prompt is sent
    expect((await call(env, 'POST', `/api/v1/ramp/orders/${order.reference}/cancel`, { headers: m.auth })).body.data.status).toBe('cancelled');
    await call(env, 'POST', `/_mock/mobile-money/${order.reference}/approve`);
    expect(await getOrder(env, m, order.reference)).toMatchObject({
      status: 'fiat_refunded',
      refunds: [expect.objectContaining({ method: 'mobile_money', reason: 'Mobile Money payment confirmed after the order was cancelled' })],
    });
  });

  it('leaves an expired order expired when its prompt is declined or times out (no money moved)', async () => {
    const m = await rampMerchant(env);
    const declined = await placeOrder(env, m);
    const unanswered = await placeOrder(env, m);
    await advance(env, LIFETIME);
    await call(env, 'POST', `/_mock/mobile-money/${declined.reference}/decline`);
    await advance(env, 120);
    for (const order of [declined, unanswered]) expect(await getOrder(env, m, order.reference)).toMatchObject({ status: 'expired', refunds: [] });
  });

  it('refunds USDC that arrives after expiry to the wallet that sent it: expired -> crypto_refunded', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp' });
    await advance(env, LIFETIME);
    const wallet = Keypair.random().publicKey();
    const payment = await payDeposit(env, order, wallet);
    expect(payment.matched).toEqual({ kind: 'ramp_order', id: order.id });
    const refunded = await getOrder(env, m, order.reference);
    expect(refunded.status).toBe('crypto_refunded');
    expect(refunded.refunds).toEqual([
      { method: 'usdc', amount: order.crypto_amount, status: 'pending', reason: 'USDC arrived after the order was expired', created_at: expect.any(String) },
    ]);
    await advance(env, 5);
    expect((await getOrder(env, m, order.reference)).refunds[0].status).toBe('completed');
    const back = [...env.backend.store.stellar.payments.values()].filter((p) => p.direction === 'outbound' && p.matched?.id === order.id);
    expect(back).toEqual([
      expect.objectContaining({ from: order.deposit.stellar_address, to: wallet, amount: String(order.crypto_amount), asset_code: 'USDC', status: 'confirmed' }),
    ]);
    // A confirm call now is too late as well.
    const confirm = await call(env, 'POST', `/api/v1/ramp/orders/${order.reference}/confirm`, { headers: m.auth, body: { source_wallet: wallet } });
    expectError(confirm, 409, 'INVALID_STATE');
    expect(volumeOf(m)).toBe(0);
  });

  it('refunds USDC that arrives after cancellation, and any further payment with the memo too', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp' });
    await call(env, 'POST', `/api/v1/ramp/orders/${order.reference}/cancel`, { headers: m.auth });
    const wallet = Keypair.random().publicKey();
    await payDeposit(env, order, wallet);
    await payDeposit(env, order, wallet, 3);
    const refunded = await getOrder(env, m, order.reference);
    expect(refunded.status).toBe('crypto_refunded');
    expect(refunded.refunds.map((r: any) => [r.amount, r.reason])).toEqual([
      [order.crypto_amount, 'USDC arrived after the order was cancelled'],
      [3, 'the order already has its USDC payment'],
    ]);
  });

  it('ignores payments that are not USDC or carry no matching memo', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp' });
    await advance(env, 2); // crypto_pending
    const from = Keypair.random().publicKey();
    const to = order.deposit.stellar_address;
    for (const body of [
      { from, to, amount: String(order.crypto_amount), asset_code: 'XLM', memo: order.deposit.memo },
      { from, to, amount: String(order.crypto_amount), asset_code: 'USDC', memo: 'RMP0000000000000000' },
      { from, to, amount: String(order.crypto_amount), asset_code: 'USDC', memo: null },
      { from, to: Keypair.random().publicKey(), amount: String(order.crypto_amount), asset_code: 'USDC', memo: order.deposit.memo },
    ]) {
      const res = await call(env, 'POST', '/_mock/stellar/payments', { body });
      expect(res.status).toBe(201);
      expect(res.body.matched).toBeNull();
    }
    expect(await getOrder(env, m, order.reference)).toMatchObject({ status: 'crypto_pending', refunds: [] });
  });
});

describe.each(MODES)('ramp order expiry from quote_locked (a rate lock shorter than the 2 s before payment starts), %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 42, rateLifetimeSeconds: 1 });
  });
  afterAll(() => env.close());

  it('moves quote_locked -> expired when the rate lock ends first; no prompt is sent and nothing is awaited', async () => {
    const m = await rampMerchant(env);
    const onramp = await placeOrder(env, m);
    const offramp = await placeOrder(env, m, { type: 'offramp' });
    for (const order of [onramp, offramp]) expect(await statusOf(env, m, order.reference)).toBe('quote_locked');
    await advance(env, 1);
    for (const order of [onramp, offramp]) {
      expect(await getOrder(env, m, order.reference)).toMatchObject({ status: 'expired', expires_at: order.expires_at, failure_reason: null });
    }
    await advance(env, 5);
    for (const order of [onramp, offramp]) expect(await statusOf(env, m, order.reference)).toBe('expired');
    expect((await call(env, 'GET', `/_mock/ramp/orders/${onramp.reference}`)).body.rails.collections).toEqual([]);
    // Without a prompt there is nothing to approve.
    expectError(await call(env, 'POST', `/_mock/mobile-money/${onramp.reference}/approve`), 404, 'NOT_FOUND');
    // USDC that comes anyway is late: refunded to its wallet.
    await payDeposit(env, offramp, Keypair.random().publicKey());
    expect(await statusOf(env, m, offramp.reference)).toBe('crypto_refunded');
  });
});

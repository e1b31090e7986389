/**
 * "Failed payment: no crypto is sent and nothing is deducted" (000 section 1): an order that
 * fails after the user's money came in gives all of it back, once, and says so on lookup.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { expectError } from './helpers/merchant.js';
import { advance, getOrder, payDeposit, placeOrder, rampMerchant, type RampMerchant } from './ramp-setup.js';

describe.each(MODES)('ramp refunds of failed orders, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 51 });
  });
  afterAll(() => env.close());

  const volumeOf = (m: RampMerchant) => env.backend.store.merchants.get(m.merchant.id)!.current_month_volume;
  const post = (path: string, body?: unknown) => call(env, 'POST', `/_mock${path}`, { body });
  /** The order as control shows it, with the Mobile Money and Stellar records it owns. */
  const railsOf = async (ref: string) => (await call(env, 'GET', `/_mock/ramp/orders/${ref}`)).body;
  const outbound = (rails: any) => rails.rails.stellar_payments.filter((p: any) => p.direction === 'outbound');

  async function onRampSending(m: RampMerchant, fiat_amount = 100) {
    const order = await placeOrder(env, m, { fiat_amount });
    expect((await post(`/mobile-money/${order.reference}/approve`)).status).toBe(200);
    await advance(env, 2);
    expect((await getOrder(env, m, order.reference)).status).toBe('crypto_sending');
    return order;
  }

  async function offRampSending(m: RampMerchant, fiat_amount = 100) {
    const order = await placeOrder(env, m, { type: 'offramp', fiat_amount });
    const wallet = Keypair.random().publicKey();
    const payment = await payDeposit(env, order, wallet);
    const confirmed = await call(env, 'POST', `/api/v1/ramp/orders/${order.reference}/confirm`, { headers: m.auth, body: { source_wallet: wallet } });
    expect(confirmed.body.data.status).toBe('crypto_confirmed');
    await advance(env, 2);
    expect((await getOrder(env, m, order.reference)).status).toBe('fiat_sending');
    return Object.assign(order, { wallet, payment });
  }

  /** Fails the USDC send under way three times, 30 s apart: the on-ramp order gives up. */
  async function failAllSends(ref: string) {
    for (const attempt of [1, 2, 3]) {
      const res = await post(`/ramp/orders/${ref}/send/fail`);
      expect(res.status, `attempt ${attempt}`).toBe(200);
      if (attempt < 3) await advance(env, 30);
    }
  }

  it("on-ramp: the third failed USDC send refunds the collected cedis to the user's phone, once, shown on lookup", async () => {
    const m = await rampMerchant(env);
    const order = await onRampSending(m, 75.5);
    await failAllSends(order.reference);
    const failed = await getOrder(env, m, order.reference);
    const reason = 'USDC send failed after 3 attempts: Stellar transaction failed';
    expect(failed).toMatchObject({ status: 'failed', failure_reason: reason, crypto_tx_hash: null, completed_at: null });
    expect(failed.refunds).toEqual([
      { method: 'mobile_money', amount: 75.5, status: 'pending', reason: `the order failed: ${reason}`, created_at: failed.updated_at },
    ]);
    const pending = await railsOf(order.reference);
    expect(pending.rails.payouts).toEqual([expect.objectContaining({ phone: order.phone, provider: 'mtn', amount: 75.5, status: 'pending' })]);
    expect(pending.refunds[0].rail_id).toBe(pending.rails.payouts[0].id);

    await advance(env, 5);
    expect((await getOrder(env, m, order.reference)).refunds).toEqual([expect.objectContaining({ amount: 75.5, status: 'completed' })]);
    await advance(env, 600);
    const settled = await railsOf(order.reference);
    expect(settled).toMatchObject({ status: 'failed', refunds: [expect.objectContaining({ status: 'completed' })] });
    expect(settled.rails.payouts.map((p: any) => [p.amount, p.status])).toEqual([[75.5, 'succeeded']]);
    expect(outbound(settled).map((p: any) => p.status)).toEqual(['failed', 'failed', 'failed']);
    expect(volumeOf(m)).toBe(0);
  });

  it('on-ramp: an unrecoverable error while sending refunds the cedis, and the USDC send under way never lands', async () => {
    const m = await rampMerchant(env);
    const order = await onRampSending(m);
    const res = await post(`/ramp/orders/${order.reference}/fail`, { reason: 'destination account is blocked' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'failed',
      failure_reason: 'destination account is blocked',
      refunds: [expect.objectContaining({ method: 'mobile_money', amount: 100, status: 'pending', reason: 'the order failed: destination account is blocked' })],
    });
    await advance(env, 60);
    const settled = await railsOf(order.reference);
    expect(settled.refunds).toEqual([expect.objectContaining({ status: 'completed' })]);
    expect(settled.rails.payouts.map((p: any) => [p.amount, p.status])).toEqual([[100, 'succeeded']]);
    expect(outbound(settled)).toEqual([expect.objectContaining({ to: settled.destination_wallet, status: 'failed' })]);
    expect(settled.crypto_tx_hash).toBeNull();
  });

  it('on-ramp: a failed refund payout is sent again until it goes through, still one refund', async () => {
    const m = await rampMerchant(env);
    const order = await onRampSending(m);
    await post(`/ramp/orders/${order.reference}/fail`);
    expect((await post(`/payouts/${order.reference}/fail`, { reason: 'provider timeout' })).status).toBe(200);
    expect((await getOrder(env, m, order.reference)).refunds).toEqual([expect.objectContaining({ status: 'pending' })]);
    await advance(env, 5);
    const done = await railsOf(order.reference);
    expect(done.refunds).toEqual([expect.objectContaining({ amount: 100, status: 'completed', rail_id: done.rails.payouts[1].id })]);
    expect(done.rails.payouts.map((p: any) => [p.amount, p.status])).toEqual([[100, 'failed'], [100, 'succeeded']]);
    expect(done.status).toBe('failed');
  });

  it('off-ramp: the third failed payout sends the USDC back to the source wallet, once, shown on lookup', async () => {
    const m = await rampMerchant(env);
    const order = await offRampSending(m, 120);
    for (const attempt of [1, 2, 3]) {
      expect((await post(`/payouts/${order.reference}/fail`, { reason: 'recipient wallet unreachable' })).status).toBe(200);
      if (attempt < 3) await advance(env, 30);
    }
    const failed = await getOrder(env, m, order.reference);
    const reason = 'Mobile Money payout failed after 3 attempts: recipient wallet unreachable';
    expect(failed).toMatchObject({ status: 'failed', failure_reason: reason, crypto_tx_hash: order.payment.hash, completed_at: null });
    expect(failed.refunds).toEqual([
      { method: 'usdc', amount: order.crypto_amount, status: 'pending', reason: `the order failed: ${reason}`, created_at: failed.updated_at },
    ]);
    const back = outbound(await railsOf(order.reference));
    expect(back).toEqual([
      expect.objectContaining({ from: order.deposit.stellar_address, to: order.wallet, amount: String(order.crypto_amount), asset_code: 'USDC', status: 'pending' }),
    ]);

    await advance(env, 5);
    expect((await getOrder(env, m, order.reference)).refunds).toEqual([expect.objectContaining({ status: 'completed' })]);
    await advance(env, 600);
    const settled = await railsOf(order.reference);
    expect(settled.status).toBe('failed');
    expect(outbound(settled).map((p: any) => [p.to, p.amount, p.status])).toEqual([[order.wallet, String(order.crypto_amount), 'confirmed']]);
    expect(settled.rails.payouts.map((p: any) => p.status)).toEqual(['failed', 'failed', 'failed']);
    expect(volumeOf(m)).toBe(0);
  });

  it('off-ramp: an unrecoverable error in fiat_sending or in fiat_retry sends the USDC back, and no cedis go out', async () => {
    const m = await rampMerchant(env);
    const sending = await offRampSending(m);
    const retrying = await offRampSending(m);
    await post(`/payouts/${retrying.reference}/fail`);
    expect((await getOrder(env, m, retrying.reference)).status).toBe('fiat_retry');
    for (const order of [sending, retrying]) {
      const res = await post(`/ramp/orders/${order.reference}/fail`, { reason: 'account frozen by the provider' });
      expect(res.body).toMatchObject({
        status: 'failed',
        refunds: [expect.objectContaining({ method: 'usdc', amount: order.crypto_amount, status: 'pending', reason: 'the order failed: account frozen by the provider' })],
      });
    }
    await advance(env, 600);
    for (const order of [sending, retrying]) {
      const settled = await railsOf(order.reference);
      expect(settled).toMatchObject({ status: 'failed', refunds: [expect.objectContaining({ status: 'completed' })] });
      expect(outbound(settled).map((p: any) => [p.to, p.status])).toEqual([[order.wallet, 'confirmed']]);
      expect(settled.rails.payouts.every((p: any) => p.status === 'failed')).toBe(true);
    }
  });

  it('refunds nothing when the order ends before any money came in: declined (failed) or unanswered (expired)', async () => {
    const m = await rampMerchant(env);
    const declined = await placeOrder(env, m);
    const unanswered = await placeOrder(env, m);
    await post(`/mobile-money/${declined.reference}/decline`);
    await advance(env, 300 + 120);
    for (const [order, status] of [[declined, 'failed'], [unanswered, 'expired']] as const) {
      const settled = await railsOf(order.reference);
      expect(settled).toMatchObject({ status, refunds: [] });
      expect(settled.rails.payouts).toEqual([]);
    }
  });

  it('refuses to fail a failed order again, so its money is never refunded twice', async () => {
    const m = await rampMerchant(env);
    const onramp = await onRampSending(m);
    const offramp = await offRampSending(m);
    for (const order of [onramp, offramp]) await post(`/ramp/orders/${order.reference}/fail`);
    await advance(env, 5);
    for (const order of [onramp, offramp]) {
      expectError(await post(`/ramp/orders/${order.reference}/fail`), 409, 'INVALID_STATE');
      expectError(await call(env, 'POST', `/api/v1/ramp/orders/${order.reference}/cancel`, { headers: m.auth }), 409, 'INVALID_STATE');
    }
    expectError(await post(`/ramp/orders/${onramp.reference}/send/fail`), 409, 'INVALID_STATE');
    expectError(await post(`/payouts/${onramp.reference}/fail`), 409, 'INVALID_STATE');
    await advance(env, 600);
    for (const order of [onramp, offramp]) {
      expect((await getOrder(env, m, order.reference)).refunds).toEqual([expect.objectContaining({ status: 'completed' })]);
    }
  });
});

/**
 * 001 section 1, off-ramp: "the order returns the merchant's Stellar address; the user sends
 * USDC to that address; merchant calls the confirm endpoint with the source wallet (the
 * transaction is detected automatically)". The document names no memo: the service finds the
 * user's payment by the wallet the confirm call names. The mock's memo (ours) identifies the
 * order too, but a user who pays as the document says, without it, must be served as well.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { advance, getOrder, placeOrder, rampMerchant, statusOf, type RampMerchant } from './ramp-setup.js';

describe.each(MODES)('off-ramp payment detection by source wallet, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 93 });
  });
  afterAll(() => env.close());

  const confirm = (m: RampMerchant, reference: string, source_wallet: string) =>
    call(env, 'POST', `/api/v1/ramp/orders/${reference}/confirm`, { headers: m.auth, body: { source_wallet } });

  /** USDC from `from` to the order's deposit address, with no memo (or `memo`). */
  async function pay(order: Record<string, any>, from: string, { amount = order.crypto_amount, memo = null as string | null } = {}) {
    const res = await call(env, 'POST', '/_mock/stellar/payments', {
      body: { from, to: order.deposit.stellar_address, amount: String(amount), asset_code: 'USDC', memo },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { hash: string; matched: { kind: string; id: string } | null };
  }

  const refundsTo = (wallet: string) => [...env.backend.store.stellar.payments.values()].filter((p) => p.direction === 'outbound' && p.to === wallet);

  it('confirm first, then USDC without a memo from that wallet: detected, paid out, completed with its hash', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp', fiat_amount: 150 });
    const wallet = Keypair.random().publicKey();
    expect((await confirm(m, order.reference, wallet)).body.data.status).toBe('crypto_pending');
    const payment = await pay(order, wallet);
    expect(payment.matched).toEqual({ kind: 'ramp_order', id: order.id });
    expect(await statusOf(env, m, order.reference)).toBe('crypto_confirmed');
    await advance(env, 2 + 5);
    expect(await getOrder(env, m, order.reference)).toMatchObject({ status: 'completed', crypto_tx_hash: payment.hash, source_wallet: wallet });
  });

  it('USDC without a memo first, then the confirm call naming its wallet: detected then', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp' });
    const wallet = Keypair.random().publicKey();
    const payment = await pay(order, wallet);
    expect(payment.matched).toBeNull();
    const confirmed = await confirm(m, order.reference, wallet);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data).toMatchObject({ status: 'crypto_confirmed', crypto_tx_hash: payment.hash });
    expect(env.backend.store.stellar.payments.get(payment.hash)?.matched).toEqual({ kind: 'ramp_order', id: order.id });
  });

  it('takes a payment without a memo only from the confirmed wallet, and refunds one of the wrong amount', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp' });
    const wallet = Keypair.random().publicKey();
    await confirm(m, order.reference, wallet);
    const stranger = Keypair.random().publicKey();
    expect((await pay(order, stranger)).matched).toBeNull();
    expect(refundsTo(stranger)).toEqual([]);
    expect((await pay(order, wallet, { amount: order.crypto_amount + 1 })).matched).toEqual({ kind: 'ramp_order', id: order.id });
    expect(refundsTo(wallet)).toHaveLength(1);
    expect(await statusOf(env, m, order.reference)).toBe('crypto_pending');
    await pay(order, wallet);
    expect(await statusOf(env, m, order.reference)).toBe('crypto_confirmed');
  });

  it('refunds USDC without a memo that arrives from the confirmed wallet after expiry: expired -> crypto_refunded', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp' });
    const wallet = Keypair.random().publicKey();
    await confirm(m, order.reference, wallet);
    await advance(env, 300);
    expect(await statusOf(env, m, order.reference)).toBe('expired');
    await pay(order, wallet);
    expect(await statusOf(env, m, order.reference)).toBe('crypto_refunded');
    expect(refundsTo(wallet).map((p) => p.amount)).toEqual([String(order.crypto_amount)]);
  });

  it('gives a payment with another order\'s memo to that order, not to the one whose wallet sent it', async () => {
    const m = await rampMerchant(env);
    const first = await placeOrder(env, m, { type: 'offramp' });
    const second = await placeOrder(env, m, { type: 'offramp', phone: first.phone });
    const wallet = Keypair.random().publicKey();
    await confirm(m, first.reference, wallet);
    const payment = await pay(second, wallet, { memo: second.deposit.memo });
    expect(payment.matched).toEqual({ kind: 'ramp_order', id: second.id });
    expect(await statusOf(env, m, first.reference)).toBe('crypto_pending');
  });
});

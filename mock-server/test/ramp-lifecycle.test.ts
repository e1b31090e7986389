import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canMoveRampOrder, type RampOrderEvent } from '../src/machines/ramp-order.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { expectError } from './helpers/merchant.js';
import { advance, getOrder, newPhone, payDeposit, placeOrder, rampMerchant, statusOf, verifyPhone, type RampMerchant } from './ramp-setup.js';

describe.each(MODES)('ramp order lifecycle, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 31 });
  });
  afterAll(() => env.close());

  const volumeOf = (m: RampMerchant) => env.backend.store.merchants.get(m.merchant.id)!.current_month_volume;
  const control = (path: string, body?: unknown) => call(env, path.startsWith('GET ') ? 'GET' : 'POST', `/_mock${path.replace(/^GET /, '')}`, { body });
  const approve = (ref: string) => control(`/mobile-money/${ref}/approve`);
  const failPayout = (ref: string) => control(`/payouts/${ref}/fail`, { reason: 'recipient wallet unreachable' });
  const failSend = (ref: string) => control(`/ramp/orders/${ref}/send/fail`);
  const cancel = (m: RampMerchant, ref: string) => call(env, 'POST', `/api/v1/ramp/orders/${ref}/cancel`, { headers: m.auth });
  const confirm = (m: RampMerchant, ref: string, source_wallet: string) =>
    call(env, 'POST', `/api/v1/ramp/orders/${ref}/confirm`, { headers: m.auth, body: { source_wallet } });

  /** An on-ramp order moved to `crypto_sending` (prompt approved, hand-off elapsed). */
  async function onRampSending(m: RampMerchant, fiat_amount = 100, phone?: string) {
    const order = await placeOrder(env, m, { fiat_amount, phone });
    expect((await approve(order.reference)).status).toBe(200);
    await advance(env, 2);
    expect(await statusOf(env, m, order.reference)).toBe('crypto_sending');
    return order;
  }

  /** An off-ramp order moved to `fiat_sending` (USDC paid, confirmed, hand-off elapsed). */
  async function offRampSending(m: RampMerchant, fiat_amount = 100, phone?: string) {
    const order = await placeOrder(env, m, { type: 'offramp', fiat_amount, phone });
    const wallet = Keypair.random().publicKey();
    const payment = await payDeposit(env, order, wallet);
    expect((await confirm(m, order.reference, wallet)).body.data.status).toBe('crypto_confirmed');
    await advance(env, 2);
    expect(await statusOf(env, m, order.reference)).toBe('fiat_sending');
    return { ...order, wallet, payment };
  }

  it('on-ramp: quote_locked -> fiat_pending after 2 s -> fiat_confirmed on approval -> crypto_sending -> completed with the USDC transaction', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { fiat_amount: 250 });
    expect(await statusOf(env, m, order.reference)).toBe('quote_locked');
    await advance(env, 2);
    expect(await statusOf(env, m, order.reference)).toBe('fiat_pending');
    expect((await approve(order.reference)).body.status).toBe('approved');
    expect(await statusOf(env, m, order.reference)).toBe('fiat_confirmed');
    await advance(env, 1);
    expect(await statusOf(env, m, order.reference)).toBe('fiat_confirmed');
    await advance(env, 1);
    const sending = await getOrder(env, m, order.reference);
    expect(sending).toMatchObject({ status: 'crypto_sending', crypto_tx_hash: null, completed_at: null });
    await advance(env, 5);
    const done = await getOrder(env, m, order.reference);
    expect(done).toMatchObject({ status: 'completed', failure_reason: null, completed_at: (await call(env, 'GET', '/_mock/clock')).body.now });
    expect(done.crypto_tx_hash).toMatch(/^[0-9a-f]{64}$/);
    const tx = env.backend.store.stellar.payments.get(done.crypto_tx_hash)!;
    expect(tx).toMatchObject({
      direction: 'outbound',
      status: 'confirmed',
      to: done.destination_wallet,
      from: m.merchant.stellar_public_key,
      amount: String(order.crypto_amount),
      asset_code: 'USDC',
    });
    expect(volumeOf(m)).toBe(250);
  });

  it('on-ramp: a declined prompt fails the order with its failure_reason', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m);
    expect((await control(`/mobile-money/${order.id}/decline`)).status).toBe(200);
    expect(await getOrder(env, m, order.reference)).toMatchObject({ status: 'failed', failure_reason: 'the user declined the Mobile Money prompt' });
    expect(volumeOf(m)).toBe(0);
  });

  it('on-ramp, default settings: an unanswered prompt keeps the order fiat_pending until the 300 s rate lock ends, then it is expired', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m);
    await advance(env, 2);
    expect(await statusOf(env, m, order.reference)).toBe('fiat_pending');
    // Past the 120 s a prompt would last on its own: the order still waits for the user.
    await advance(env, 297);
    expect(await statusOf(env, m, order.reference)).toBe('fiat_pending');
    await advance(env, 1);
    expect(await getOrder(env, m, order.reference)).toMatchObject({ status: 'expired', failure_reason: null, expires_at: order.expires_at });
    // The prompt is still open: a payment confirmed now is late, refunded in full.
    expect((await approve(order.reference)).body.status).toBe('approved');
    expect(await getOrder(env, m, order.reference)).toMatchObject({
      status: 'fiat_refunded',
      refunds: [{ method: 'mobile_money', amount: order.fiat_amount, status: 'pending', reason: 'Mobile Money payment confirmed after the order was expired' }],
    });
    await advance(env, 5);
    expect((await getOrder(env, m, order.reference)).refunds[0].status).toBe('completed');
    expect(volumeOf(m)).toBe(0);
  });

  it('on-ramp, default settings: nobody answers at all: expired at 300 s, and the prompt times out 120 s later with no change', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m);
    await advance(env, 300);
    expect(await statusOf(env, m, order.reference)).toBe('expired');
    await advance(env, 120);
    const rails = (await control(`GET /ramp/orders/${order.reference}`)).body.rails;
    expect(rails.collections).toEqual([expect.objectContaining({ status: 'timed_out' })]);
    expect(rails.payouts).toEqual([]);
    expectError(await approve(order.reference), 409, 'INVALID_STATE');
    expect(await getOrder(env, m, order.reference)).toMatchObject({ status: 'expired', refunds: [] });
  });

  it('quote_locked: the merchant sees it and can cancel it; no prompt is ever sent', async () => {
    const m = await rampMerchant(env);
    const onramp = await placeOrder(env, m);
    const offramp = await placeOrder(env, m, { type: 'offramp' });
    for (const order of [onramp, offramp]) {
      expect(await statusOf(env, m, order.reference)).toBe('quote_locked');
      const res = await cancel(m, order.reference);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'cancelled', reference: order.reference });
    }
    await advance(env, 600);
    for (const order of [onramp, offramp]) expect(await statusOf(env, m, order.reference)).toBe('cancelled');
    expect((await control(`GET /ramp/orders/${onramp.reference}`)).body.rails.collections).toEqual([]);
  });

  it('on-ramp: a failed USDC send is sent again after 30 s and completes with the new transaction', async () => {
    const m = await rampMerchant(env);
    const order = await onRampSending(m);
    const first = (await control(`GET /ramp/orders/${order.reference}`)).body.send_tx_hash;
    const failed = await failSend(order.reference);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'crypto_sending', attempts: 1 });
    await advance(env, 29);
    expect((await control(`GET /ramp/orders/${order.id}`)).body.attempts).toBe(1);
    await advance(env, 1);
    const second = (await control(`GET /ramp/orders/${order.id}`)).body;
    expect(second).toMatchObject({ status: 'crypto_sending', attempts: 2 });
    expect(second.send_tx_hash).not.toBe(first);
    await advance(env, 5);
    expect(await getOrder(env, m, order.reference)).toMatchObject({ status: 'completed', crypto_tx_hash: second.send_tx_hash });
    expect(env.backend.store.stellar.payments.get(first)?.status).toBe('failed');
  });

  it('on-ramp: crypto_sending -> failed after the third failed send, with failure_reason and no volume', async () => {
    const m = await rampMerchant(env);
    const order = await onRampSending(m);
    expect((await failSend(order.reference)).status).toBe(200);
    expectError(await failSend(order.reference), 409, 'INVALID_STATE');
    await advance(env, 30);
    expect((await failSend(order.reference)).status).toBe(200);
    await advance(env, 30);
    expect((await failSend(order.reference)).body.status).toBe('failed');
    expect(await getOrder(env, m, order.reference)).toMatchObject({
      status: 'failed',
      failure_reason: 'USDC send failed after 3 attempts: Stellar transaction failed',
      crypto_tx_hash: null,
      completed_at: null,
    });
    await advance(env, 60);
    expect(await statusOf(env, m, order.reference)).toBe('failed');
    expect(volumeOf(m)).toBe(0);
  });

  it('off-ramp: USDC with the memo and the confirm call -> crypto_confirmed -> fiat_sending -> completed', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp', fiat_amount: 120 });
    const wallet = Keypair.random().publicKey();
    const payment = await payDeposit(env, order, wallet);
    expect(payment.matched).toEqual({ kind: 'ramp_order', id: order.id });
    // Detected, but processing starts with the merchant's confirm call.
    expect(await statusOf(env, m, order.reference)).toBe('crypto_pending');
    const confirmed = await confirm(m, order.reference, wallet);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ status: 'crypto_confirmed', source_wallet: wallet });
    await advance(env, 2);
    expect(await statusOf(env, m, order.reference)).toBe('fiat_sending');
    const payout = [...env.backend.store.mobileMoney.payouts.values()].find((p) => p.owner.id === order.id)!;
    expect(payout).toMatchObject({ status: 'pending', amount: 120, phone: order.phone, provider: 'mtn' });
    await advance(env, 5);
    expect(await getOrder(env, m, order.reference)).toMatchObject({ status: 'completed', crypto_tx_hash: payment.hash, failure_reason: null });
    expect(volumeOf(m)).toBe(120);
  });

  it('off-ramp: a confirm call before the USDC arrives waits, and the payment then moves the order', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp' });
    const wallet = Keypair.random().publicKey();
    const early = await confirm(m, order.reference, wallet);
    expect(early.body.data).toMatchObject({ status: 'crypto_pending', source_wallet: wallet });
    await payDeposit(env, order, wallet);
    expect(await statusOf(env, m, order.reference)).toBe('crypto_confirmed');
  });

  it('off-ramp: refunds USDC of the wrong amount or from another wallet than confirmed, and keeps waiting', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp' });
    const wallet = Keypair.random().publicKey();
    const short = await payDeposit(env, order, wallet, (order.crypto_amount - 0.01).toFixed(2));
    expect(short.matched?.id).toBe(order.id);
    await confirm(m, order.reference, wallet);
    const stranger = Keypair.random().publicKey();
    await payDeposit(env, order, stranger);
    const waiting = await getOrder(env, m, order.reference);
    expect(waiting.status).toBe('crypto_pending');
    expect(waiting.refunds).toEqual([
      expect.objectContaining({ method: 'usdc', amount: order.crypto_amount - 0.01, status: 'pending', reason: expect.stringMatching(/^expected exactly/) }),
      expect.objectContaining({ method: 'usdc', amount: order.crypto_amount, status: 'pending', reason: expect.stringMatching(/another wallet/) }),
    ]);
    await advance(env, 5);
    expect((await getOrder(env, m, order.reference)).refunds.map((r: any) => r.status)).toEqual(['completed', 'completed']);
    const back = [...env.backend.store.stellar.payments.values()].filter((p) => p.direction === 'outbound' && p.matched?.id === order.id);
    expect(back.map((p) => [p.to, p.amount, p.status])).toEqual([
      [wallet, (order.crypto_amount - 0.01).toFixed(2), 'confirmed'],
      [stranger, String(order.crypto_amount), 'confirmed'],
    ]);
    await payDeposit(env, order, wallet);
    expect(await statusOf(env, m, order.reference)).toBe('crypto_confirmed');
  });

  it('off-ramp: a second payment with the memo is refunded and the order completes once', async () => {
    const m = await rampMerchant(env);
    const order = await offRampSending(m, 80);
    await payDeposit(env, order, order.wallet);
    await advance(env, 5);
    const done = await getOrder(env, m, order.reference);
    expect(done.status).toBe('completed');
    expect(done.refunds).toEqual([expect.objectContaining({ method: 'usdc', reason: 'the order already has its USDC payment', status: 'completed' })]);
    await payDeposit(env, order, order.wallet);
    await advance(env, 60);
    expect(await statusOf(env, m, order.reference)).toBe('completed');
    expect(volumeOf(m)).toBe(80);
  });

  it('off-ramp: confirm is refused for the wrong wallet (422), an on-ramp order and a later status (409)', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp' });
    const wallet = Keypair.random().publicKey();
    await payDeposit(env, order, wallet);
    const wrong = await confirm(m, order.reference, Keypair.random().publicKey());
    expectError(wrong, 422, 'SOURCE_WALLET_MISMATCH');
    expect(wrong.body.error.message).toBe("source_wallet is not the wallet that sent this order's USDC");
    expectError(await call(env, 'POST', `/api/v1/ramp/orders/${order.reference}/confirm`, { headers: m.auth, body: { source_wallet: 'GABC' } }), 400, 'VALIDATION_ERROR');
    expect(await statusOf(env, m, order.reference)).toBe('crypto_pending');
    expect((await confirm(m, order.reference, wallet)).status).toBe(200);
    const twice = await confirm(m, order.reference, wallet);
    expectError(twice, 409, 'INVALID_STATE');
    expect(twice.body.error.message).toBe('cannot confirm when status is crypto_confirmed');
    const onramp = await placeOrder(env, m);
    const refused = await confirm(m, onramp.reference, wallet);
    expectError(refused, 409, 'INVALID_STATE');
    expect(refused.body.error.message).toBe('only off-ramp orders are confirmed');
  });

  it('off-ramp: fiat_sending -> fiat_retry on a failed payout, a new attempt after 30 s, then completed', async () => {
    const m = await rampMerchant(env);
    const order = await offRampSending(m);
    expect((await failPayout(order.reference)).body.status).toBe('failed');
    expect(await statusOf(env, m, order.reference)).toBe('fiat_retry');
    await advance(env, 29);
    expect(await statusOf(env, m, order.reference)).toBe('fiat_retry');
    await advance(env, 1);
    expect(await statusOf(env, m, order.reference)).toBe('fiat_sending');
    await advance(env, 5);
    expect(await statusOf(env, m, order.reference)).toBe('completed');
    const payouts = [...env.backend.store.mobileMoney.payouts.values()].filter((p) => p.owner.id === order.id);
    expect(payouts.map((p) => p.status)).toEqual(['failed', 'succeeded']);
    expect(volumeOf(m)).toBe(100);
  });

  it('off-ramp: fails after the third failed payout attempt, with failure_reason', async () => {
    const m = await rampMerchant(env);
    const order = await offRampSending(m);
    for (const attempt of [1, 2]) {
      await failPayout(order.id);
      expect(await statusOf(env, m, order.reference), `attempt ${attempt}`).toBe('fiat_retry');
      await advance(env, 30);
      expect(await statusOf(env, m, order.reference)).toBe('fiat_sending');
    }
    await failPayout(order.reference);
    expect(await getOrder(env, m, order.reference)).toMatchObject({
      status: 'failed',
      failure_reason: 'Mobile Money payout failed after 3 attempts: recipient wallet unreachable',
      completed_at: null,
      crypto_tx_hash: order.payment.hash,
    });
    await advance(env, 60);
    expect(await statusOf(env, m, order.reference)).toBe('failed');
    expect(volumeOf(m)).toBe(0);
  });

  it('fails an order at once on an unrecoverable error from fiat_sending, fiat_retry or crypto_sending', async () => {
    const m = await rampMerchant(env);
    const sending = await offRampSending(m);
    const retrying = await offRampSending(m);
    await failPayout(retrying.reference);
    const onramp = await onRampSending(m);
    for (const order of [sending, retrying, onramp]) {
      const res = await control(`/ramp/orders/${order.reference}/fail`, { reason: 'account frozen by the provider' });
      expect(res.status).toBe(200);
      expect(await getOrder(env, m, order.reference)).toMatchObject({ status: 'failed', failure_reason: 'account frozen by the provider' });
    }
    await advance(env, 60);
    for (const order of [sending, retrying, onramp]) expect(await statusOf(env, m, order.reference)).toBe('failed');
    const payouts = [...env.backend.store.mobileMoney.payouts.values()].filter((p) => p.owner.id === sending.id);
    expect(payouts.map((p) => p.status)).toEqual(['failed']);
    expect(volumeOf(m)).toBe(0);
  });

  it('cancels before payment (fiat_pending, crypto_pending) and refuses it once payment has started or the order ended', async () => {
    const m = await rampMerchant(env);
    const onramp = await placeOrder(env, m);
    const offramp = await placeOrder(env, m, { type: 'offramp' });
    await advance(env, 2);
    expect(await statusOf(env, m, onramp.reference)).toBe('fiat_pending');
    expect(await statusOf(env, m, offramp.reference)).toBe('crypto_pending');
    for (const order of [onramp, offramp]) {
      const res = await cancel(m, order.reference);
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('cancelled');
      const again = await cancel(m, order.reference);
      expectError(again, 409, 'INVALID_STATE');
      expect(again.body.error.message).toBe('cannot cancel: the order has already ended (status is cancelled)');
    }
    const collected = await placeOrder(env, m);
    await approve(collected.reference);
    const late = await cancel(m, collected.reference);
    expectError(late, 409, 'INVALID_STATE');
    expect(late.body.error.message).toMatch(/^cannot cancel: payment has started \(status is fiat_confirmed\)/);
    expect(await statusOf(env, m, collected.reference)).toBe('fiat_confirmed');

    const paid = await placeOrder(env, m, { type: 'offramp' });
    await payDeposit(env, paid, Keypair.random().publicKey());
    const held = await cancel(m, paid.reference);
    expectError(held, 409, 'INVALID_STATE');
    expect(held.body.error.message).toMatch(/USDC has arrived/);
    expect(await statusOf(env, m, paid.reference)).toBe('crypto_pending');
  });

  it('off-ramp: USDC that arrived in time keeps the order from expiring until it is confirmed', async () => {
    const m = await rampMerchant(env);
    const order = await placeOrder(env, m, { type: 'offramp' });
    const wallet = Keypair.random().publicKey();
    await payDeposit(env, order, wallet);
    await advance(env, 600);
    expect(await statusOf(env, m, order.reference)).toBe('crypto_pending');
    expect((await confirm(m, order.reference, wallet)).body.data.status).toBe('crypto_confirmed');
  });

  it('refuses, through the API and control, every action the table has no row for in each status reached, and changes nothing', async () => {
    // One verified phone and the store for before/after, to stay under 100 ramp requests a second.
    const m = await rampMerchant(env);
    const phone = newPhone();
    await verifyPhone(env, m, phone);
    const wallet = Keypair.random().publicKey();
    const refs: string[] = [];
    const keep = (ref: string) => (refs.push(ref), ref);
    const on = async () => keep((await placeOrder(env, m, { phone })).reference);
    const off = async () => keep((await placeOrder(env, m, { type: 'offramp', phone })).reference);
    const record = (ref: string) => structuredClone([...env.backend.store.ramp.orders.values()].find((o) => o.reference === ref)!);

    // Orders the service starts 2 s after creation, for the waiting statuses below.
    const startedWaitingOn = await on();
    const startedApprove = await on();
    const startedCancelOn = await on();
    const startedDecline = await on();
    const startedWaitingOff = await off();
    const startedCancelOff = await off();
    const confirmedOrder = await placeOrder(env, m, { type: 'offramp', phone });
    keep(confirmedOrder.reference);
    await advance(env, 2);
    expect(await statusOf(env, m, startedWaitingOn)).toBe('fiat_pending');
    expect(await statusOf(env, m, startedWaitingOff)).toBe('crypto_pending');
    // Ended orders next: the clock moves while they are made.
    keep((await onRampSending(m, 100, phone)).reference);
    keep((await offRampSending(m, 100, phone)).reference);
    await advance(env, 5);
    await control(`/ramp/orders/${keep((await offRampSending(m, 100, phone)).reference)}/fail`);
    // Then the sending ones, each made less than 5 s (a send or payout) before the checks.
    await failPayout(keep((await offRampSending(m, 100, phone)).reference));
    keep((await onRampSending(m, 100, phone)).reference);
    keep((await offRampSending(m, 100, phone)).reference);
    // And those that wait for a person, with the clock standing still from here on: some the
    // service has started (made 2 s before), two it has not (quote_locked).
    await approve(startedApprove);
    await cancel(m, startedCancelOn);
    await control(`/mobile-money/${startedDecline}/decline`);
    await cancel(m, startedCancelOff);
    await confirm(m, confirmedOrder.reference, wallet);
    await payDeposit(env, confirmedOrder, wallet);
    await on();
    await off();

    // A confirm starts a quote_locked off-ramp order (its deposit address is known), then takes the USDC.
    const actions: [string, (status: string) => RampOrderEvent, (ref: string) => Promise<{ status: number; body: any }>][] = [
      ['cancel', () => 'cancel', (ref) => cancel(m, ref)],
      ['confirm', (status) => (status === 'quote_locked' ? 'await_crypto' : 'crypto_received'), (ref) => confirm(m, ref, wallet)],
      ['control fail', () => 'give_up', (ref) => control(`/ramp/orders/${ref}/fail`)],
      ['control send/fail', () => 'resend', (ref) => failSend(ref)],
    ];
    let refused = 0;
    const seen = new Set<string>();
    for (const ref of refs) {
      const before = record(ref);
      seen.add(`${before.type} ${before.status}`);
      for (const [label, event, act] of actions) {
        if (canMoveRampOrder(before.type, before.status, event(before.status))) continue;
        const res = await act(ref);
        expect(res.status, `${label} on ${before.type} ${before.status}`).toBe(409);
        expect(res.body.error.code).toBe('INVALID_STATE');
        refused++;
        expect(record(ref), `${label} on ${before.type} ${before.status}`).toEqual(before);
      }
    }
    expect([...seen].sort()).toEqual(
      [
        'offramp cancelled', 'offramp completed', 'offramp crypto_confirmed', 'offramp crypto_pending', 'offramp failed', 'offramp fiat_retry',
        'offramp fiat_sending', 'offramp quote_locked',
        'onramp cancelled', 'onramp completed', 'onramp crypto_sending', 'onramp failed', 'onramp fiat_confirmed', 'onramp fiat_pending',
        'onramp quote_locked',
      ].sort(),
    );
    expect(refused).toBeGreaterThan(30);
  });
});

/**
 * waitForOrder against the mock, with the wait's clock on the mock's manual clock: every
 * sleep moves the mock's time by as long, so a whole on-ramp or off-ramp takes milliseconds.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, RateLimitError, WaitTimeoutError, type RampOrder } from '../src/index.js';
import { MODES, type MockEnv } from './helpers/mock.js';
import { manualWait, newRamp, offRamp, onRamp, payDeposit, verifiedPhone, type Ramp } from './helpers/ramp.js';

/** The mock's default rate lock, seconds: its Mobile Money prompts stay open until 120 s after it. */
const LIFETIME = 300;

describe.each(MODES)('ramp.orders.waitForOrder, %s', (_name, start) => {
  let env: MockEnv;
  let ramp: Ramp;
  let phone: string;
  beforeAll(async () => {
    env = await start({ seed: 83 });
    ramp = await newRamp(env);
    phone = await verifiedPhone(env, ramp);
  });
  afterAll(() => env.close());

  const control = () => env.backend.control;

  it('follows a full on-ramp to completed, looking every 5 s, and reports each status once', async () => {
    const order = await ramp.client.orders.create(onRamp(phone, 150));
    const seen: string[] = [];
    // The service sends the prompt 2 s after creation; the user approves it during the second wait.
    const { clock, sleeps } = manualWait(env, (n) => n === 2 && control().rails.approvePrompt(order.reference));
    const startedAt = env.backend.clock.now();
    const result = await ramp.client.orders.waitForOrder(order.reference, { clock, onStatus: (o) => seen.push(o.status) });
    expect(seen).toEqual(['quote_locked', 'fiat_pending', 'fiat_confirmed', 'crypto_sending', 'completed']);
    expect(sleeps).toEqual([5_000, 5_000, 5_000, 5_000]);
    expect(env.backend.clock.now() - startedAt).toBe(20_000);
    expect(result.succeeded).toBe(true);
    expect(result.status).toBe('completed');
    expect(result.value).toMatchObject({ reference: order.reference, status: 'completed', failure_reason: null });
    expect(result.value.crypto_tx_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(env.backend.store.stellar.payments.get(result.value.crypto_tx_hash!)).toMatchObject({ status: 'confirmed', to: result.value.destination_wallet });
    expect(Date.parse(result.value.completed_at!)).toBeLessThanOrEqual(env.backend.clock.now());
  });

  it('follows a full off-ramp to completed, looking every 10 s while the USDC is awaited', async () => {
    const order = await ramp.client.orders.create(offRamp(phone, 90));
    const wallet = Keypair.random().publicKey();
    let hash = '';
    const seen: string[] = [];
    // During the second wait (in crypto_pending) the user sends the USDC and the merchant confirms the order.
    const { clock, sleeps } = manualWait(env, async (n) => {
      if (n !== 2) return;
      hash = (await payDeposit(env, order, wallet)).hash;
      await ramp.client.orders.confirm(order.reference, { source_wallet: wallet });
    });
    const result = await ramp.client.orders.waitForOrder(order.reference, { clock, onStatus: (o) => seen.push(o.status) });
    expect(seen).toEqual(['quote_locked', 'crypto_pending', 'crypto_confirmed', 'fiat_sending', 'completed']);
    expect(sleeps).toEqual([5_000, 10_000, 5_000, 5_000]);
    expect(result).toMatchObject({ succeeded: true, status: 'completed', value: { crypto_tx_hash: hash, source_wallet: wallet } });
    const payouts = [...env.backend.store.mobileMoney.payouts.values()].filter((p) => p.owner.id === order.id);
    expect(payouts).toEqual([expect.objectContaining({ status: 'succeeded', amount: 90, phone })]);
  });

  it('resolves a failed order with succeeded false and its failure_reason', async () => {
    const order = await ramp.client.orders.create(onRamp(phone));
    await control().rails.declinePrompt(order.reference);
    const { clock, sleeps } = manualWait(env);
    const result = await ramp.client.orders.waitForOrder(order.reference, { clock });
    expect(result).toMatchObject({ succeeded: false, status: 'failed', value: { failure_reason: 'the user declined the Mobile Money prompt' } });
    expect(sleeps).toEqual([]);
  });

  it('shows, typed, the refund of an order that failed after the cedis were collected', async () => {
    const order = await ramp.client.orders.create(onRamp(phone, 60));
    await control().rails.approvePrompt(order.reference);
    const result = await ramp.client.orders.waitForOrder(order.reference, {
      clock: manualWait(env, (n) => n === 1 && control().ramp.fail(order.reference, 'the Stellar network is unreachable')).clock,
    });
    expect(result).toMatchObject({ succeeded: false, status: 'failed', value: { failure_reason: 'the Stellar network is unreachable' } });
    const [refund] = result.value.refunds ?? [];
    expect(refund).toMatchObject({ method: 'mobile_money', amount: 60 });
    expect(['pending', 'completed']).toContain(refund?.status);
  });

  it('stops on expired when the rate lock runs out before the USDC arrives', async () => {
    const order = await ramp.client.orders.create(offRamp(phone));
    const { clock, sleeps } = manualWait(env);
    const result = await ramp.client.orders.waitForOrder(order.reference, { clock });
    expect(result).toMatchObject({ succeeded: false, status: 'expired', value: { expires_at: order.expires_at } });
    // 5 s in quote_locked, then every 10 s in crypto_pending until the lock ends.
    expect(sleeps).toEqual([5_000, ...Array(LIFETIME / 10).fill(10_000)]);
  });

  it('with the default settings, stops on expired when nobody answers the prompt, and on fiat_refunded after a late approval', async () => {
    const order = await ramp.client.orders.create(onRamp(phone, 80));
    const seen: string[] = [];
    const startedAt = env.backend.clock.now();
    const { clock, sleeps } = manualWait(env);
    const result = await ramp.client.orders.waitForOrder(order.reference, { clock, onStatus: (o) => seen.push(o.status) });
    // Not failed when the 120 s a prompt lasts on its own are over: the order waits for its 300 s rate lock.
    expect(seen).toEqual(['quote_locked', 'fiat_pending', 'expired']);
    expect(result).toMatchObject({ succeeded: false, status: 'expired', value: { expires_at: order.expires_at, failure_reason: null, refunds: [] } });
    expect(sleeps).toEqual(Array(LIFETIME / 5).fill(5_000));
    expect(env.backend.clock.now() - startedAt).toBe(LIFETIME * 1000);

    // The user approves now: the payment is late, refunded in full.
    await control().rails.approvePrompt(order.reference);
    const late = await ramp.client.orders.waitForOrder(order.reference, { clock });
    expect(late).toMatchObject({ succeeded: false, status: 'fiat_refunded' });
    expect(late.value.refunds).toEqual([expect.objectContaining({ method: 'mobile_money', amount: 80, reason: 'Mobile Money payment confirmed after the order was expired' })]);
  });

  it('stops on cancelled, and on the refund statuses of late payments', async () => {
    const cancelled = await ramp.client.orders.create(onRamp(phone));
    await ramp.client.orders.cancel(cancelled.reference);
    const late = await ramp.client.orders.create(onRamp(phone, 75));
    const lateSell = await ramp.client.orders.create(offRamp(phone, 40));
    await env.backend.clock.advance(LIFETIME);
    await control().rails.approvePrompt(late.reference);
    await payDeposit(env, lateSell, Keypair.random().publicKey());

    const { clock, sleeps } = manualWait(env);
    const outcomes = await Promise.all([cancelled, late, lateSell].map((o) => ramp.client.orders.waitForOrder(o.reference, { clock })));
    expect(outcomes.map((r) => [r.succeeded, r.status])).toEqual([
      [false, 'cancelled'],
      [false, 'fiat_refunded'],
      [false, 'crypto_refunded'],
    ]);
    expect(outcomes[1]!.value.refunds).toEqual([expect.objectContaining({ method: 'mobile_money', amount: 75 })]);
    expect(sleeps).toEqual([]);
  });

  it('gives up after maxDuration seconds with WaitTimeoutError naming the last status', async () => {
    const order = await ramp.client.orders.create(offRamp(phone));
    const { clock, sleeps } = manualWait(env);
    const error = await ramp.client.orders.waitForOrder(order.reference, { clock, maxDuration: 25 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ lastStatus: 'crypto_pending', message: 'Gave up waiting after 25 s; the last status was crypto_pending' });
    expect(sleeps).toEqual([5_000, 10_000, 10_000]);
  });

  it('gives up after 30 minutes by default', async () => {
    // Paid in time but never confirmed: the order neither expires nor moves on.
    const order = await ramp.client.orders.create(offRamp(phone));
    await payDeposit(env, order, Keypair.random().publicKey());
    const startedAt = env.backend.clock.now();
    const { clock } = manualWait(env);
    await expect(ramp.client.orders.waitForOrder(order.reference, { clock })).rejects.toMatchObject({ name: 'WaitTimeoutError', lastStatus: 'crypto_pending' });
    expect(env.backend.clock.now() - startedAt).toBe(30 * 60 * 1000);
  });

  it('backs off while rate limited, then goes on', async () => {
    const order = await ramp.client.orders.create(onRamp(phone));
    // Use up the 100 requests a second of this instant.
    for (let i = 0; i <= 100; i++) {
      const error = await ramp.client.orders.get(order.reference, { maxRetries: 0 }).catch((e: unknown) => e);
      if (error instanceof RateLimitError) break;
      if (i === 100) throw new Error('the rate limit was never reached');
    }
    const seen: RampOrder[] = [];
    const { clock, sleeps } = manualWait(env, (n) => n === 2 && control().rails.declinePrompt(order.reference));
    const result = await ramp.client.orders.waitForOrder(order.reference, { clock, maxRetries: 0, onStatus: (o) => seen.push(o) });
    expect(sleeps).toEqual([1_000, 5_000]);
    expect(seen.map((o) => o.status)).toEqual(['quote_locked', 'failed']);
    expect(result.status).toBe('failed');
  });

  it('stops with AbortError when the signal fires during a wait', async () => {
    const order = await ramp.client.orders.create(offRamp(phone));
    const controller = new AbortController();
    // The real clock: the 10 s wait is cut short by the signal.
    const waiting = ramp.client.orders.waitForOrder(order.reference, { signal: controller.signal, onStatus: () => controller.abort() });
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
  });
});

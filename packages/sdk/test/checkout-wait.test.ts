/**
 * `payments.waitForPayment`: 002 section 6 says a payment with no redirect (a USSD prompt) is
 * followed by polling the verify route until the status is final, and section 3 that a
 * session never verified may never produce a webhook. The wait runs on the mock's manual
 * clock, so 30 minutes of session lifetime pass without sleeping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError, WaitTimeoutError } from '../src/index.js';
import { created, newCheckout, type Checkout } from './helpers/checkout.js';
import { MODES, type MockEnv } from './helpers/mock.js';
import { manualWait } from './helpers/ramp.js';

describe.each(MODES)('checkout.payments.waitForPayment, %s', (_name, start) => {
  let env: MockEnv;
  let checkout: Checkout;
  beforeAll(async () => {
    env = await start({ seed: 94 });
    checkout = await newCheckout(env);
  });
  afterAll(() => env.close());

  const complete = (ref: string, status: 'completed' | 'success' | 'failed' | 'cancelled', finalAmount?: number) =>
    env.backend.control.checkout.complete(ref, status, finalAmount);

  it('polls verify every 5 s until the session is paid, reporting each status once', async () => {
    const { reference, session_id } = await created(checkout);
    const seen: string[] = [];
    const { clock, sleeps } = manualWait(env, (n) => n === 2 && complete(reference!, 'completed'));
    const result = await checkout.client.payments.waitForPayment(session_id!, { clock, onStatus: (v) => seen.push(v.outcome) });
    expect(result).toMatchObject({ succeeded: true, status: 'completed', value: { outcome: 'paid', session: { reference, final_amount: 10_000 } } });
    expect(seen).toEqual(['not_paid', 'paid']);
    expect(sleeps).toEqual([5_000, 5_000]);
  });

  it('keeps waiting through failed (the customer can retry) until the session is paid', async () => {
    const { reference } = await created(checkout);
    const { clock } = manualWait(env, (n) => (n === 1 ? complete(reference!, 'failed') : n === 3 ? complete(reference!, 'success') : undefined));
    const statuses: string[] = [];
    const result = await checkout.client.payments.waitForPayment(reference!, { clock, onStatus: (v) => statuses.push(String(v.status)) });
    expect(statuses).toEqual(['pending', 'failed', 'success']);
    expect(result).toMatchObject({ succeeded: true, status: 'success' });
  });

  it('ends on cancelled, not paid', async () => {
    const { reference } = await created(checkout);
    const { clock } = manualWait(env, (n) => n === 1 && complete(reference!, 'cancelled'));
    await expect(checkout.client.payments.waitForPayment(reference!, { clock })).resolves.toMatchObject({
      succeeded: false,
      status: 'cancelled',
      value: { outcome: 'not_paid' },
    });
  });

  it('ends with session_not_found once an unpaid session expires, never with a failed payment', async () => {
    const { session_id } = await created(checkout);
    const { clock } = manualWait(env);
    const result = await checkout.client.payments.waitForPayment(session_id!, { clock, interval: 60 });
    expect(result).toMatchObject({ succeeded: false, status: 'session_not_found', value: { outcome: 'unknown', reason: 'session_not_found' } });
  });

  it('keeps waiting while the gateway is down', async () => {
    const { reference } = await created(checkout);
    env.backend.control.checkout.gateway.fail(502, 3);
    const { clock } = manualWait(env, (n) => n === 1 && complete(reference!, 'completed'));
    const statuses: string[] = [];
    const result = await checkout.client.payments.waitForPayment(reference!, { clock, maxRetries: 0, onStatus: (v) => statuses.push(v.outcome === 'unknown' ? v.reason : String(v.status)) });
    expect(statuses).toEqual(['gateway_unavailable', 'completed']);
    expect(result.succeeded).toBe(true);
  });

  it('ends with mismatch, not succeeded, for an underpaid session of the expected order', async () => {
    const { reference } = await created(checkout, { amount: 10_000 });
    const { clock } = manualWait(env, (n) => n === 1 && complete(reference!, 'completed', 9_000));
    const result = await checkout.client.payments.waitForPayment(reference!, { clock, expected: { amount: 10_000, currency: 'GHS', reference: reference! } });
    expect(result).toMatchObject({ succeeded: false, status: 'mismatch', value: { outcome: 'mismatch', mismatches: ['amount'] } });
  });

  it('gives up with WaitTimeoutError after maxDuration, naming the last status', async () => {
    const { reference } = await created(checkout);
    const { clock } = manualWait(env);
    const error = await checkout.client.payments.waitForPayment(reference!, { clock, maxDuration: 12 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).lastStatus).toBe('pending');
  });

  it('refuses an empty reference before sending', async () => {
    const before = checkout.wire.requests.length;
    await expect(checkout.client.payments.waitForPayment(' ')).rejects.toBeInstanceOf(ValidationError);
    expect(checkout.wire.requests.length).toBe(before);
  });
});

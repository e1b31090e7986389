/**
 * `payments.verify(ref, { expected })`: 002 says the redirect proves nothing and `final_amount`
 * is to be compared with the order total before fulfilling. A status of `completed` alone would
 * let a merchant ship an order that was underpaid, paid in another currency, or not paid at all
 * (a customer who swaps the `sessionRef` of a cheap paid session into the return URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPaidFor, paymentMismatches, ValidationError } from '../src/index.js';
import { verifyCheckoutWebhook } from '../src/webhooks/index.js';
import { created, newCheckout, startReceiver, type Checkout } from './helpers/checkout.js';
import { MODES, type MockEnv } from './helpers/mock.js';

describe.each(MODES)('checkout.payments.verify with the order it should pay for, %s', (_name, start) => {
  let env: MockEnv;
  let checkout: Checkout;
  beforeAll(async () => {
    env = await start({ seed: 93 });
    checkout = await newCheckout(env);
  });
  afterAll(() => env.close());


  it('says paid when the session is the order’s, paid in full and in its currency, by either reference', async () => {
    const { reference, session_id } = await created(checkout, { amount: 10_000 });
    env.backend.control.checkout.complete(reference!, 'completed');
    for (const stored of [reference!, session_id!]) {
      const result = await checkout.client.payments.verify(session_id!, { expected: { amount: 10_000, currency: 'GHS', reference: stored } });
      expect(result).toMatchObject({ outcome: 'paid', paid: true, status: 'completed' });
    }
  });

  it('refuses an underpaid session: completed, but final_amount below the order total', async () => {
    const { reference } = await created(checkout, { amount: 10_000 });
    env.backend.control.checkout.complete(reference!, 'completed', 9_000);
    const result = await checkout.client.payments.verify(reference!, { expected: { amount: 10_000, currency: 'GHS', reference: reference! } });
    expect(result).toMatchObject({ outcome: 'mismatch', paid: false, status: 'completed', mismatches: ['amount'], session: { final_amount: 9_000 } });
  });

  it('refuses another order’s paid session swapped into the return URL', async () => {
    const order = await created(checkout, { amount: 50_000 });
    const cheap = await created(checkout, { amount: 100 });
    env.backend.control.checkout.complete(cheap.reference!, 'success');
    const forged = `https://shop.example/return?order=42&sessionRef=${cheap.session_id}`;
    const result = await checkout.client.payments.verify(checkout.client.payments.fromRedirect(forged), {
      expected: { amount: 50_000, currency: 'GHS', reference: order.reference! },
    });
    expect(result).toMatchObject({ outcome: 'mismatch', paid: false, status: 'success', mismatches: ['reference', 'amount'] });
  });

  it('refuses a session paid in another currency', async () => {
    const { reference } = await created(checkout, { amount: 10_000, currency: 'NGN' });
    env.backend.control.checkout.complete(reference!, 'completed');
    const result = await checkout.client.payments.verify(reference!, { expected: { amount: 10_000, currency: 'GHS' } });
    expect(result).toMatchObject({ outcome: 'mismatch', paid: false, mismatches: ['currency'] });
  });

  it('still says not_paid for the order’s own unpaid session (final_amount 0 is no mismatch)', async () => {
    const { reference } = await created(checkout, { amount: 10_000 });
    const expected = { amount: 10_000, currency: 'GHS', reference: reference! };
    await expect(checkout.client.payments.verify(reference!, { expected })).resolves.toMatchObject({ outcome: 'not_paid', status: 'pending' });
    env.backend.control.checkout.complete(reference!, 'failed');
    await expect(checkout.client.payments.verify(reference!, { expected })).resolves.toMatchObject({ outcome: 'not_paid', status: 'failed' });
  });

  it('checks a signed payment.succeeded webhook against the order with the same rule (isPaidFor, paymentMismatches)', async () => {
    const receiver = await startReceiver();
    try {
      const { secret } = await checkout.client.webhooks.create({ url: receiver.url });
      const full = await created(checkout, { amount: 10_000 });
      const under = await created(checkout, { amount: 10_000 });
      env.backend.control.checkout.complete(full.reference!, 'completed');
      env.backend.control.checkout.complete(under.reference!, 'completed', 9_000);
      for (const ref of [full.reference!, under.reference!]) await checkout.client.payments.verify(ref);
      await env.backend.control.webhooks.settle();
      const events = await Promise.all(
        receiver.received.map(({ body, headers }) =>
          verifyCheckoutWebhook({ body, headers: headers as Record<string, string>, secret, now: env.backend.clock.now() }),
        ),
      );
      const of = (ref: string) => events.find((e) => e.data.reference === ref)!;
      expect(of(full.reference!).type).toBe('payment.succeeded');
      expect(isPaidFor(of(full.reference!).data, { amount: 10_000, currency: 'GHS', reference: full.session_id! })).toBe(true);
      expect(isPaidFor(of(under.reference!).data, { amount: 10_000, currency: 'GHS', reference: under.reference! })).toBe(false);
      expect(paymentMismatches(of(under.reference!).data, { amount: 10_000, currency: 'GHS', reference: under.reference! })).toEqual(['amount']);
      // Another order's event: the right total, but not the session stored for this order.
      expect(paymentMismatches(of(full.reference!).data, { amount: 10_000, currency: 'GHS', reference: under.reference! })).toEqual(['reference']);
      expect(() => isPaidFor(of(full.reference!).data, { amount: -1, currency: 'GHS' })).toThrow(ValidationError);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a malformed expectation before sending anything', async () => {
    const before = checkout.wire.requests.length;
    for (const expected of [{ amount: 100.5, currency: 'GHS' }, { amount: 100, currency: 'ghs' }, { amount: 100, currency: 'GHS', reference: ' ' }]) {
      await expect(checkout.client.payments.verify('cs_x', { expected })).rejects.toBeInstanceOf(ValidationError);
    }
    expect(checkout.wire.requests.length).toBe(before);
  });
});

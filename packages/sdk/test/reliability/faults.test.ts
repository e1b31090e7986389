/**
 * Faults between the SDK and the service, over real sockets: a proxy on 127.0.0.1 resets the
 * connection after reading a request (before or after the mock acted on it), the checkout
 * gateway fails with 502 or its own rate limit (mock control), and the ramp API rate-limits.
 * What the merchant relies on: a request is repeated only when it is a GET or carries an
 * idempotency key, a repeat never makes a second order or payment, and each failure surfaces
 * as the documented error or outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RampClient } from '../../src/clients/ramp.js';
import { ConnectionError, DuplicateOrderError, InternalServerError, RateLimitError, UnprocessableEntityError } from '../../src/index.js';
import { newCheckout, payment, transactionsOf, type Checkout } from '../helpers/checkout.js';
import { MODES, type MockEnv } from '../helpers/mock.js';
import { newPhone, newRamp, onRamp, verifiedPhone, type Ramp } from '../helpers/ramp.js';
import { startResettingProxy, type Drop, type ResettingProxy } from './proxy.js';

const ORDERS = '/api/v1/ramp/orders';
const PAYMENTS = '/api/v1/developer/payments';
/** The ramp API's limit, requests per second of clock time (001 section 8). */
const RAMP_RATE_LIMIT = 100;

describe.each(MODES)('faults seen through the SDK, %s', (_name, start) => {
  let env: MockEnv;
  let proxy: ResettingProxy;
  let ramp: Ramp;
  let checkout: Checkout;
  let phone: string;

  beforeAll(async () => {
    env = await start({ seed: 111 });
    proxy = await startResettingProxy(env.origin);
    ramp = await newRamp(env, { baseUrl: proxy.url });
    phone = await verifiedPhone(env, ramp);
    checkout = await newCheckout(env, { baseUrl: proxy.url });
  });
  afterAll(async () => {
    await proxy.close();
    await env.close();
  });

  /** What reached the proxy from now on, for `method path`. */
  const watch = (method: string, path: string) => {
    const from = proxy.passed.length;
    return () => proxy.passed.slice(from).filter((p) => p.method === method && p.path.split('?')[0] === path);
  };
  const dropNext = (drop: Drop, method: string, path: string) => {
    proxy.dropWhen = (m, p) => m === method && p === path;
    proxy.drops = [drop];
  };
  const ordersOf = (r: Ramp) => [...env.backend.store.ramp.orders.values()].filter((o) => o.merchant_id === r.merchantId);
  const paymentsOf = (c: Checkout) => transactionsOf(env, c.organizationId);

  describe('a connection reset after the request was read', () => {
    it.each(['before', 'after'] as const)('retries ramp.orders.create under its generated key, making exactly one order (reset %s the service acted)', async (drop) => {
      const before = ordersOf(ramp).length;
      const attempts = watch('POST', ORDERS);
      dropNext(drop, 'POST', ORDERS);
      const order = await ramp.client.orders.create(onRamp(phone, 75));
      expect(attempts().map((a) => a.dropped ?? a.status)).toEqual(drop === 'before' ? ['before', 201] : ['after', 409]);
      const [first, second] = attempts();
      expect(second!.headers['x-idempotency-key']).toBe(first!.headers['x-idempotency-key']);
      expect(ordersOf(ramp)).toHaveLength(before + 1);
      expect(order).toMatchObject({ reference: ordersOf(ramp).at(-1)!.reference, fiat_amount: 75 });
    });

    it('returns the order its lost answer created when the key is the caller’s own', async () => {
      const before = ordersOf(ramp).length;
      const idempotencyKey = `order-${crypto.randomUUID()}`;
      const attempts = watch('POST', ORDERS);
      dropNext('after', 'POST', ORDERS);
      const order = await ramp.client.orders.create(onRamp(phone, 80), { idempotencyKey });
      expect(attempts().map((a) => [a.dropped ?? a.status, a.headers['x-idempotency-key']])).toEqual([
        ['after', idempotencyKey],
        [409, idempotencyKey],
      ]);
      expect(ordersOf(ramp)).toHaveLength(before + 1);
      expect(order).toMatchObject({ reference: ordersOf(ramp).at(-1)!.reference, fiat_amount: 80 });
    });

    it.each(['before', 'after'] as const)('retries checkout.payments.create under its key, making exactly one payment (reset %s the service acted)', async (drop) => {
      const before = paymentsOf(checkout).length;
      const attempts = watch('POST', PAYMENTS);
      dropNext(drop, 'POST', PAYMENTS);
      const result = await checkout.client.payments.create(payment({ amount: 4_321 }), { idempotencyKey: `cart-${crypto.randomUUID()}` });
      expect(attempts().map((a) => a.dropped ?? a.status)).toEqual(drop === 'before' ? ['before', 201] : ['after', 200]);
      expect(result.outcome).toBe(drop === 'before' ? 'created' : 'replayed');
      const [first, second] = attempts();
      expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
      expect(paymentsOf(checkout)).toHaveLength(before + 1);
      expect(result).toMatchObject({ data: { reference: paymentsOf(checkout).at(-1)!.reference } });
    });

    it('does not repeat a POST without an idempotency key: ramp.kyc.initiate sends one code and fails with ConnectionError', async () => {
      const number = newPhone();
      const attempts = watch('POST', '/api/v1/ramp/kyc/initiate');
      dropNext('after', 'POST', '/api/v1/ramp/kyc/initiate');
      const error = await ramp.client.kyc.initiate({ first_name: 'Kwame', last_name: 'Mensah', phone: number, provider_name: 'MTN' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(attempts()).toHaveLength(1);
      expect([...env.backend.store.otps.values()].filter((o) => o.phone === number)).toHaveLength(1);
    });

    it('does not repeat a POST without an idempotency key: ramp.orders.cancel cancels once and fails with ConnectionError', async () => {
      const order = await ramp.client.orders.create(onRamp(phone));
      const path = `${ORDERS}/${order.reference}/cancel`;
      const attempts = watch('POST', path);
      dropNext('after', 'POST', path);
      await expect(ramp.client.orders.cancel(order.reference)).rejects.toBeInstanceOf(ConnectionError);
      expect(attempts()).toHaveLength(1);
      await expect(ramp.client.orders.get(order.reference)).resolves.toMatchObject({ status: 'cancelled' });
    });

    it('repeats a GET: ramp.orders.get answers after one reset', async () => {
      const order = await ramp.client.orders.create(onRamp(phone));
      const path = `${ORDERS}/${order.reference}`;
      const attempts = watch('GET', path);
      dropNext('after', 'GET', path);
      await expect(ramp.client.orders.get(order.reference)).resolves.toMatchObject({ reference: order.reference });
      expect(attempts().map((a) => a.dropped ?? a.status)).toEqual(['after', 200]);
    });

    it('gives up after maxRetries with ConnectionError, having made one order', async () => {
      const before = ordersOf(ramp).length;
      const attempts = watch('POST', ORDERS);
      proxy.dropWhen = (m, p) => m === 'POST' && p === ORDERS;
      proxy.drops = ['after', 'after'];
      await expect(ramp.client.orders.create(onRamp(phone, 90), { maxRetries: 1 })).rejects.toBeInstanceOf(ConnectionError);
      expect(attempts()).toHaveLength(2);
      expect(new Set(attempts().map((a) => a.headers['x-idempotency-key'])).size).toBe(1);
      expect(ordersOf(ramp)).toHaveLength(before + 1);
    });
  });

  describe('the checkout gateway failing', () => {
    it.each([502, 429] as const)('retries a creation the gateway refused with %i under the same key: one payment', async (status) => {
      const before = paymentsOf(checkout).length;
      const attempts = watch('POST', PAYMENTS);
      env.backend.control.checkout.gateway.fail(status, 1);
      const result = await checkout.client.payments.create(payment());
      // The checkout API has no 429 of its own: the gateway's limit surfaces as a 502 (002 section 7).
      expect(attempts().map((a) => a.status)).toEqual([502, 201]);
      expect(new Set(attempts().map((a) => a.headers['idempotency-key']))).toEqual(new Set([result.idempotencyKey]));
      expect(result.outcome).toBe('created');
      expect(paymentsOf(checkout)).toHaveLength(before + 1);
    });

    it.each([502, 429] as const)('gives up on a gateway that keeps answering %i with InternalServerError (502), having made no payment', async (status) => {
      const before = paymentsOf(checkout).length;
      const attempts = watch('POST', PAYMENTS);
      env.backend.control.checkout.gateway.fail(status, 2);
      const error = await checkout.client.payments.create(payment(), { maxRetries: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error).toMatchObject({ status: 502, message: expect.stringContaining(`gateway answered ${status}`) });
      expect(attempts().map((a) => a.status)).toEqual([502, 502]);
      expect(new Set(attempts().map((a) => a.headers['idempotency-key'])).size).toBe(1);
      expect(paymentsOf(checkout)).toHaveLength(before);
    });

    it.each([502, 429] as const)('says unknown (gateway_unavailable), never failed, when verify meets a gateway answering %i', async (status) => {
      const created = await checkout.client.payments.create(payment());
      if (created.outcome === 'in_progress') throw new Error('unexpected 202');
      env.backend.control.checkout.gateway.fail(status, 2);
      const result = await checkout.client.payments.verify(created.data.session_id!, { maxRetries: 1 });
      expect(result).toMatchObject({ outcome: 'unknown', paid: false, status: undefined, reason: 'gateway_unavailable', error: { status: 502 } });
      await expect(checkout.client.payments.verify(created.data.session_id!)).resolves.toMatchObject({ outcome: 'not_paid', status: 'pending' });
    });
  });

  describe('the ramp API rate limit', () => {
    /** A merchant of its own (the limit is per merchant), with a verified phone and an order, whose next request in this second is refused. */
    async function limited(): Promise<{ ramp: Ramp; phone: string; reference: string }> {
      const own = await newRamp(env, { baseUrl: proxy.url });
      const number = await verifiedPhone(env, own);
      const { reference } = await own.client.orders.create(onRamp(number));
      await burst(own, reference);
      return { ramp: own, phone: number, reference };
    }
    /** Uses up the merchant's requests of this second of clock time, straight at the mock. */
    async function burst(own: Ramp, reference: string) {
      const direct = new RampClient({ baseUrl: env.origin, secretKey: own.secretKey, maxRetries: 0 });
      const answers = await Promise.all(Array.from({ length: RAMP_RATE_LIMIT }, () => direct.orders.get(reference).then(() => 200, (e: unknown) => e)));
      expect(answers.filter((a) => a instanceof RateLimitError).length).toBeGreaterThan(0);
    }
    /** Moves the mock's clock by the Retry-After of each 429, as time would pass while the SDK waits. */
    const timePassesOn429 = () => {
      proxy.onAnswer = async (answer) => {
        if (answer.status === 429) await env.backend.clock.advance(Number(answer.headers.get('retry-after')));
      };
    };

    it('surfaces a 429 as RateLimitError with retryAfter, in seconds', async () => {
      const { ramp: own } = await limited();
      proxy.onAnswer = undefined;
      const error = await own.client.orders.get('RMP-20260101-00000000-0000-0000-0000-000000000000', { maxRetries: 0 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 1 });
    });

    it('repeats a rate-limited GET after Retry-After, and it answers once the window frees', async () => {
      const { ramp: own, reference } = await limited();
      timePassesOn429();
      try {
        const attempts = watch('GET', `${ORDERS}/${reference}`);
        await expect(own.client.orders.get(reference)).resolves.toMatchObject({ reference });
        const [first, second] = attempts();
        expect(attempts().map((a) => a.status)).toEqual([429, 200]);
        // Retry-After: 1 is honoured as given.
        expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
      } finally {
        proxy.onAnswer = undefined;
      }
    });

    it('does not repeat a rate-limited POST without an idempotency key', async () => {
      const { ramp: own } = await limited();
      timePassesOn429();
      try {
        const attempts = watch('POST', '/api/v1/ramp/kyc/initiate');
        const error = await own.client.kyc.initiate({ first_name: 'Ama', last_name: 'Mensah', phone: newPhone(), provider_name: 'MTN' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RateLimitError);
        expect(attempts().map((a) => a.status)).toEqual([429]);
      } finally {
        proxy.onAnswer = undefined;
      }
    });

    it('repeats a rate-limited order creation under its key after Retry-After: one order', async () => {
      const { ramp: own, phone: number } = await limited();
      const before = ordersOf(own).length;
      timePassesOn429();
      try {
        const attempts = watch('POST', ORDERS);
        const order = await own.client.orders.create(onRamp(number, 55));
        expect(attempts().map((a) => a.status)).toEqual([429, 201]);
        expect(new Set(attempts().map((a) => a.headers['x-idempotency-key'])).size).toBe(1);
        expect(ordersOf(own)).toHaveLength(before + 1);
        expect(order).toMatchObject({ reference: ordersOf(own).at(-1)!.reference, fiat_amount: 55 });
      } finally {
        proxy.onAnswer = undefined;
      }
    });

    it('still answers a key used by an earlier call with DuplicateOrderError when a 429 came first', async () => {
      const { ramp: own, phone: number, reference } = await limited();
      await env.backend.clock.advance(1);
      const idempotencyKey = `order-${crypto.randomUUID()}`;
      const first = await own.client.orders.create(onRamp(number), { idempotencyKey });
      await burst(own, reference);
      timePassesOn429();
      try {
        const attempts = watch('POST', ORDERS);
        const error = await own.client.orders.create(onRamp(number), { idempotencyKey }).catch((e: unknown) => e);
        expect(attempts().map((a) => a.status)).toEqual([429, 409]);
        expect(error).toBeInstanceOf(DuplicateOrderError);
        expect(error).toMatchObject({ reference: first.reference });
      } finally {
        proxy.onAnswer = undefined;
      }
    });
  });

  it('keeps a refused order from being created at all: a 422 is not retried', async () => {
    const before = ordersOf(ramp).length;
    const attempts = watch('POST', ORDERS);
    await expect(ramp.client.orders.create(onRamp(newPhone()))).rejects.toBeInstanceOf(UnprocessableEntityError);
    expect(attempts()).toHaveLength(1);
    expect(ordersOf(ramp)).toHaveLength(before);
  });
});

/**
 * Faults around the mock, each as the documents say and losing nothing: the merchant's
 * webhook endpoint refusing connections, never answering (10 s timeout for order webhooks,
 * our choice; 8 s for checkout, 002 section 6), answering 500 then 200; the payment gateway
 * failing with 502 or rate-limiting (control faults).
 */
import { createHmac } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Keypair } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { upsertCustomer } from '../../src/customers.js';
import { createApiKey, createMerchant } from '../../src/merchants.js';
import type { MerchantRecord } from '../../src/store.js';
import { CHECKOUT_TIMEOUT_MS, ORDER_TIMEOUT_MS, RETRY_SCHEDULE_SECONDS } from '../../src/webhooks/deliver.js';
import { call, MODES, startInProcess, type MockEnv } from '../helpers/env.js';
import { checkoutSignatureValid, orderSignatureValid, startHookEndpoint, type HookEndpoint } from './hooks.js';

const SECRET = 'whsec_faults';

setFlagsFromString('--expose-gc');
/** Runs a full garbage collection (V8's gc(), exposed for this file). */
const collectGarbage = runInNewContext('gc') as () => void;
const PHONE = '+233201234567';

interface Shop {
  merchant: MerchantRecord;
  secretKey: string;
  publicKey: string;
  customerId: string;
}

async function shop(env: MockEnv, url: string): Promise<Shop> {
  const ctx = env.backend.context;
  const merchant = await createMerchant(ctx, { name: 'F', legal_name: 'F Ltd', email: `f${Math.random()}@shop.example`, password: 'correct horse battery' });
  merchant.webhook = { url, secret: SECRET };
  const { key: secretKey } = await createApiKey(ctx, merchant, { key_type: 'secret' });
  const { key: publicKey } = await createApiKey(ctx, merchant, { key_type: 'public' });
  const { customer } = upsertCustomer(ctx, merchant.id, { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' });
  return { merchant, secretKey, publicKey, customerId: customer.id };
}

/** A buy of `fiat_amount` GHS up to the Mobile Money approval; the USDC goes out 2 s later and confirms 5 s after that. */
async function approvedBuy(env: MockEnv, s: Shop, fiat_amount = 150): Promise<string> {
  const res = await call(env, 'POST', '/api/v1/widget/deposit/interactive', {
    headers: { 'x-api-key': s.secretKey },
    body: { asset_code: 'USDC', user_id: s.customerId, api_key: s.publicKey, fiat_amount, destination_address: Keypair.random().publicKey() },
  });
  const { id } = res.body.data;
  expect((await call(env, 'POST', `/_mock/transactions/${id}/complete-interactive`, { body: { provider: 'mtn', phone: PHONE } })).status).toBe(200);
  expect((await call(env, 'POST', `/_mock/mobile-money/${id}/approve`)).status).toBe(200);
  return id;
}

const orderDeliveries = async (env: MockEnv) => ((await call(env, 'GET', '/_mock/webhooks')).body.data as any[]).filter((d) => d.kind !== 'checkout');

describe.each(MODES)('the merchant webhook endpoint failing, %s', (_name, start) => {
  let env: MockEnv;
  let hooks: HookEndpoint;
  beforeAll(async () => {
    env = await start({ seed: 61 });
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    await call(env, 'POST', '/_mock/reset');
    hooks = await startHookEndpoint();
  });
  afterEach(() => hooks.close());

  it('retries an order webhook whose endpoint refuses connections, and delivers the same event once it listens again', async () => {
    const s = await shop(env, hooks.url);
    await hooks.down();
    const id = await approvedBuy(env, s);
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 7 } });
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: RETRY_SCHEDULE_SECONDS[1] } });
    let [delivery] = await orderDeliveries(env);
    expect(delivery).toMatchObject({ event: 'order.completed', state: 'pending' });
    expect(delivery.attempts).toHaveLength(2);
    for (const attempt of delivery.attempts) expect(attempt.error).toBeTruthy();
    await hooks.up();
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: RETRY_SCHEDULE_SECONDS[2] } });
    [delivery] = await orderDeliveries(env);
    expect(delivery).toMatchObject({ state: 'delivered', next_attempt_at: null });
    expect(hooks.hits.map((h) => h.body)).toEqual([delivery.body]);
    expect(orderSignatureValid(hooks.hits[0]!, [SECRET])).toBe(true);
    expect(JSON.parse(delivery.body)).toMatchObject({ event: 'order.completed', fiat_amount: '150.00' });
    // Nothing was counted twice while the endpoint was away.
    expect((await call(env, 'GET', `/_mock/transactions/${id}`)).body.transaction.status).toBe('completed');
    expect(env.backend.store.merchants.get(s.merchant.id)!.current_month_volume).toBe(150);
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 5 * 3600 } });
    expect(hooks.hits).toHaveLength(1);
  });

  it('retries an order webhook whose endpoint drops the connection on its schedule, which a manual redelivery in between leaves as it was', async () => {
    const s = await shop(env, hooks.url);
    hooks.behaviour = 'reset';
    await approvedBuy(env, s);
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 7 } });
    let [delivery] = await orderDeliveries(env);
    const first = Date.parse(delivery.attempts[0].at);
    expect(delivery.attempts).toMatchObject([{ manual: false, error: expect.any(String) }]);
    expect(Date.parse(delivery.next_attempt_at) - first).toBe(RETRY_SCHEDULE_SECONDS[1] * 1000);
    const redelivered = await call(env, 'POST', `/_mock/webhooks/${delivery.id}/redeliver`);
    expect(redelivered.status).toBe(200);
    [delivery] = await orderDeliveries(env);
    expect(delivery.attempts).toMatchObject([{ manual: false }, { manual: true, error: expect.any(String) }]);
    expect(Date.parse(delivery.next_attempt_at) - first).toBe(RETRY_SCHEDULE_SECONDS[1] * 1000);
    // The second scheduled attempt comes at 10 s and the third 1 min after it, as if nobody had redelivered.
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: RETRY_SCHEDULE_SECONDS[1] - 1 } });
    expect((await orderDeliveries(env))[0].attempts).toHaveLength(2);
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 1 } });
    [delivery] = await orderDeliveries(env);
    expect(delivery).toMatchObject({ state: 'pending', attempts: [{}, {}, { manual: false, error: expect.any(String) }] });
    expect(Date.parse(delivery.next_attempt_at) - Date.parse(delivery.attempts[2].at)).toBe(RETRY_SCHEDULE_SECONDS[2] * 1000);
    hooks.behaviour = 200;
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: RETRY_SCHEDULE_SECONDS[2] } });
    [delivery] = await orderDeliveries(env);
    expect(delivery).toMatchObject({ state: 'delivered', next_attempt_at: null });
    expect(delivery.attempts.map((a: any) => a.status ?? 'dropped')).toEqual(['dropped', 'dropped', 'dropped', 200]);
    expect(hooks.hits.map((h) => h.body)).toEqual(Array(4).fill(delivery.body));
    for (const hit of hooks.hits) expect(orderSignatureValid(hit, [SECRET])).toBe(true);
  });

  it('retries a ramp payment webhook answered 500, then 200, with the same body and a fresh signature', async () => {
    const s = await shop(env, hooks.url);
    env.backend.control.merchants.enableRamp(s.merchant.id);
    const auth = { authorization: `Bearer ${s.secretKey}` };
    const kyc = await call(env, 'POST', '/api/v1/ramp/kyc/initiate', { headers: auth, body: { first_name: 'K', last_name: 'M', phone: '0241234567', provider_name: 'mtn' } });
    const code = (await call(env, 'GET', '/_mock/otp?phone=0241234567')).body.code;
    await call(env, 'POST', '/api/v1/ramp/kyc/verify', { headers: auth, body: { kyc_id: kyc.body.data.kyc_id, otp_code: code } });
    const order = await call(env, 'POST', '/api/v1/ramp/orders', {
      headers: { ...auth, 'x-idempotency-key': 'faults-1' },
      body: { type: 'onramp', fiat_amount: 100, destination_wallet: Keypair.random().publicKey(), payment_method: 'mobile_money', user: { first_name: 'K', last_name: 'M', phone: '0241234567', network: 'mtn' } },
    });
    hooks.behaviour = 500;
    await call(env, 'POST', `/_mock/mobile-money/${order.body.data.reference}/approve`);
    await call(env, 'GET', '/_mock/webhooks');
    hooks.behaviour = 200;
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: RETRY_SCHEDULE_SECONDS[1] } });
    const payment = (await orderDeliveries(env)).find((d) => d.event === 'payment.completed');
    expect(payment).toMatchObject({ state: 'delivered' });
    expect(payment.attempts.map((a: any) => a.status)).toEqual([500, 200]);
    const received = hooks.hits.filter((h) => JSON.parse(h.body).event === 'payment.completed');
    expect(received.map((h) => h.body)).toEqual([payment.body, payment.body]);
    expect(received[0]!.headers['x-webhook-timestamp']).not.toBe(received[1]!.headers['x-webhook-timestamp']);
    for (const hit of received) expect(hit.headers['x-webhook-signature']).toBe(createHmac('sha256', SECRET).update(hit.body).digest('hex'));
  });

  it('marks a checkout webhook answered 500 failed, never retries it by itself, and replays the same event on request', async () => {
    const { key } = (await call(env, 'POST', '/_mock/checkout/keys', { body: {} })).body;
    const auth = { authorization: `Bearer ${key}` };
    const { secret } = (await call(env, 'POST', '/api/v1/developer/webhooks', { headers: auth, body: { url: hooks.url } })).body.data;
    const created = await call(env, 'POST', '/api/v1/developer/payments', {
      headers: auth,
      body: { type: 'checkout', amount: 4_200, currency: 'GHS', recipient: { name: 'Ama', email: 'ama@example.com' }, redirect_url: 'https://shop.example/done' },
    });
    await call(env, 'POST', `/_mock/checkout/${created.body.data.reference}/complete`, { body: { status: 'success' } });
    hooks.behaviour = 500;
    await call(env, 'GET', `/api/v1/developer/payments/${created.body.data.session_id}`);
    await call(env, 'GET', '/_mock/webhooks');
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 24 * 3600 } });
    expect(hooks.hits).toHaveLength(1);
    const [eventId] = [...env.backend.store.checkout.events.keys()];
    hooks.behaviour = 200;
    const retried = await call(env, 'POST', `/api/v1/developer/webhooks/events/${eventId}/retry`, { headers: auth });
    expect(retried.body.data.deliveries).toMatchObject([{ state: 'delivered', attempts: [{ status: 500 }, { status: 200 }] }]);
    expect(hooks.hits.map((h) => h.headers['x-svc-event-id'])).toEqual([eventId, eventId]);
    expect(hooks.hits[1]!.body).toBe(hooks.hits[0]!.body);
    for (const hit of hooks.hits) expect(checkoutSignatureValid(hit, secret)).toBe(true);
  });
});

describe('the merchant webhook endpoint never answering (in-process, real time)', () => {
  it(`gives up an order webhook attempt after ${ORDER_TIMEOUT_MS / 1000} s and retries it, and fails a checkout one after ${CHECKOUT_TIMEOUT_MS / 1000} s until replayed`, async () => {
    const env = await startInProcess({ seed: 62 });
    const hooks = await startHookEndpoint();
    try {
      const s = await shop(env, hooks.url);
      const { key } = (await call(env, 'POST', '/_mock/checkout/keys', { body: {} })).body;
      const auth = { authorization: `Bearer ${key}` };
      await call(env, 'POST', '/api/v1/developer/webhooks', { headers: auth, body: { url: hooks.url } });
      const created = await call(env, 'POST', '/api/v1/developer/payments', {
        headers: auth,
        body: { type: 'checkout', amount: 4_200, currency: 'GHS', recipient: { name: 'Ama', email: 'ama@example.com' }, redirect_url: 'https://shop.example/done' },
      });
      await call(env, 'POST', `/_mock/checkout/${created.body.data.reference}/complete`, { body: { status: 'completed' } });
      const id = await approvedBuy(env, s);

      // Both timeouts run at once: the verification dispatches the checkout event, the clock completes the buy.
      // Collecting garbage all the while: a timeout must not depend on what the collector keeps.
      hooks.behaviour = 'hang';
      const collecting = setInterval(collectGarbage, 20);
      const setOff = performance.now();
      try {
        await call(env, 'GET', `/api/v1/developer/payments/${created.body.data.session_id}`);
        const settled = env.backend.clock.advance(7).then(() => env.backend.clock.idle()).then(() => 'settled');
        const hung = new Promise((resolve) => setTimeout(resolve, ORDER_TIMEOUT_MS + 5_000, 'still waiting'));
        expect(await Promise.race([settled, hung]), 'a webhook attempt never gave up on a silent endpoint').toBe('settled');
      } finally {
        clearInterval(collecting);
      }
      // The endpoint sees each connection close a moment after the mock gave up on it.
      for (let i = 0; i < 100 && hooks.hits.some((h) => h.closedAt === undefined); i++) await new Promise((r) => setTimeout(r, 10));
      const [checkoutHit, orderHit] = [...hooks.hits].sort((a, b) => (a.headers['x-svc-event-id'] ? -1 : 1) - (b.headers['x-svc-event-id'] ? -1 : 1));
      // Not before its timeout, counted from when the attempts were set off: load delays a request's
      // arrival at the endpoint, where the endpoint's own count starts, never the mock's giving up.
      expect(checkoutHit!.closedAt! - setOff).toBeGreaterThan(CHECKOUT_TIMEOUT_MS - 100);
      expect(orderHit!.closedAt! - setOff).toBeGreaterThan(ORDER_TIMEOUT_MS - 100);
      // And not long after, counted from the request's arrival.
      expect(checkoutHit!.abandonedAfterMs).toBeLessThan(CHECKOUT_TIMEOUT_MS + 1_500);
      expect(orderHit!.abandonedAfterMs).toBeLessThan(ORDER_TIMEOUT_MS + 1_500);

      const all = [...env.backend.store.deliveries.values()];
      const order = all.find((d) => d.kind === 'order')!;
      const checkout = all.find((d) => d.kind === 'checkout')!;
      expect(order).toMatchObject({ state: 'pending', attempts: [{ error: 'timed out' }] });
      expect(Date.parse(order.next_attempt_at!) - Date.parse(order.attempts[0]!.at)).toBe(RETRY_SCHEDULE_SECONDS[1] * 1000);
      expect(checkout).toMatchObject({ state: 'failed', next_attempt_at: null, attempts: [{ error: 'timed out' }] });

      hooks.behaviour = 200;
      await env.backend.clock.advance(RETRY_SCHEDULE_SECONDS[1]);
      expect(order.state).toBe('delivered');
      const retried = await call(env, 'POST', `/api/v1/developer/webhooks/events/${checkout.event_id}/retry`, { headers: auth });
      expect(retried.body.data.deliveries).toMatchObject([{ state: 'delivered' }]);
      const bodies = (kind: 'order' | 'checkout') => hooks.hits.filter((h) => Boolean(h.headers['x-svc-event-id']) === (kind === 'checkout')).map((h) => h.body);
      expect(bodies('order')).toEqual([order.body, order.body]);
      expect(bodies('checkout')).toEqual([checkout.body, checkout.body]);
      expect((await call(env, 'GET', `/_mock/transactions/${id}`)).body.transaction.status).toBe('completed');
    } finally {
      await env.close();
      await hooks.close();
    }
  }, 30_000);
});

describe.each(MODES)('the payment gateway failing, %s', (_name, start) => {
  let env: MockEnv;
  let auth: Record<string, string>;
  beforeAll(async () => {
    env = await start({ seed: 63 });
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    await call(env, 'POST', '/_mock/reset');
    const { key } = (await call(env, 'POST', '/_mock/checkout/keys', { body: {} })).body;
    auth = { authorization: `Bearer ${key}` };
  });

  const body = (amount = 9_900) => ({ type: 'checkout', amount, currency: 'GHS', recipient: { name: 'Ama', email: 'ama@example.com' }, redirect_url: 'https://shop.example/done' });
  /** Every payment record the service and the gateway keep, idempotency claims included. */
  const payments = () => {
    const { sessions, transactions, idempotency, events } = env.backend.store.checkout;
    return JSON.stringify([...sessions, ...transactions, ...idempotency, ...events]);
  };
  const fault = (status: 502 | 429, count: number) => call(env, 'POST', '/_mock/checkout/gateway/faults', { body: { status, count } });

  it('answers creations with 502 while the gateway fails, creating nothing, and a retry with the same key creates the payment once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<502 | 429>(502, 429), fc.integer({ min: 1, max: 4 }), async (status, count) => {
        await call(env, 'POST', '/_mock/reset');
        const { key } = (await call(env, 'POST', '/_mock/checkout/keys', { body: {} })).body;
        const headers = { authorization: `Bearer ${key}`, 'idempotency-key': 'order-77' };
        await fault(status, count);
        const before = payments();
        const failures: number[] = [];
        let created: any;
        // The merchant retries with the same key, as 002 section 7 says (the mock's time needs no backoff).
        for (let attempt = 0; attempt <= count; attempt++) {
          const res = await call(env, 'POST', '/api/v1/developer/payments', { headers, body: body() });
          if (res.status === 201) created = res.body;
          else {
            failures.push(res.status);
            expect(res.body.error).toBe(`failed to create payment session: gateway answered ${status} ${status === 502 ? 'BAD_GATEWAY: upstream unavailable' : 'RATE_LIMITED: too many requests'}`);
            expect(res.headers.get('retry-after')).toBeNull();
            expect(payments()).toBe(before);
          }
        }
        expect(failures).toEqual(Array(count).fill(502));
        expect(created.data.checkout_url).toBeTruthy();
        expect((await call(env, 'POST', '/api/v1/developer/payments', { headers, body: body() })).body).toEqual(created);
        expect(env.backend.store.checkout.transactions.size).toBe(1);
      }),
      { numRuns: 8 },
    );
  });

  it('answers a verification with 502 while the gateway fails, leaving the payment as it was, and sends its event once it answers', async () => {
    const hooks = await startHookEndpoint();
    try {
      await call(env, 'POST', '/api/v1/developer/webhooks', { headers: auth, body: { url: hooks.url } });
      const created = (await call(env, 'POST', '/api/v1/developer/payments', { headers: auth, body: body() })).body.data;
      await call(env, 'POST', `/_mock/checkout/${created.reference}/complete`, { body: { status: 'completed' } });
      await fault(429, 2);
      for (const ref of [created.session_id, created.reference]) {
        const res = await call(env, 'GET', `/api/v1/developer/payments/${ref}`);
        expect(res.status).toBe(502);
        expect(res.body.error).toBe('failed to fetch payment session: gateway answered 429 RATE_LIMITED: too many requests');
      }
      const [txn] = env.backend.store.checkout.transactions.values();
      expect(txn).toMatchObject({ status: 'pending', synced_at: null });
      expect(env.backend.store.checkout.events.size).toBe(0);
      const ok = await call(env, 'GET', `/api/v1/developer/payments/${created.session_id}`);
      expect(ok.body.data).toMatchObject({ status: 'completed', final_amount: 9_900 });
      await call(env, 'GET', '/_mock/webhooks');
      expect(hooks.hits.map((h) => JSON.parse(h.body).type)).toEqual(['payment.succeeded']);
    } finally {
      await hooks.close();
    }
  });

  it('answers the earlier gateway routes with the gateway own 429 and Retry-After: 30, and 502 as 502', async () => {
    const created = (await call(env, 'POST', '/api/v1/developer/payments', { headers: auth, body: body() })).body.data;
    await fault(429, 2);
    const initiate = await call(env, 'POST', '/gateway/api/v1/payments/initiate', { headers: auth, body: body() });
    expect(initiate.status).toBe(429);
    expect(initiate.headers.get('retry-after')).toBe('30');
    const lookup = await call(env, 'GET', `/gateway/api/v1/widget/session/${created.session_id}`);
    expect(lookup.status).toBe(429);
    await fault(502, 1);
    expect((await call(env, 'GET', `/gateway/api/v1/widget/session/${created.session_id}`)).status).toBe(502);
    expect((await call(env, 'GET', `/gateway/api/v1/widget/session/${created.session_id}`)).status).toBe(200);
    expect(env.backend.store.checkout.transactions.size).toBe(1);
  });
});

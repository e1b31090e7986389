/**
 * Requests that race: the same creation sent many times at once (each on its own socket at
 * the standalone server), the same prompt approved twice, the same deposit paid twice, the
 * same event synchronized and retried at once. Exactly one of each takes effect, the others
 * get their documented answer, and an event keeps one id and one body.
 */
import { request as httpRequest } from 'node:http';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey, createMerchant } from '../../src/merchants.js';
import { upsertCustomer } from '../../src/customers.js';
import { enqueueDelivery, retryDelivery } from '../../src/webhooks/deliver.js';
import { call, MODES, startStandalone, type MockEnv } from '../helpers/env.js';
import { startHookEndpoint, type HookEndpoint } from './hooks.js';

const N = 40;

/** A POST on a socket of its own (no connection pooling), as N separate clients would send it. */
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Waits (real time, bounded) for what a real endpoint is doing on another socket. */
async function until(done: () => boolean) {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(done()).toBe(true);
}

const countBy = (values: number[]) => values.reduce<Record<number, number>>((m, v) => ({ ...m, [v]: (m[v] ?? 0) + 1 }), {});

describe('racing creations on separate sockets (standalone, 127.0.0.1)', () => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await startStandalone({ seed: 51 });
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    await call(env, 'POST', '/_mock/reset');
  });

  const payment = (amount = 10_000) =>
    JSON.stringify({ type: 'checkout', amount, currency: 'GHS', recipient: { name: 'Ama', email: 'ama@example.com' }, redirect_url: 'https://shop.example/done' });

  it(`creates one checkout payment from ${N} identical requests with one Idempotency-Key`, async () => {
    const { key } = (await call(env, 'POST', '/_mock/checkout/keys', { body: {} })).body;
    const headers = { authorization: `Bearer ${key}`, 'idempotency-key': 'race-1' };
    const answers = await Promise.all(Array.from({ length: N }, () => post(`${env.origin}/api/v1/developer/payments`, headers, payment())));
    const statuses = countBy(answers.map((a) => a.status));
    expect(statuses[201]).toBe(1);
    expect(Object.keys(statuses).every((s) => ['200', '201', '202'].includes(s)), JSON.stringify(statuses)).toBe(true);
    const created = answers.find((a) => a.status === 201)!.body;
    for (const a of answers.filter((x) => x.status === 200)) expect(a.body).toEqual(created);
    expect(env.backend.store.checkout.transactions.size).toBe(1);
    expect(env.backend.store.checkout.sessions.size).toBe(1);
  });

  it(`creates one payment when ${N} requests with one key but two bodies race, and refuses the other body with 409`, async () => {
    const { key } = (await call(env, 'POST', '/_mock/checkout/keys', { body: {} })).body;
    const headers = { authorization: `Bearer ${key}`, 'idempotency-key': 'race-2' };
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) => post(`${env.origin}/api/v1/developer/payments`, headers, payment(i % 2 === 0 ? 10_000 : 20_000)).then((a) => ({ ...a, amount: i % 2 === 0 ? 10_000 : 20_000 }))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const winner = answers.find((a) => a.status === 201)!.amount;
    for (const a of answers) expect(a.status, `amount ${a.amount}`).toSatisfy((s: number) => (a.amount === winner ? [200, 201, 202].includes(s) : s === 409));
    expect([...env.backend.store.checkout.sessions.values()].map((s) => s.amount)).toEqual([winner]);
  });

  it(`holds ${N} racing creations behind one gateway call: one 201, the rest 202, then replays`, async () => {
    const { key } = (await call(env, 'POST', '/_mock/checkout/keys', { body: {} })).body;
    const headers = { authorization: `Bearer ${key}`, 'idempotency-key': 'race-3' };
    await call(env, 'POST', '/_mock/checkout/gateway/hold');
    const first = post(`${env.origin}/api/v1/developer/payments`, headers, payment());
    await call(env, 'GET', '/_mock/checkout/gateway/held');
    const others = await Promise.all(Array.from({ length: N - 1 }, () => post(`${env.origin}/api/v1/developer/payments`, headers, payment())));
    expect(countBy(others.map((a) => a.status))).toEqual({ 202: N - 1 });
    await call(env, 'POST', '/_mock/checkout/gateway/release');
    expect((await first).status).toBe(201);
    const after = await post(`${env.origin}/api/v1/developer/payments`, headers, payment());
    expect(after).toEqual({ status: 200, body: (await first).body });
    expect(env.backend.store.checkout.transactions.size).toBe(1);
  });

  it(`places one ramp order from ${N} requests with one X-Idempotency-Key; the others get 409 DUPLICATE_ORDER`, async () => {
    const ctx = env.backend.context;
    const merchant = await createMerchant(ctx, { name: 'R', legal_name: 'R Ltd', email: 'race@ramp.example', password: 'correct horse battery' });
    const { key } = await createApiKey(ctx, merchant, { key_type: 'secret' });
    env.backend.control.merchants.enableRamp(merchant.id);
    const auth = { authorization: `Bearer ${key}` };
    const kyc = await call(env, 'POST', '/api/v1/ramp/kyc/initiate', { headers: auth, body: { first_name: 'K', last_name: 'M', phone: '0241234567', provider_name: 'mtn' } });
    const code = (await call(env, 'GET', '/_mock/otp?phone=0241234567')).body.code;
    // The right code sent N times at once: accepted once, then it is used.
    const verifies = await Promise.all(
      Array.from({ length: 10 }, () => post(`${env.origin}/api/v1/ramp/kyc/verify`, auth, JSON.stringify({ kyc_id: kyc.body.data.kyc_id, otp_code: code }))),
    );
    expect(countBy(verifies.map((v) => v.status))).toEqual({ 200: 1, 422: 9 });
    const order = JSON.stringify({
      type: 'onramp',
      fiat_amount: 100,
      destination_wallet: Keypair.random().publicKey(),
      payment_method: 'mobile_money',
      user: { first_name: 'K', last_name: 'M', phone: '0241234567', network: 'mtn' },
    });
    const answers = await Promise.all(Array.from({ length: N }, () => post(`${env.origin}/api/v1/ramp/orders`, { ...auth, 'x-idempotency-key': 'one-order' }, order)));
    expect(countBy(answers.map((a) => a.status))).toEqual({ 201: 1, 409: N - 1 });
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('DUPLICATE_ORDER');
    expect(env.backend.store.ramp.orders.size).toBe(1);
    // One prompt, sent when the service starts the order.
    await env.backend.clock.advance(2);
    expect(env.backend.store.mobileMoney.collections.size).toBe(1);
  });

  it(`keeps one customer record when ${N} identical customer creations race`, async () => {
    const ctx = env.backend.context;
    const merchant = await createMerchant(ctx, { name: 'C', legal_name: 'C Ltd', email: 'race@customers.example', password: 'correct horse battery' });
    const { key } = await createApiKey(ctx, merchant, { key_type: 'secret' });
    const body = JSON.stringify({ first_name: 'Yaa', last_name: 'Asantewaa', email_address: 'yaa@example.com' });
    const answers = await Promise.all(Array.from({ length: N }, () => post(`${env.origin}/api/v1/widget/customer`, { 'x-api-key': key }, body)));
    expect(countBy(answers.map((a) => a.status))).toEqual({ 201: 1, 200: N - 1 });
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(env.backend.store.customers.size).toBe(1);
  });
});

describe.each(MODES)('racing money moves, %s', (_name, start) => {
  let env: MockEnv;
  let hooks: HookEndpoint;
  beforeAll(async () => {
    env = await start({ seed: 52 });
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    await call(env, 'POST', '/_mock/reset');
    hooks = await startHookEndpoint();
  });
  afterEach(() => hooks.close());

  async function shop() {
    const ctx = env.backend.context;
    const merchant = await createMerchant(ctx, { name: 'S', legal_name: 'S Ltd', email: `s${Math.random()}@shop.example`, password: 'correct horse battery' });
    merchant.webhook = { url: hooks.url, secret: 'whsec_race' };
    const { key: secretKey } = await createApiKey(ctx, merchant, { key_type: 'secret' });
    const { key: publicKey } = await createApiKey(ctx, merchant, { key_type: 'public' });
    const { customer } = upsertCustomer(ctx, merchant.id, { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' });
    return { merchant, secretKey, publicKey, customerId: customer.id };
  }

  it('completes a buy once when its prompt is approved, declined and approved again at the same moment', async () => {
    const s = await shop();
    const started = await call(env, 'POST', '/api/v1/widget/deposit/interactive', {
      headers: { 'x-api-key': s.secretKey },
      body: { asset_code: 'USDC', user_id: s.customerId, api_key: s.publicKey, fiat_amount: 200, destination_address: Keypair.random().publicKey() },
    });
    const { id } = started.body.data;
    await call(env, 'POST', `/_mock/transactions/${id}/complete-interactive`, { body: { provider: 'mtn', phone: '+233201234567' } });
    const answers = await Promise.all(['approve', 'decline', 'approve', 'approve', 'decline'].map((a) => call(env, 'POST', `/_mock/mobile-money/${id}/${a}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 10 } });
    const { transaction } = (await call(env, 'GET', `/_mock/transactions/${id}`)).body;
    const won = answers.findIndex((a) => a.status === 200);
    expect(transaction.status).toBe(won === 1 || won === 4 ? 'error' : 'completed');
    expect(env.backend.store.merchants.get(s.merchant.id)!.current_month_volume).toBe(transaction.status === 'completed' ? 200 : 0);
    const sent = (await call(env, 'GET', '/_mock/webhooks')).body.data;
    expect(sent).toHaveLength(1);
  });

  it('takes one of several exact USDC payments sent at once for a sell, pays out once and counts it once', async () => {
    const s = await shop();
    const started = await call(env, 'POST', '/api/v1/widget/withdraw/interactive', {
      headers: { 'x-api-key': s.secretKey },
      body: { asset_code: 'USDC', user_id: s.customerId, api_key: s.publicKey, onchain_amount: 20 },
    });
    const { id } = started.body.data;
    const { transaction: t } = (await call(env, 'POST', `/_mock/transactions/${id}/complete-interactive`, { body: { provider: 'mtn', phone: '+233201234567' } })).body;
    const pay = { from: Keypair.random().publicKey(), to: t.withdraw_anchor_account, amount: t.amount_in, asset_code: 'USDC', memo: t.withdraw_memo };
    const answers = await Promise.all(Array.from({ length: 8 }, () => call(env, 'POST', '/_mock/stellar/payments', { body: pay })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    // One of them is the sell's payment; whatever happens to the others, they are not counted.
    const taken = env.backend.store.anchor.transactions.get(id)!.stellar_transaction_id;
    expect(answers.map((a) => a.body.hash)).toContain(taken);
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 10 } });
    const after = (await call(env, 'GET', `/_mock/transactions/${id}`)).body.transaction;
    expect(after.status).toBe('completed');
    expect(env.backend.store.merchants.get(s.merchant.id)!.current_month_volume).toBe(Number(after.amount_out));
    expect(env.backend.store.mobileMoney.payouts.size).toBe(1);
  });

  it('keeps one event id and one body when verifications and retries of a payment race', async () => {
    const { key } = (await call(env, 'POST', '/_mock/checkout/keys', { body: {} })).body;
    const auth = { authorization: `Bearer ${key}` };
    await call(env, 'POST', '/api/v1/developer/webhooks', { headers: auth, body: { url: hooks.url } });
    const created = await call(env, 'POST', '/api/v1/developer/payments', {
      headers: auth,
      body: { type: 'checkout', amount: 7_000, currency: 'GHS', recipient: { name: 'Ama', email: 'ama@example.com' }, redirect_url: 'https://shop.example/done' },
    });
    const { session_id, reference } = created.body.data;
    await call(env, 'POST', `/_mock/checkout/${reference}/complete`, { body: { status: 'completed' } });
    hooks.behaviour = 500;
    await call(env, 'GET', `/api/v1/developer/payments/${session_id}`);
    const [eventId] = [...env.backend.store.checkout.events.keys()];
    hooks.behaviour = 200;
    await Promise.all([
      ...Array.from({ length: 6 }, () => call(env, 'GET', `/api/v1/developer/payments/${session_id}`)),
      ...Array.from({ length: 6 }, () => call(env, 'POST', `/api/v1/developer/webhooks/events/${eventId}/retry`, { headers: auth })),
    ]);
    await call(env, 'GET', '/_mock/webhooks');
    expect(env.backend.store.checkout.events.size).toBe(1);
    expect(new Set(hooks.hits.map((h) => h.headers['x-svc-event-id']))).toEqual(new Set([eventId]));
    expect(new Set(hooks.hits.map((h) => h.body)).size).toBe(1);
    expect(hooks.hits.length).toBeGreaterThan(6);
  });

  it('marks a checkout event delivered when a retry gets through while the first attempt is still failing', async () => {
    const { key } = (await call(env, 'POST', '/_mock/checkout/keys', { body: {} })).body;
    const auth = { authorization: `Bearer ${key}` };
    await call(env, 'POST', '/api/v1/developer/webhooks', { headers: auth, body: { url: hooks.url } });
    const created = await call(env, 'POST', '/api/v1/developer/payments', {
      headers: auth,
      body: { type: 'checkout', amount: 7_000, currency: 'GHS', recipient: { name: 'Ama', email: 'ama@example.com' }, redirect_url: 'https://shop.example/done' },
    });
    await call(env, 'POST', `/_mock/checkout/${created.body.data.reference}/complete`, { body: { status: 'completed' } });
    hooks.behaviour = 'hang';
    await call(env, 'GET', `/api/v1/developer/payments/${created.body.data.session_id}`);
    await until(() => hooks.held.length === 1);
    const [eventId] = [...env.backend.store.checkout.events.keys()];
    hooks.behaviour = 200;
    const retry = call(env, 'POST', `/api/v1/developer/webhooks/events/${eventId}/retry`, { headers: auth });
    await until(() => hooks.hits.length === 2);
    hooks.held[0]!.writeHead(500).end();
    const { deliveries } = (await retry).body.data;
    expect(deliveries).toMatchObject([{ state: 'delivered', attempts: [{ status: 500 }, { status: 200 }] }]);
    expect(new Set(hooks.hits.map((h) => h.headers['x-svc-event-id']))).toEqual(new Set([eventId]));
  });
});

describe('an automatic and a manual retry of one order webhook racing (in-process)', () => {
  it('keeps one event id and ends delivered, even when the last automatic attempt fails after the manual one got through', async () => {
    const env = await MODES[0][1]({ seed: 53 });
    const hooks = await startHookEndpoint();
    try {
      const ctx = env.backend.context;
      const merchant = await createMerchant(ctx, { name: 'W', legal_name: 'W Ltd', email: 'race@hooks.example', password: 'correct horse battery' });
      merchant.webhook = { url: hooks.url, secret: 'whsec_race' };
      hooks.behaviour = 500;
      const delivery = enqueueDelivery(ctx, { kind: 'order', event: 'order.completed', merchantId: merchant.id, url: hooks.url, payload: { event: 'order.completed', order_id: 'ord_1' } });
      await env.backend.clock.idle();
      for (const seconds of [10, 60, 3_600]) await env.backend.clock.advance(seconds);
      // The fifth and last automatic attempt hangs at the endpoint while a manual retry goes through.
      hooks.behaviour = 'hang';
      const fifth = env.backend.clock.advance(14_400);
      await until(() => hooks.held.length === 1);
      hooks.behaviour = 200;
      await retryDelivery(ctx, delivery.id);
      hooks.held[0]!.writeHead(500).end();
      await fifth;
      expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500, 500, 200]);
      expect(delivery).toMatchObject({ state: 'delivered', next_attempt_at: null });
      expect(new Set(hooks.hits.map((h) => h.body))).toEqual(new Set([delivery.body]));
      expect([...ctx.store.deliveries.values()].map((d) => d.event_id)).toEqual([delivery.event_id]);
    } finally {
      await env.close();
      await hooks.close();
    }
  });
});

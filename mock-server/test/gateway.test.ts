import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import {
  auth,
  complete,
  createKey,
  GATEWAY_SESSION,
  INITIATE,
  PAYMENTS,
  paymentBody,
  settleWebhooks,
  startReceiver,
  subscribe,
  type KeyInfo,
  type Receiver,
} from './helpers/checkout.js';

describe.each(MODES)('earlier gateway routes, %s', (_name, start) => {
  let env: MockEnv;
  let orgA: KeyInfo;
  let orgB: KeyInfo;
  let receivers: Receiver[] = [];
  beforeAll(async () => {
    env = await start({ seed: 9 });
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    await call(env, 'POST', '/_mock/reset');
    orgA = await createKey(env);
    // Creating organization B in the dashboard switches to it: B is now the selected organization.
    orgB = await createKey(env);
  });
  afterEach(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    receivers = [];
  });

  const initiate = (key: string, body: unknown = paymentBody()) => call(env, 'POST', INITIATE, { body, headers: auth(key) });
  const history = async (key: string) =>
    (await call(env, 'GET', '/api/v1/developer/transactions', { headers: auth(key) })).body.data as { reference: string; source: string }[];

  it('initiates a payment with the same request and response contract as the checkout route', async () => {
    const res = await initiate(orgA.key);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        checkout_url: expect.stringContaining('/gateway/checkout/cs_'),
        reference: expect.stringMatching(/^PAY-\d{8}-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        session_id: expect.stringMatching(/^cs_/),
      },
    });
    const session = await call(env, 'GET', `${GATEWAY_SESSION}/${res.body.data.session_id}`);
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ success: true, data: { id: res.body.data.session_id, reference: res.body.data.reference, status: 'pending', amount: 10_000, final_amount: 0, currency: 'GHS' } });
    const byRef = await call(env, 'GET', `${GATEWAY_SESSION}/${res.body.data.reference}`);
    expect(byRef.body).toEqual(session.body);
  });

  it('takes a key issued before the checkout route, which the checkout route refuses until rotated', async () => {
    const legacy = await createKey(env, { legacy: true, organization_id: orgA.organization_id });
    expect((await initiate(legacy.key)).status).toBe(201);
    expect((await call(env, 'POST', PAYMENTS, { body: paymentBody(), headers: auth(legacy.key) })).status).toBe(401);
    expect((await initiate('sika_checkout_unknown')).status).toBe(401);
  });

  it('attributes a payment to the most recently selected organization, not the key organization (the documented flaw)', async () => {
    const [alertsA, alertsB] = [await startReceiver(), await startReceiver()];
    receivers.push(alertsA, alertsB);
    await subscribe(env, orgA.key, alertsA.url);
    await subscribe(env, orgB.key, alertsB.url);

    const viaGateway = (await initiate(orgA.key, paymentBody({ meta: { order_id: 'G-1', organizationId: 'as-sent' } }))).body.data;
    const viaCheckout = (await call(env, 'POST', PAYMENTS, { body: paymentBody(), headers: auth(orgA.key) })).body.data;

    // A's key, but B was selected last: the gateway payment lands under B.
    expect((await history(orgB.key)).map((t) => [t.reference, t.source])).toEqual([[viaGateway.reference, 'gateway']]);
    expect((await history(orgA.key)).map((t) => [t.reference, t.source])).toEqual([[viaCheckout.reference, 'checkout_api']]);
    // The gateway keeps meta as sent; the checkout route writes the reserved keys from the key.
    const gatewayMeta = (await call(env, 'GET', `${GATEWAY_SESSION}/${viaGateway.reference}`)).body.data.meta;
    expect(gatewayMeta).toEqual({ order_id: 'G-1', organizationId: 'as-sent' });

    // The alert reaches B, the wrong recipient; the checkout route's payment alerts A.
    await complete(env, viaGateway.reference, 'completed');
    await complete(env, viaCheckout.reference, 'completed');
    await call(env, 'GET', `${GATEWAY_SESSION}/${viaGateway.session_id}`);
    await call(env, 'GET', `${PAYMENTS}/${viaCheckout.session_id}`);
    await settleWebhooks(env);
    expect(alertsB.received.map((r) => JSON.parse(r.body).data.reference)).toEqual([viaGateway.reference]);
    expect(alertsA.received.map((r) => JSON.parse(r.body).data.reference)).toEqual([viaCheckout.reference]);
  });

  it('does not correct a misattributed payment when it is later verified through the checkout route', async () => {
    const viaGateway = (await initiate(orgA.key)).body.data;
    await complete(env, viaGateway.reference, 'success');
    const verified = await call(env, 'GET', `${PAYMENTS}/${viaGateway.reference}`);
    expect(verified.body.data.status).toBe('success');
    expect((await history(orgB.key)).map((t) => t.reference)).toEqual([viaGateway.reference]);
    expect(await history(orgA.key)).toEqual([]);
  });

  it('follows the dashboard selection: selecting A sends the next gateway payment to A', async () => {
    await call(env, 'POST', `/_mock/checkout/organizations/${orgA.organization_id}/select`);
    const payment = (await initiate(orgB.key)).body.data;
    expect((await history(orgA.key)).map((t) => t.reference)).toEqual([payment.reference]);
  });

  it('refuses the same bad bodies with 400', async () => {
    for (const body of [paymentBody({ currency: 'ghs' }), paymentBody({ amount: undefined })]) {
      const res = await initiate(orgA.key, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(res.body.message);
    }
    const notJson = await call(env, 'POST', INITIATE, { rawBody: '{', headers: { ...auth(orgA.key), 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
  });

  it('answers the session lookup errors with the checkout texts', async () => {
    const blank = await call(env, 'GET', `${GATEWAY_SESSION}/%20`);
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe('session reference is required');
    const unknown = await call(env, 'GET', `${GATEWAY_SESSION}/cs_missing`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/^failed to fetch payment session:.*session not found or invalid$/);
  });

  it('answers its own rate limit with 429 and Retry-After, which the checkout route turns into 502', async () => {
    await call(env, 'POST', '/_mock/checkout/gateway/faults', { body: { status: 429, count: 2 } });
    const direct = await initiate(orgA.key);
    expect(direct.status).toBe(429);
    expect(direct.headers.get('retry-after')).toBe('30');
    expect(direct.body.error).toMatch(/RATE_LIMITED/);
    const wrapped = await call(env, 'POST', PAYMENTS, { body: paymentBody(), headers: auth(orgA.key) });
    expect(wrapped.status).toBe(502);
    expect(wrapped.body.error).toMatch(/gateway answered 429 RATE_LIMITED/);

    await call(env, 'POST', '/_mock/checkout/gateway/faults', { body: { status: 502, count: 1 } });
    const down = await call(env, 'GET', `${GATEWAY_SESSION}/anything`);
    expect(down.status).toBe(502);
    expect(down.body.error).toMatch(/^failed to fetch payment session: gateway answered 502/);
  });
});

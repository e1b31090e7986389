import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, MODES, startInProcess, type MockEnv } from './helpers/env.js';
import { auth, complete, createKey, createPayment, PAYMENTS, paymentBody, type KeyInfo } from './helpers/checkout.js';

const ROTATION = 'invalid API key; existing keys must be rotated once before using this endpoint';

describe.each(MODES)('checkout payments, %s', (_name, start) => {
  let env: MockEnv;
  let current: KeyInfo;
  beforeAll(async () => {
    env = await start({ seed: 6 });
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    await call(env, 'POST', '/_mock/reset');
    current = await createKey(env);
  });

  const create = (key: string, init: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) =>
    call(env, 'POST', PAYMENTS, {
      rawBody: init.rawBody ?? JSON.stringify(init.body ?? paymentBody()),
      headers: { 'content-type': 'application/json', ...auth(key), ...init.headers },
    });

  describe('create', () => {
    it('answers 201 with success, data.checkout_url and both references; the payment reference is PAY-<YYYYMMDD>-<uuid>, as on ramp payments', async () => {
      const res = await create(current.key);
      expect(res.status).toBe(201);
      const day = new Date(env.backend.clock.now()).toISOString().slice(0, 10).replace(/-/g, '');
      expect(res.body).toEqual({
        success: true,
        data: {
          checkout_url: expect.any(String),
          reference: expect.stringMatching(new RegExp(`^PAY-${day}-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)),
          session_id: expect.stringMatching(/^cs_[0-9a-f]{32}$/),
        },
      });
      expect(res.body.data.checkout_url).toBe(`${env.backend.urls.gateway}/checkout/${res.body.data.session_id}`);
    });

    it('stores only a hash of the key', async () => {
      const records = [...env.backend.store.checkout.keys.values()];
      expect(records).toHaveLength(1);
      expect(JSON.stringify(records)).not.toContain(current.key.slice('sika_checkout_'.length));
      expect(records[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('refuses a missing, unknown or rotated-away key with 401 in the {error, message} body', async () => {
      const missing = await call(env, 'POST', PAYMENTS, { body: paymentBody() });
      expect(missing.status).toBe(401);
      expect(missing.body.error).toBe(missing.body.message);
      expect(Object.keys(missing.body).sort()).toEqual(['error', 'message']);

      const unknown = await create('sika_checkout_000000000000000000000000000000000000000000000000');
      expect(unknown.status).toBe(401);
      expect(unknown.body.error).toBe('invalid API key');

      const rotated = await call(env, 'POST', '/_mock/checkout/keys/rotate', { body: { key: current.key } });
      expect((await create(current.key)).status).toBe(401);
      expect((await create(rotated.body.key)).status).toBe(201);
    });

    it('refuses a key not linked to an organization with 401', async () => {
      const unlinked = await createKey(env, { organization_id: null });
      const res = await create(unlinked.key);
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(/not linked to an organization/);
    });

    it('refuses a key issued before the route with the rotation message until it is rotated once', async () => {
      const legacy = await createKey(env, { legacy: true });
      const res = await create(legacy.key);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: ROTATION, message: ROTATION });
      expect(env.backend.store.checkout.transactions.size).toBe(0);

      const rotated = await call(env, 'POST', '/_mock/checkout/keys/rotate', { body: { key: legacy.key } });
      expect(rotated.status).toBe(201);
      expect(rotated.body.organization_id).toBe(legacy.organization_id);
      expect((await create(rotated.body.key)).status).toBe(201);
      expect((await create(legacy.key)).status).toBe(401);
    });

    it('refuses a caller outside the key IP allowlist with 403 and admits one on it', async () => {
      // In-process the address comes from the clientIp option (default 127.0.0.1); standalone from the socket.
      const elsewhere = await createKey(env, { allowed_ips: ['203.0.113.7'] });
      const refused = await create(elsewhere.key);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(refused.body.message);
      const local = await createKey(env, { allowed_ips: ['127.0.0.1'] });
      expect((await create(local.key)).status).toBe(201);
    });

    it('answers 400, not 403, when the organization behind the key is not active', async () => {
      await call(env, 'POST', `/_mock/checkout/organizations/${current.organization_id}/deactivate`);
      const res = await create(current.key);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('organization is not active');
      await call(env, 'POST', `/_mock/checkout/organizations/${current.organization_id}/activate`);
      expect((await create(current.key)).status).toBe(201);
    });

    it.each([
      ['not JSON', '{"type":'],
      ['empty', ''],
      ['an array', '[]'],
      ['a string', '"checkout"'],
    ])('refuses a body that is %s with 400', async (_what, rawBody) => {
      const res = await create(current.key, { rawBody });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(res.body.message);
      expect(env.backend.store.checkout.sessions.size).toBe(0);
    });

    it.each([
      ['type missing', { type: undefined }, /type is required/],
      ['type not checkout', { type: 'invoice' }, /type must be "checkout"/],
      ['amount missing', { amount: undefined }, /amount is required/],
      ['amount a string', { amount: '100' }, /amount must be an integer/],
      ['amount fractional', { amount: 100.5 }, /amount must be an integer/],
      ['amount zero', { amount: 0 }, /amount must be at least 1/],
      ['currency lowercase', { currency: 'ghs' }, /currency must be an uppercase ISO 4217 code/],
      ['currency missing', { currency: undefined }, /currency is required/],
      ['recipient missing', { recipient: undefined }, /recipient is required/],
      ['recipient email invalid', { recipient: { name: 'A', email: 'nope' } }, /recipient\.email must be an e-mail address/],
      ['recipient name missing', { recipient: { email: 'a@example.com' } }, /recipient\.name is required/],
      ['redirect_url relative', { redirect_url: '/return' }, /redirect_url must be an absolute http or https URL/],
      ['meta an array', { meta: ['x'] }, /meta must be an object/],
    ])('refuses a body with %s with 502, the gateway\'s VALIDATION_ERROR inside, and creates nothing', async (_what, overrides, message) => {
      // 002 section 7: the checkout route's 400s are the JSON, the key and the organization; the
      // fields are the gateway's to check, and its refusal reaches the merchant as a 502.
      const res = await create(current.key, { body: paymentBody(overrides) });
      expect(res.status).toBe(502);
      expect(res.body.message).toMatch(/^failed to create payment session: gateway answered 400 VALIDATION_ERROR: invalid payment request: /);
      expect(res.body.message).toMatch(message);
      expect(env.backend.store.checkout.sessions.size).toBe(0);
      expect(env.backend.store.checkout.transactions.size).toBe(0);
    });

    it('overwrites the four reserved meta keys from the key and keeps every other key', async () => {
      const live = await createKey(env, { environment: 'live' });
      const meta = { organizationId: 'org_forged', user_id: 'usr_forged', svc_origin: 'x', svc_environment: 'x', order_id: 'A-17', nested: { a: [1, 2] } };
      const { reference } = await createPayment(env, live.key, { meta });
      const res = await call(env, 'GET', `${PAYMENTS}/${reference}`);
      const org = env.backend.store.checkout.organizations.get(live.organization_id!)!;
      expect(res.body.data.meta).toEqual({
        organizationId: live.organization_id,
        user_id: org.user_id,
        svc_origin: 'checkout_api',
        svc_environment: 'live',
        order_id: 'A-17',
        nested: { a: [1, 2] },
      });
    });

    it('never answers 429: the gateway rate limit surfaces as 502 without Retry-After', async () => {
      await call(env, 'POST', '/_mock/checkout/gateway/faults', { body: { status: 429, count: 1 } });
      const limited = await create(current.key);
      expect(limited.status).toBe(502);
      expect(limited.headers.get('retry-after')).toBeNull();
      expect(limited.body.message).toBe('failed to create payment session: gateway answered 429 RATE_LIMITED: too many requests');
      const results = await Promise.all(Array.from({ length: 30 }, () => create(current.key)));
      expect(results.map((r) => r.status)).toEqual(Array(30).fill(201));
    });

    it('answers 502 with the gateway text when the gateway fails, and creates nothing', async () => {
      await call(env, 'POST', '/_mock/checkout/gateway/faults', { body: { status: 502, count: 2 } });
      for (let i = 0; i < 2; i++) {
        const res = await create(current.key);
        expect(res.status).toBe(502);
        expect(res.body.error).toBe('failed to create payment session: gateway answered 502 BAD_GATEWAY: upstream unavailable');
      }
      expect(env.backend.store.checkout.transactions.size).toBe(0);
      expect((await create(current.key)).status).toBe(201);
    });
  });

  describe('verify', () => {
    it('needs no key and accepts either reference', async () => {
      const { reference, session_id } = await createPayment(env, current.key);
      const byRef = await call(env, 'GET', `${PAYMENTS}/${reference}`);
      const bySession = await call(env, 'GET', `${PAYMENTS}/${session_id}`);
      expect(byRef.status).toBe(200);
      expect(bySession.body).toEqual(byRef.body);
      expect(byRef.body).toMatchObject({
        success: true,
        data: { id: session_id, reference, status: 'pending', amount: 10_000, final_amount: 0, currency: 'GHS' },
      });
    });

    it.each(['completed', 'success', 'failed', 'cancelled'])('reports %s with the confirmed final_amount', async (status) => {
      const { reference } = await createPayment(env, current.key);
      expect((await complete(env, reference, status)).status).toBe(200);
      const res = await call(env, 'GET', `${PAYMENTS}/${reference}`);
      expect(res.body.data.status).toBe(status);
      expect(res.body.data.final_amount).toBe(status === 'completed' || status === 'success' ? 10_000 : 0);
    });

    it('reports a final_amount that differs from the amount when the session confirmed less', async () => {
      const { reference } = await createPayment(env, current.key);
      await complete(env, reference, 'success', { final_amount: 9_000 });
      const res = await call(env, 'GET', `${PAYMENTS}/${reference}`);
      expect(res.body.data).toMatchObject({ status: 'success', amount: 10_000, final_amount: 9_000 });
    });

    it('answers 400 "session reference is required" for an empty or blank reference', async () => {
      for (const path of [`${PAYMENTS}/`, `${PAYMENTS}/%20%20`]) {
        const res = await call(env, 'GET', path);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'session reference is required', message: 'session reference is required' });
      }
    });

    it('answers 404 for an unknown reference and for a pending session that expired', async () => {
      const unknown = await call(env, 'GET', `${PAYMENTS}/PAY-20260101-00000000-0000-4000-8000-000000000000`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toMatch(/^failed to fetch payment session:.*session not found or invalid$/);

      const pending = await createPayment(env, current.key);
      const paid = await createPayment(env, current.key);
      await complete(env, paid.reference, 'completed');
      await env.backend.clock.advance(30 * 60);
      const expired = await call(env, 'GET', `${PAYMENTS}/${pending.session_id}`);
      expect(expired.status).toBe(404);
      expect(expired.body.message).toMatch(/^failed to fetch payment session:.*session not found or invalid$/);
      expect((await call(env, 'GET', `${PAYMENTS}/${paid.session_id}`)).body.data.status).toBe('completed');
    });

    it('answers 502 with the gateway text when the gateway does not answer', async () => {
      const { reference } = await createPayment(env, current.key);
      for (const status of [502, 429]) {
        await call(env, 'POST', '/_mock/checkout/gateway/faults', { body: { status, count: 1 } });
        const res = await call(env, 'GET', `${PAYMENTS}/${reference}`);
        expect(res.status).toBe(502);
        expect(res.body.error).toMatch(/^failed to fetch payment session: gateway answered (502|429) /);
        expect(res.headers.get('retry-after')).toBeNull();
      }
      expect((await call(env, 'GET', `${PAYMENTS}/${reference}`)).status).toBe(200);
    });

    it('synchronizes the transaction record with the gateway status on verification only', async () => {
      const { reference } = await createPayment(env, current.key);
      const txn = () => [...env.backend.store.checkout.transactions.values()].find((t) => t.reference === reference)!;
      expect(txn()).toMatchObject({ status: 'pending', organization_id: current.organization_id, synced_at: null });
      await complete(env, reference, 'completed');
      expect(txn().status).toBe('pending');
      await call(env, 'GET', `${PAYMENTS}/${reference}`);
      expect(txn()).toMatchObject({ status: 'completed', final_amount: 10_000, synced_at: expect.any(String) });
    });
  });

  describe('session transitions', () => {
    it('lets a failed session be paid on retry and refuses to move a paid or cancelled one (409)', async () => {
      const { reference } = await createPayment(env, current.key);
      await complete(env, reference, 'failed');
      expect((await complete(env, reference, 'completed')).status).toBe(200);
      const again = await complete(env, reference, 'cancelled');
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('INVALID_STATE');

      const cancelled = await createPayment(env, current.key);
      await complete(env, cancelled.reference, 'cancelled');
      expect((await complete(env, cancelled.reference, 'success')).status).toBe(409);
    });
  });

  describe('hosted checkout page', () => {
    const submit = (url: string, outcome: string) =>
      fetch(url, { method: 'POST', body: new URLSearchParams({ outcome }), redirect: 'manual' });

    it.each([
      ['succeed', 'completed'],
      ['fail', 'failed'],
      ['cancel', 'cancelled'],
    ])('sends the person back to redirect_url with sessionRef after "%s"', async (outcome, status) => {
      const { checkout_url, session_id, reference } = await createPayment(env, current.key);
      const pageRes = await fetch(checkout_url);
      expect(pageRes.status).toBe(200);
      expect(pageRes.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await pageRes.text();
      expect(html).toContain('GHS 100.00');
      for (const value of ['succeed', 'fail', 'cancel']) expect(html).toContain(`value="${value}"`);

      const res = await submit(checkout_url, outcome);
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe('https://shop.example/return');
      expect(location.searchParams.get('order')).toBe('42');
      expect(location.searchParams.get('sessionRef')).toBe(session_id);
      const verified = await call(env, 'GET', `${PAYMENTS}/${location.searchParams.get('sessionRef')}`);
      expect(verified.body.data).toMatchObject({ reference, status });
    });

    it('escapes what the merchant sent and refuses to pay a finished session again', async () => {
      const { checkout_url } = await createPayment(env, current.key, { recipient: { name: '<script>x</script>', email: 'a@example.com' } });
      const html = await (await fetch(checkout_url)).text();
      expect(html).not.toContain('<script>x');
      expect(html).toContain('&lt;script&gt;x');
      expect((await submit(checkout_url, 'succeed')).status).toBe(303);
      expect((await submit(checkout_url, 'cancel')).status).toBe(409);
      expect((await submit(checkout_url, 'nonsense')).status).toBe(400);
    });

    it.each([
      ['XOF', 5_000, 'XOF 5000'],
      ['KWD', 12_345, 'KWD 12.345'],
      ['USD', 1_999, 'USD 19.99'],
    ])('shows %s %i (smallest unit) with the currency\'s own decimals', async (currency, amount, shown) => {
      const { checkout_url } = await createPayment(env, current.key, { currency, amount });
      const html = await (await fetch(checkout_url)).text();
      expect(html).toContain(shown);
    });

    it('answers 404 for an unknown or expired checkout', async () => {
      const { checkout_url } = await createPayment(env, current.key);
      await env.backend.clock.advance(31 * 60);
      expect((await fetch(checkout_url)).status).toBe(404);
      expect((await submit(checkout_url, 'succeed')).status).toBe(404);
    });
  });
});

describe('checkout payments, in-process IP allowlist from the clientIp option', () => {
  it('sees the address given as clientIp', async () => {
    const env = await startInProcess({ clientIp: '203.0.113.7' });
    try {
      const allowed = await createKey(env, { allowed_ips: ['203.0.113.7'] });
      const other = await createKey(env, { allowed_ips: ['127.0.0.1'] });
      const send = (key: string) => call(env, 'POST', PAYMENTS, { body: paymentBody(), headers: auth(key) });
      expect((await send(allowed.key)).status).toBe(201);
      expect((await send(other.key)).status).toBe(403);
    } finally {
      await env.close();
    }
  });
});

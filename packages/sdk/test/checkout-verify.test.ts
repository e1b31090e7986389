import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutClient } from '../src/clients/checkout.js';
import { NotFoundError, ValidationError } from '../src/index.js';
import { created, newCheckout, type Checkout } from './helpers/checkout.js';
import { json, startTestServer } from './helpers/http-server.js';
import { MODES, type MockEnv } from './helpers/mock.js';
import { wireFetch } from './helpers/wire.js';

const SESSION_TTL_SECONDS = 30 * 60;

describe.each(MODES)('checkout.payments.verify and fromRedirect, %s', (_name, start) => {
  let env: MockEnv;
  let checkout: Checkout;
  beforeAll(async () => {
    env = await start({ seed: 92 });
    checkout = await newCheckout(env);
  });
  afterAll(() => env.close());

  const verifications = () => checkout.wire.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/developer/payments/'));

  it('says not paid while pending, without sending the API key', async () => {
    const { reference, session_id } = await created(checkout);
    const result = await checkout.client.payments.verify(session_id!);
    expect(result).toMatchObject({ outcome: 'not_paid', paid: false, status: 'pending', session: { id: session_id, reference, amount: 10_000, final_amount: 0, currency: 'GHS' } });
    expect(verifications().at(-1)!.headers.get('authorization')).toBeNull();
  });

  it.each([
    ['completed', true],
    ['success', true],
    ['failed', false],
    ['cancelled', false],
  ] as const)('verifies a %s session: paid is %s', async (status, paid) => {
    const { reference, session_id } = await created(checkout, { amount: 7_500 });
    env.backend.control.checkout.complete(reference!, status);
    for (const ref of [reference!, session_id!]) {
      const result = await checkout.client.payments.verify(ref);
      expect(result).toMatchObject({ outcome: paid ? 'paid' : 'not_paid', paid, status, session: { reference, final_amount: paid ? 7_500 : 0 } });
    }
  });

  it('reports the amount the session confirmed, to compare with the order total', async () => {
    const { reference } = await created(checkout, { amount: 10_000 });
    env.backend.control.checkout.complete(reference!, 'completed', 9_000);
    const result = await checkout.client.payments.verify(reference!);
    expect(result.paid).toBe(true);
    expect(result.outcome === 'unknown' ? undefined : result.session.final_amount).toBe(9_000);
  });

  it('says unknown (session_not_found), never failed, for an unknown reference and an expired session', async () => {
    const unknown = await checkout.client.payments.verify('cs_00000000000000000000000000000000');
    expect(unknown).toMatchObject({ outcome: 'unknown', paid: false, status: undefined, reason: 'session_not_found' });
    if (unknown.outcome !== 'unknown') throw new Error('unexpected');
    expect(unknown.error).toBeInstanceOf(NotFoundError);
    expect(unknown.error.message).toBe('404: failed to fetch payment session: gateway answered 404 NOT_FOUND: session not found or invalid');

    const { session_id } = await created(checkout);
    await env.backend.clock.advance(SESSION_TTL_SECONDS);
    await expect(checkout.client.payments.verify(session_id!)).resolves.toMatchObject({ outcome: 'unknown', reason: 'session_not_found' });
  });

  it('retries a 502 and says unknown (gateway_unavailable) once the retries are spent', async () => {
    const { session_id } = await created(checkout);
    env.backend.control.checkout.gateway.fail(502, 2);
    const before = verifications().length;
    const result = await checkout.client.payments.verify(session_id!, { maxRetries: 1 });
    expect(result).toMatchObject({ outcome: 'unknown', paid: false, reason: 'gateway_unavailable', error: { status: 502 } });
    expect(verifications().length - before).toBe(2);
    env.backend.control.checkout.gateway.fail(502, 1);
    await expect(checkout.client.payments.verify(session_id!)).resolves.toMatchObject({ outcome: 'not_paid', status: 'pending' });
  });

  it('verifies without an API key at all', async () => {
    const { reference } = await created(checkout);
    env.backend.control.checkout.complete(reference!, 'success');
    const keyless = new CheckoutClient({ baseUrl: env.origin });
    await expect(keyless.payments.verify(reference!)).resolves.toMatchObject({ outcome: 'paid', status: 'success' });
  });

  it('refuses an empty reference before sending', async () => {
    const wire = wireFetch();
    const client = new CheckoutClient({ baseUrl: env.origin, fetch: wire.fetch });
    const error = await client.payments.verify('  ').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toBe('Invalid session reference: is required');
    expect(wire.requests).toHaveLength(0);
  });

  it('reads the reference from the redirect as sessionRef, session_ref or session_id', () => {
    const { payments } = checkout.client;
    expect(payments.fromRedirect('https://shop.example/return?order=42&sessionRef=cs_a')).toBe('cs_a');
    expect(payments.fromRedirect(new URL('https://shop.example/return?session_ref=cs_b'))).toBe('cs_b');
    expect(payments.fromRedirect('/return?session_id=cs_c&order=42')).toBe('cs_c');
    expect(payments.fromRedirect('/return?sessionRef=&session_id=cs_d')).toBe('cs_d');
    expect(() => payments.fromRedirect('https://shop.example/return?order=42')).toThrow(
      'Invalid redirect URL: has no sessionRef, session_ref, session_id query parameter',
    );
  });

  it('follows a customer through the hosted page and back: the redirect names the session, verify says paid', async () => {
    const { checkout_url } = await created(checkout, { amount: 12_345 });
    const page = await fetch(checkout_url, { method: 'POST', body: new URLSearchParams({ outcome: 'succeed' }), redirect: 'manual' });
    expect(page.status).toBe(303);
    const back = page.headers.get('location')!;
    expect(back.startsWith('https://shop.example/return?order=42&')).toBe(true);
    const result = await checkout.client.payments.verify(checkout.client.payments.fromRedirect(back));
    expect(result).toMatchObject({ outcome: 'paid', paid: true, status: 'completed', session: { amount: 12_345, final_amount: 12_345 } });
  });
});

describe('checkout.payments.verify reads every documented session answer', () => {
  it('reads the documented fields alone, and a null or absent meta (the field is ours, not the document\'s)', async () => {
    const documented = { id: 'cs_1', reference: 'PAY-1', status: 'completed', amount: 100, final_amount: 100, currency: 'GHS' };
    for (const data of [documented, { ...documented, meta: null }]) {
      const server = await startTestServer((_req, res) => json(res, 200, { success: true, data }));
      try {
        await expect(new CheckoutClient({ baseUrl: server.url }).payments.verify('cs_1')).resolves.toMatchObject({ outcome: 'paid', session: documented });
      } finally {
        await server.close();
      }
    }
  });
});

describe('checkout.payments.verify against a gateway status the SDK does not know', () => {
  it('treats it as not paid and passes the status through', async () => {
    const server = await startTestServer((_req, res) =>
      json(res, 200, { success: true, data: { id: 'cs_1', reference: 'PAY-1', status: 'authorized', amount: 100, final_amount: 100, currency: 'GHS' } }),
    );
    try {
      const result = await new CheckoutClient({ baseUrl: server.url }).payments.verify('cs_1');
      expect(result).toMatchObject({ outcome: 'not_paid', paid: false, status: 'authorized' });
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/v1/developer/payments/cs_1']);
    } finally {
      await server.close();
    }
  });
});

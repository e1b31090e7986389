import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutClient } from '../src/clients/checkout.js';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  CredentialError,
  InternalServerError,
  PermissionDeniedError,
  ValidationError,
  type PaymentCreateParams,
} from '../src/index.js';
import { newCheckout, payment, transactionsOf, type Checkout } from './helpers/checkout.js';
import { json, startTestServer, type TestServer } from './helpers/http-server.js';
import { MODES, type MockEnv } from './helpers/mock.js';
import { wireFetch } from './helpers/wire.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PAYMENTS = '/api/v1/developer/payments';
const ROTATION = 'invalid API key; existing keys must be rotated once before using this endpoint';

describe.each(MODES)('checkout.payments.create, %s', (_name, start) => {
  let env: MockEnv;
  let checkout: Checkout;
  beforeAll(async () => {
    env = await start({ seed: 91 });
    checkout = await newCheckout(env);
  });
  afterAll(() => env.close());

  const creations = () => checkout.wire.requests.filter((r) => r.method === 'POST' && r.path === PAYMENTS);
  const payments = () => transactionsOf(env, checkout.organizationId);

  it('creates a session (201) under a generated Idempotency-Key and returns data.checkout_url with both references', async () => {
    const before = creations().length;
    const result = await checkout.client.payments.create(payment({ meta: { order_id: '42' } }));
    expect(result).toEqual({
      outcome: 'created',
      status: 201,
      idempotencyKey: expect.stringMatching(UUID),
      data: { checkout_url: expect.any(String), reference: expect.stringMatching(/^PAY-\d{8}-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/), session_id: expect.stringMatching(/^cs_[0-9a-f]{32}$/) },
    });
    if (result.outcome === 'in_progress') throw new Error('unexpected');
    expect(result.data.checkout_url).toBe(`${env.backend.urls.gateway}/checkout/${result.data.session_id}`);
    const sent = creations().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('idempotency-key')).toBe(result.idempotencyKey);
    expect(sent[0]!.headers.get('authorization')).toBe(`Bearer ${checkout.key}`);
    expect(JSON.parse(sent[0]!.body!)).toEqual({ ...payment({ meta: { order_id: '42' } }), type: 'checkout' });
    // The service writes the reserved keys from the API key and keeps the merchant's own.
    expect(env.backend.store.checkout.sessions.get(result.data.session_id!)!.meta).toMatchObject({
      order_id: '42',
      organizationId: checkout.organizationId,
      svc_origin: 'checkout_api',
    });
  });

  it('answers an identical repeat under the same key with the original payment (replayed, 200)', async () => {
    const idempotencyKey = `order-${crypto.randomUUID()}`;
    const first = await checkout.client.payments.create(payment(), { idempotencyKey });
    const again = await checkout.client.payments.create(payment(), { idempotencyKey });
    expect(first.outcome).toBe('created');
    expect(again).toMatchObject({ outcome: 'replayed', status: 200, idempotencyKey });
    expect(again).toHaveProperty('data', (first as { data: unknown }).data);
  });

  it('says in_progress (202) while the first request with the key is still being handled', async () => {
    const idempotencyKey = `order-${crypto.randomUUID()}`;
    const gateway = env.backend.control.checkout.gateway;
    gateway.hold();
    const first = checkout.client.payments.create(payment(), { idempotencyKey });
    await gateway.held();
    const second = await checkout.client.payments.create(payment(), { idempotencyKey });
    expect(second).toEqual({ outcome: 'in_progress', status: 202, idempotencyKey, message: expect.stringContaining('still in progress') });
    gateway.release();
    await expect(first).resolves.toMatchObject({ outcome: 'created', status: 201 });
    await expect(checkout.client.payments.create(payment(), { idempotencyKey })).resolves.toMatchObject({ outcome: 'replayed' });
  });

  it.each(['reject', 'truncate'] as const)(
    'retries under the same key when the connection drops after the request arrived (%s): exactly one payment',
    async (fault) => {
      const before = payments().length;
      const sentBefore = creations().length;
      checkout.wire.faults.push(fault);
      const result = await checkout.client.payments.create(payment({ amount: 4_200 }));
      const attempts = creations().slice(sentBefore);
      expect(attempts).toHaveLength(2);
      expect(attempts[1]!.headers.get('idempotency-key')).toBe(attempts[0]!.headers.get('idempotency-key'));
      expect(result).toMatchObject({ outcome: 'replayed', status: 200, idempotencyKey: attempts[0]!.headers.get('idempotency-key') });
      expect(payments()).toHaveLength(before + 1);
      if (result.outcome === 'in_progress') throw new Error('unexpected');
      expect(payments().at(-1)!.reference).toBe(result.data.reference);
    },
  );

  it('retries a 502 from the gateway under the same key, and makes one payment', async () => {
    const before = payments().length;
    const sentBefore = creations().length;
    env.backend.control.checkout.gateway.fail(502, 1);
    const result = await checkout.client.payments.create(payment());
    expect(result).toMatchObject({ outcome: 'created', status: 201 });
    const attempts = creations().slice(sentBefore);
    expect(attempts.map((a) => a.headers.get('idempotency-key'))).toEqual([result.idempotencyKey, result.idempotencyKey]);
    expect(payments()).toHaveLength(before + 1);
  });

  it('gives up on a gateway that keeps failing with InternalServerError, having made no payment', async () => {
    const before = payments().length;
    env.backend.control.checkout.gateway.fail(502, 3);
    const error = await checkout.client.payments.create(payment(), { maxRetries: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, message: expect.stringContaining('failed to create payment session: gateway answered 502') });
    expect(payments()).toHaveLength(before);
  });

  it('answers the same key with another body with ConflictError, sent once and never retried', async () => {
    const idempotencyKey = `order-${crypto.randomUUID()}`;
    await checkout.client.payments.create(payment(), { idempotencyKey });
    const before = creations().length;
    const error = await checkout.client.payments.create(payment({ amount: 20_000 }), { idempotencyKey }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, message: '409: Idempotency-Key was already used with a different request body' });
    expect(creations().length - before).toBe(1);
  });

  it('refuses before sending: a key over 128 characters, an empty key, reserved meta keys, malformed fields', async () => {
    const before = checkout.wire.requests.length;
    const refused = async (params: unknown, idempotencyKey?: string) => {
      const error = await checkout.client.payments.create(params as PaymentCreateParams, { idempotencyKey }).catch((e: unknown) => e as ValidationError);
      expect(error).toBeInstanceOf(ValidationError);
      return error as ValidationError;
    };
    expect((await refused(payment(), 'k'.repeat(129))).message).toBe('Invalid idempotencyKey: must be at most 128 characters');
    await refused(payment(), '');
    const reserved = await refused(payment({ meta: { organizationId: 'org_mine', user_id: 'u1', svc_origin: 'shop', svc_environment: 'prod', order_id: '7' } }));
    expect(reserved.issues.map((i) => i.path.join('.'))).toEqual(['meta.organizationId', 'meta.user_id', 'meta.svc_origin', 'meta.svc_environment']);
    expect(reserved.message).toContain('meta.user_id: is reserved: the service overwrites it with a value derived from the API key; rename it (for example to my_user_id)');
    const malformed = await refused({ type: 'invoice', amount: 100.5, currency: 'ghs', recipient: { name: '', email: 'nope' }, redirect_url: 'ftp://shop.example' });
    expect(malformed.issues.map((i) => i.path.join('.'))).toEqual(['type', 'amount', 'currency', 'recipient.name', 'recipient.email', 'redirect_url']);
    expect(checkout.wire.requests.length).toBe(before);
    // Exactly 128 characters is accepted.
    await expect(checkout.client.payments.create(payment(), { idempotencyKey: 'k'.repeat(128) })).resolves.toMatchObject({ outcome: 'created' });
  });

  it('sends undocumented top-level fields (itemized checkout) as given', async () => {
    const items = [{ name: 'Kente scarf', quantity: 2, unit_amount: 5_000 }];
    await checkout.client.payments.create({ ...payment(), items });
    expect(JSON.parse(creations().at(-1)!.body!).items).toEqual(items);
  });

  it('sends recipient fields beyond name and email as given: an existing gateway body migrates unchanged (002 section 9)', async () => {
    const recipient = { name: 'Ama Mensah', email: 'ama@example.com', phone: '0241234567' };
    await expect(checkout.client.payments.create({ ...payment(), recipient })).resolves.toMatchObject({ outcome: 'created' });
    expect(JSON.parse(creations().at(-1)!.body!).recipient).toEqual(recipient);
  });

  it('answers a key issued before the route with AuthenticationError carrying the rotation message', async () => {
    const { key } = await env.backend.control.checkout.createKey({ legacy: true });
    const legacy = new CheckoutClient({ baseUrl: env.origin, apiKey: key });
    const error = await legacy.payments.create(payment()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, message: `401: ${ROTATION}` });
    const rotated = await env.backend.control.checkout.rotateKey(key);
    await expect(new CheckoutClient({ baseUrl: env.origin, apiKey: rotated.key }).payments.create(payment())).resolves.toMatchObject({ outcome: 'created' });
  });

  it('answers an inactive organization with BadRequestError (400) and a caller outside the IP allowlist with PermissionDeniedError', async () => {
    const inactive = await newCheckout(env);
    env.backend.control.checkout.deactivateOrganization(inactive.organizationId);
    await expect(inactive.client.payments.create(payment())).rejects.toBeInstanceOf(BadRequestError);
    const { key } = await env.backend.control.checkout.createKey({ allowed_ips: ['203.0.113.7'] });
    await expect(new CheckoutClient({ baseUrl: env.origin, apiKey: key }).payments.create(payment())).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('refuses an authenticated call without apiKey before sending', async () => {
    const wire = wireFetch();
    const keyless = new CheckoutClient({ baseUrl: env.origin, fetch: wire.fetch });
    await expect(keyless.payments.create(payment())).rejects.toBeInstanceOf(CredentialError);
    await expect(keyless.webhooks.list()).rejects.toThrow('This call needs the checkout API key');
    expect(wire.requests).toHaveLength(0);
  });
});

describe('checkout.payments.create against a gateway that reports the conflict as a 502', () => {
  let server: TestServer;
  let client: CheckoutClient;
  const upstream409 = 'failed to create payment session: gateway answered 409 CONFLICT: idempotency key already used with a different body';
  const unavailable = 'failed to create payment session: gateway answered 503 UNAVAILABLE: try later';
  // A field the SDK lets through and the gateway refuses (its rules may be stricter than the SDK's).
  const upstream400 = 'failed to create payment session: gateway answered 400 VALIDATION_ERROR: invalid payment request: amount must be at most 100000';
  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      const { amount } = JSON.parse(req.body);
      const text = amount === 409 ? upstream409 : amount === 400_000 ? upstream400 : unavailable;
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: text, message: text }));
    });
    client = new CheckoutClient({ baseUrl: server.url, apiKey: 'sika_checkout_test' });
  });
  afterEach(() => void server.requests.splice(0));
  afterAll(() => server.close());

  it('surfaces a 502 embedding the upstream 409 as ConflictError, sent once', async () => {
    const error = await client.payments.create(payment({ amount: 409 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 502, message: `502: ${upstream409}` });
    expect(server.requests).toHaveLength(1);
  });

  it('surfaces a 502 embedding the gateway\'s 400 VALIDATION_ERROR as BadRequestError, sent once', async () => {
    const error = await client.payments.create(payment({ amount: 400_000 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 502, message: `502: ${upstream400}` });
    expect(server.requests).toHaveLength(1);
  });

  it('still retries any other 502 under the same key', async () => {
    const error = await client.payments.create(payment({ amount: 500 }), { maxRetries: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).not.toBeInstanceOf(ConflictError);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.headers['idempotency-key']).toBe(server.requests[0]!.headers['idempotency-key']);
  });
});

describe('checkout.payments.create reads any 202 (in flight) and any replay status the document lists', () => {
  const answers: Record<string, (res: import('node:http').ServerResponse) => void> = {
    'an empty body': (res) => void res.writeHead(202).end(),
    // Retry-After 0 from here on: the backoff between the 3 tries is not what these test.
    'a text body': (res) => void res.writeHead(202, { 'content-type': 'text/plain', 'retry-after': '0' }).end('still processing'),
    'a null message': (res) => json(res, 202, { success: true, message: null }, { 'retry-after': '0' }),
    'a message that is an object': (res) => json(res, 202, { success: true, message: { text: 'in progress' } }, { 'retry-after': '0' }),
  };
  it.each(Object.keys(answers))('says in_progress for a 202 with %s', async (name) => {
    const server = await startTestServer((_req, res) => answers[name]!(res));
    try {
      const client = new CheckoutClient({ baseUrl: server.url, apiKey: 'sika_checkout_test' });
      const result = await client.payments.create(payment(), { idempotencyKey: 'order-202' });
      expect(result).toMatchObject({ outcome: 'in_progress', status: 202, idempotencyKey: 'order-202' });
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});

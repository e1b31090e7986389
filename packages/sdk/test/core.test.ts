import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  CredentialError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
} from '../src/core/errors.js';
import { assertSecretKey, assertServerSide } from '../src/core/credentials.js';
import { HttpCore, type CoreConfig, type IdempotentRequestOptions, type RequestOptions } from '../src/core/http.js';
import { retryDelayMs } from '../src/core/retry.js';
import { parseInput } from '../src/core/schema.js';
import { envelope, errorEnvelope, json, startTestServer, type TestServer } from './helpers/http-server.js';

const Thing = z.looseObject({ id: z.string(), count: z.number() });

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const core = (config: Partial<CoreConfig> = {}) => new HttpCore({ baseUrl: server!.url, ...config });

describe('answers', () => {
  it('unwraps the envelope and keeps fields the service adds later', async () => {
    server = await startTestServer((_req, res) => json(res, 200, envelope({ id: 'a', count: 2, added_later: true })));
    const thing = await core().get('api/v1/thing', { schema: Thing });
    expect(thing).toEqual({ id: 'a', count: 2, added_later: true });
    expect(server.requests[0]!.url).toBe('/api/v1/thing');
  });

  it('keeps a base URL path and sends the query string', async () => {
    server = await startTestServer((_req, res) => json(res, 200, { id: 'a', count: 1 }));
    await new HttpCore({ baseUrl: `${server.url}/anchor/` }).get('/transaction', {
      schema: Thing,
      unwrap: false,
      query: { id: 'tx 1', skipped: undefined },
    });
    expect(server.requests[0]!.url).toBe('/anchor/transaction?id=tx+1');
  });

  it('refuses a 2xx whose known field has the wrong type with ResponseValidationError', async () => {
    server = await startTestServer((_req, res) => json(res, 200, envelope({ id: 'a', count: 'two' }, 'req_bad')));
    const error = await core().get('thing', { schema: Thing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]!.path).toEqual(['count']);
    expect((error as ResponseValidationError).requestId).toBe('req_bad');
  });
});

describe('errors', () => {
  const cases = [
    [400, BadRequestError, 'VALIDATION_ERROR'],
    [401, AuthenticationError, 'UNAUTHORIZED'],
    [403, PermissionDeniedError, 'KYC_NOT_APPROVED'],
    [404, NotFoundError, 'NOT_FOUND'],
    [409, ConflictError, 'DUPLICATE_ORDER'],
    [422, UnprocessableEntityError, 'QUOTE_EXPIRED'],
    [429, RateLimitError, 'RATE_LIMITED'],
    [500, InternalServerError, 'INTERNAL_ERROR'],
  ] as const;

  it.each(cases)('maps %i to its class with the code, message, request id and raw body', async (status, Class, code) => {
    const body = errorEnvelope(code, 'it went wrong', 'req_42');
    server = await startTestServer((_req, res) => json(res, status, body));
    const error = await core().post('thing', { schema: Thing, maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, code, requestId: 'req_42', body, name: Class.name });
    expect((error as Error).message).toBe(`${status} ${code}: it went wrong`);
  });

  it('reads the anchor body {error} and the checkout body {error, message}, with no code', async () => {
    server = await startTestServer((req, res) =>
      req.url!.includes('anchor')
        ? json(res, 400, { error: 'challenge expired' }, { 'x-request-id': 'hdr_1' })
        : json(res, 409, { error: 'idempotency conflict', message: 'idempotency conflict' }),
    );
    const anchor = await core().get('anchor/auth', { schema: Thing }).catch((e: unknown) => e);
    expect(anchor).toBeInstanceOf(BadRequestError);
    expect(anchor).toMatchObject({ code: undefined, requestId: 'hdr_1', message: '400: challenge expired' });
    const checkout = await core().post('checkout', { schema: Thing }).catch((e: unknown) => e);
    expect(checkout).toBeInstanceOf(ConflictError);
    expect(checkout).toMatchObject({ code: undefined, message: '409: idempotency conflict' });
  });

  it('keeps a body that is not JSON as text', async () => {
    server = await startTestServer((_req, res) => {
      res.writeHead(418, { 'content-type': 'text/plain' });
      res.end('short and stout');
    });
    const error = await core().get('thing', { schema: Thing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 418, body: 'short and stout', message: '418: short and stout' });
  });

  it('never puts a key, seed or token in a message, even one the service echoes', async () => {
    const key = 'sika_secret_0123456789abcdef0123456789abcdef0123456789abcdef';
    const seed = 'SBK2VIYYSVG76E7VC3QHYARNFLY2EAQXDHRC7BMXBBGIFG74ARPRMNQM';
    server = await startTestServer((_req, res) =>
      json(res, 401, errorEnvelope('UNAUTHORIZED', `key ${key} and seed ${seed} refused; Bearer abc.def.ghi`)),
    );
    const error = (await core().get('thing', { schema: Thing }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain(seed);
    expect(error.message).not.toContain('abc.def.ghi');
    expect(error.message).toBe('401 UNAUTHORIZED: key [redacted] and seed [redacted] refused; Bearer [redacted]');
  });

  it('sends credentials from the authenticator and keeps them out of a connection error', async () => {
    const key = 'sika_secret_feedfacefeedfacefeedfacefeedface';
    const port = await closedPort();
    const error = (await new HttpCore({ baseUrl: `http://127.0.0.1:${port}`, auth: { headers: () => ({ 'X-API-Key': key }) } })
      .get('thing', { schema: Thing, maxRetries: 0 })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error.cause as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(key);
  });
});

describe('retries', () => {
  it('retries a 503 on a GET and returns the answer that follows', async () => {
    server = await startTestServer((_req, res, i) =>
      i < 2 ? json(res, 503, errorEnvelope('INTERNAL_ERROR', 'busy')) : json(res, 200, envelope({ id: 'a', count: 1 })),
    );
    await expect(core().get('thing', { schema: Thing })).resolves.toEqual({ id: 'a', count: 1 });
    expect(server.requests).toHaveLength(3);
  });

  it('retries a 503 on a POST with an idempotency key, sending the same key each time', async () => {
    server = await startTestServer((_req, res, i) =>
      i < 1 ? json(res, 503, {}) : json(res, 201, envelope({ id: 'a', count: 1 })),
    );
    await core().post('orders', { schema: Thing, body: { x: 1 }, dedupeKey: 'key-1' });
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((r) => r.headers['x-idempotency-key'])).toEqual(['key-1', 'key-1']);
    expect(server.requests.map((r) => r.body)).toEqual(['{"x":1}', '{"x":1}']);
  });

  it('sends the key in the header the surface names', async () => {
    server = await startTestServer((_req, res) => json(res, 201, envelope({ id: 'a', count: 1 })));
    await core({ idempotencyHeader: 'Idempotency-Key' }).post('payments', { schema: Thing, dedupeKey: 'k' });
    expect(server.requests[0]!.headers['idempotency-key']).toBe('k');
    expect(server.requests[0]!.headers['x-idempotency-key']).toBeUndefined();
  });

  it('does not retry a 503 on a POST without an idempotency key', async () => {
    server = await startTestServer((_req, res) => json(res, 503, {}));
    await expect(core().post('orders', { schema: Thing, body: {} })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  it.each([502, 504])('retries a %i on a GET', async (status) => {
    server = await startTestServer((_req, res, i) => (i < 1 ? json(res, status, {}) : json(res, 200, envelope({ id: 'a', count: 1 }))));
    await core().get('thing', { schema: Thing });
    expect(server.requests).toHaveLength(2);
  });

  it.each([500, 400, 404, 409])('does not retry a %i', async (status) => {
    server = await startTestServer((_req, res) => json(res, status, {}));
    await expect(core().get('thing', { schema: Thing })).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
  });

  it('stops after maxRetries and throws the last answer', async () => {
    server = await startTestServer((_req, res) => json(res, 503, errorEnvelope('INTERNAL_ERROR', 'still busy')));
    await expect(core({ maxRetries: 1 }).get('thing', { schema: Thing })).rejects.toThrow('503 INTERNAL_ERROR: still busy');
    expect(server.requests).toHaveLength(2);
    await expect(core().get('thing', { schema: Thing, maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(3);
  });

  it('honours Retry-After on a 429', async () => {
    server = await startTestServer((_req, res, i) =>
      i < 1
        ? json(res, 429, errorEnvelope('RATE_LIMITED', 'slow down'), { 'retry-after': '1' })
        : json(res, 200, envelope({ id: 'a', count: 1 })),
    );
    await core().get('thing', { schema: Thing });
    const gap = server.requests[1]!.at - server.requests[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(gap).toBeLessThan(2_000);
  });

  it.each([
    ['429 with Retry-After: 120', 429, { 'retry-after': '120' }],
    ['503 with an HTTP date ten minutes away', 503, { 'retry-after': new Date(Date.now() + 600_000).toUTCString() }],
    ['429 with retry-after-ms: 60000', 429, { 'retry-after-ms': '60000' }],
  ])('does not ask again sooner than a %s says: it throws at once, and reports retryAfter', async (_name, status, headers) => {
    server = await startTestServer((_req, res) => json(res, status, errorEnvelope('RATE_LIMITED', 'slow down'), headers));
    const started = performance.now();
    const error = await core({ maxRetries: 2 }).get('thing', { schema: Thing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(status === 429 ? RateLimitError : InternalServerError);
    if (status === 429) expect((error as RateLimitError).retryAfter).toBeGreaterThanOrEqual(60);
    expect(server.requests).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('backs off 0.5 s doubling to at most 8 s, with at most 25 % jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => retryDelayMs(n, undefined, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(retryDelayMs(0, undefined, () => 0.999_999)).toBeCloseTo(375, 0);
    expect(retryDelayMs(3, new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    const date = new Date(Date.now() + 5_000).toUTCString();
    expect(retryDelayMs(0, new Headers({ 'retry-after': date }))).toBeGreaterThan(3_000);
  });

  it('retries a GET after the connection drops, then throws ConnectionError', async () => {
    server = await startTestServer((_req, res) => void res.socket?.destroy());
    const error = await core({ maxRetries: 1 }).get('thing', { schema: Thing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a dropped POST without an idempotency key', async () => {
    server = await startTestServer((_req, res) => void res.socket?.destroy());
    await expect(core().post('orders', { schema: Thing, body: {} })).rejects.toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it('renews the credential once after a 401 and sends the request again', async () => {
    server = await startTestServer((req, res) =>
      req.headers.authorization === 'Bearer fresh' ? json(res, 200, envelope({ id: 'a', count: 1 })) : json(res, 401, {}),
    );
    let token = 'stale';
    const auth = { headers: () => ({ authorization: `Bearer ${token}` }), refresh: async () => void (token = 'fresh') };
    await expect(core({ auth }).post('thing', { schema: Thing })).resolves.toEqual({ id: 'a', count: 1 });
    token = 'stale';
    const always401 = { headers: () => ({ authorization: 'Bearer stale' }), refresh: async () => {} };
    await expect(core({ auth: always401 }).get('thing', { schema: Thing })).rejects.toBeInstanceOf(AuthenticationError);
    expect(server.requests).toHaveLength(4);
  });
});

describe('timeouts and aborts', () => {
  it.each<[string, { maxRetries?: number; timeout?: number }]>([
    ['maxRetries NaN', { maxRetries: Number.NaN }],
    ['maxRetries Infinity', { maxRetries: Number.POSITIVE_INFINITY }],
    ['maxRetries -1', { maxRetries: -1 }],
    ['maxRetries 1.5', { maxRetries: 1.5 }],
    ['timeout NaN', { timeout: Number.NaN }],
    ['timeout 0', { timeout: 0 }],
    ['timeout -5', { timeout: -5 }],
  ])('refuses %s with ValidationError, on the client and on a call, sending nothing', async (_name, option) => {
    server = await startTestServer((_req, res) => json(res, 503, {}));
    expect(() => core(option)).toThrow(ValidationError);
    // NaN retries never reached their limit: a 503 was asked again every 8 s, for ever.
    await expect(core().get('thing', { schema: Thing, ...option })).rejects.toBeInstanceOf(ValidationError);
    expect(server.requests).toHaveLength(0);
  });

  it('takes timeout Infinity (or past the 24.8 days a timer holds) as no deadline, not as one already passed', async () => {
    server = await startTestServer(async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      json(res, 200, envelope({ id: 'a', count: 1 }));
    });
    await expect(core({ timeout: Number.POSITIVE_INFINITY }).get('thing', { schema: Thing })).resolves.toEqual({ id: 'a', count: 1 });
    await expect(core().get('thing', { schema: Thing, timeout: 2 ** 32 })).resolves.toEqual({ id: 'a', count: 1 });
    await expect(core({ fetch: (input, init) => fetch(input, init), timeout: Number.POSITIVE_INFINITY }).get('thing', { schema: Thing })).resolves.toEqual({ id: 'a', count: 1 });
  });

  it('keeps the deadline and the caller\'s signal with a fetch of one\'s own that drops the signal, while waiting for the answer and while reading it', async () => {
    server = await startTestServer((req, res) => {
      if (req.url === '/no-answer') return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":');
    });
    // An instrumentation wrapper that builds its own init and leaves the signal out.
    const dropping: typeof fetch = (input, init) => fetch((input as Request).url, { method: init?.method, headers: init?.headers, body: init?.body });
    for (const path of ['no-answer', 'slow-body']) {
      const started = performance.now();
      await expect(core({ fetch: dropping, timeout: 200, maxRetries: 0 }).get(path, { schema: Thing })).rejects.toBeInstanceOf(TimeoutError);
      expect(performance.now() - started).toBeLessThan(1_500);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      await expect(core({ fetch: dropping, timeout: 5_000, maxRetries: 0 }).get(path, { schema: Thing, signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    }
  });

  it('times out an attempt that gets no answer', async () => {
    server = await startTestServer(() => {});
    const started = performance.now();
    const error = await core({ timeout: 200 }).post('thing', { schema: Thing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('Request timed out after 200 ms');
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a timed-out GET', async () => {
    server = await startTestServer((_req, res, i) => (i === 0 ? undefined : json(res, 200, envelope({ id: 'a', count: 1 }))));
    await expect(core().get('thing', { schema: Thing, timeout: 200 })).resolves.toEqual({ id: 'a', count: 1 });
    expect(server.requests).toHaveLength(2);
  });

  it('times out an answer whose body never ends', async () => {
    server = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":');
    });
    await expect(core({ timeout: 200, maxRetries: 0 }).get('thing', { schema: Thing })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('aborts a request in flight', async () => {
    server = await startTestServer(() => {});
    const controller = new AbortController();
    const pending = core().get('thing', { schema: Thing, signal: controller.signal });
    await waitFor(() => server!.requests.length === 1);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });

  it('aborts the wait between retries and sends nothing more', async () => {
    server = await startTestServer((_req, res) => json(res, 503, {}, { 'retry-after': '30' }));
    const controller = new AbortController();
    const pending = core().get('thing', { schema: Thing, signal: controller.signal });
    await waitFor(() => server!.requests.length === 1);
    const started = performance.now();
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  it('sends nothing when the signal has already fired', async () => {
    server = await startTestServer((_req, res) => json(res, 200, envelope({ id: 'a', count: 1 })));
    await expect(core().get('thing', { schema: Thing, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(0);
  });

  it('uses the fetch it is given', async () => {
    server = await startTestServer((_req, res) => json(res, 200, envelope({ id: 'a', count: 1 })));
    const seen: string[] = [];
    const ownFetch: typeof fetch = (input, init) => {
      seen.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    };
    await core({ fetch: ownFetch }).get('thing', { schema: Thing });
    expect(seen).toEqual([`${server.url}/thing`]);
  });

  it('still times out with a fetch of its own that passes on the Request and drops the init', async () => {
    server = await startTestServer(() => {});
    const requestOnly: typeof fetch = (input) => fetch(input);
    await expect(core({ timeout: 200, maxRetries: 0, fetch: requestOnly }).get('thing', { schema: Thing })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('sends a JSON body with its content type, to a fetch of its own whether it reads the Request or the init', async () => {
    server = await startTestServer((_req, res) => json(res, 201, envelope({ id: 'a', count: 1 })));
    const requestOnly: typeof fetch = (input) => fetch(input);
    for (const own of [undefined, requestOnly]) {
      await core({ fetch: own }).post('thing', { schema: Thing, body: { amount: 1 } });
      expect(server.requests.at(-1)).toMatchObject({ method: 'POST', body: '{"amount":1}' });
      expect(server.requests.at(-1)!.headers['content-type']).toBe('application/json');
    }
    await core().post('thing', { schema: Thing, body: { amount: 1 }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(server.requests.at(-1)!.headers['content-type']).toBe('application/merge-patch+json');
  });
});

describe('inputs and credentials', () => {
  it('refuses bad input with every problem named', () => {
    const schema = z.strictObject({ amount: z.number().positive(), phone: z.string() });
    const error = (() => {
      try {
        parseInput(schema, { amount: -1, phone: 5, extra: true });
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error!.issues.map((i) => i.path.join('.') || i.code)).toEqual(['amount', 'phone', 'unrecognized_keys']);
    expect(error!.message).toMatch(/^Invalid input: amount: .*; phone: .*; Unrecognized key: "extra"$/);
  });

  it('refuses a secret credential where a window or document exists', () => {
    const g = globalThis as { window?: unknown; document?: unknown };
    expect(() => assertServerSide('The secret key')).not.toThrow();
    for (const name of ['window', 'document'] as const) {
      g[name] = {};
      try {
        expect(() => assertServerSide('The secret key')).toThrow(CredentialError);
      } finally {
        delete g[name];
      }
    }
  });

  it('refuses a baseUrl holding a user name and password with CredentialError that shows neither (fetch refused it on every call, quoting it)', () => {
    const error = (() => {
      try {
        new HttpCore({ baseUrl: 'https://merchant:hunter2-staging@api.example/v1' });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(CredentialError);
    expect(`${error!.message}${error!.stack}${inspect(error)}`).not.toMatch(/hunter2|merchant:/);
  });

  it.each([['not a URL', 'api.example/v1'], ['ftp:', 'ftp://api.example/'], ['file:', 'file:///etc/passwd'], ['missing', undefined]])(
    'refuses a baseUrl that is %s with ValidationError',
    (_name, baseUrl) => {
      expect(() => new HttpCore({ baseUrl: baseUrl as string })).toThrow(ValidationError);
    },
  );

  it('does not let an idempotency key reach, as a type, a call whose service ignores it (the SDK would repeat it, trusting the key)', () => {
    // Options of a create call, reused for a confirm: `kyc.initiate(params, opts)` must not compile.
    expectTypeOf<IdempotentRequestOptions>().not.toExtend<RequestOptions>();
    expectTypeOf<Omit<IdempotentRequestOptions, 'idempotencyKey'>>().toExtend<RequestOptions>();
  });

  it('neither sends nor trusts an idempotencyKey that plain JavaScript put in the options of a call whose service ignores it', async () => {
    server = await startTestServer((_req, res) => json(res, 503, {}));
    // What a resource does with its caller's options: spreads them into the call.
    const opts = { idempotencyKey: 'reused-from-a-create', maxRetries: 2 } as object;
    await expect(core().post('kyc/initiate', { ...opts, schema: Thing, body: { phone: '0241234567' } })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['x-idempotency-key']).toBeUndefined();
  });

  it('refuses a public key where a secret key is needed, without echoing it', () => {
    const key = 'sika_public_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    expect(() => assertSecretKey(key, 'secretKey')).toThrow('secretKey must be a secret key; a public key was given');
    expect(() => assertSecretKey('', 'secretKey')).toThrow('secretKey is required');
    expect(() => assertSecretKey('sika_secret_bbbbbbbb', 'secretKey')).not.toThrow();
  });
});

async function waitFor(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error('condition not met');
}

/** A port on 127.0.0.1 with nothing listening. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

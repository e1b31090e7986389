/**
 * The `hooks` client option over real HTTP on 127.0.0.1: `beforeRequest` sees (and may add to)
 * each attempt's headers, `afterResponse` sees each answer's status, request id and duration;
 * neither is handed a secret the merchant's own code did not already hold.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpCore, type HookRequest, type HookResponse } from '../src/core/http.js';
import { CheckoutClient, ConnectionError, InternalServerError } from '../src/index.js';
import { newWidget } from './helpers/clients.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';
import { json, startTestServer, type TestServer } from './helpers/http-server.js';

const Thing = z.looseObject({ id: z.string() });
const envelope = (data: unknown) => ({ data, meta: { request_id: 'req_from_body' } });

/** Hooks that record what they are given, the request as it was when each hook ran. */
function recorder() {
  const seen = { before: [] as { url: string; method: string; attempt: number; headers: Record<string, string> }[], after: [] as HookResponse[] };
  const copy = (r: HookRequest) => ({ url: r.url, method: r.method, attempt: r.attempt, headers: Object.fromEntries(r.headers) });
  return {
    seen,
    hooks: {
      beforeRequest: (request: HookRequest) => {
        seen.before.push(copy(request));
      },
      afterResponse: (response: HookResponse) => {
        seen.after.push(response);
      },
    },
  };
}

describe('hooks against the standalone mock', () => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await startStandalone({ seed: 18 });
  });
  afterAll(() => env.close());

  it('beforeRequest and afterResponse see a widget call: method, URL, credential, status, request id, duration', async () => {
    const { secretKey } = await newWidget(env);
    const { seen, hooks } = recorder();
    const { WidgetClient } = await import('../src/index.js');
    const widget = new WidgetClient({ baseUrl: env.origin, secretKey, hooks });
    const { requestId } = await widget.config.get().withResponse();
    expect(seen.before).toEqual([{ method: 'GET', url: `${env.origin}/api/v1/widget/config`, attempt: 1, headers: expect.objectContaining({ 'x-api-key': secretKey }) }]);
    expect(seen.after).toHaveLength(1);
    expect(seen.after[0]).toMatchObject({ status: 200, requestId });
    expect(requestId).toMatch(/\S/);
    expect(seen.after[0]!.durationMs).toBeGreaterThan(0);
    expect(seen.after[0]!.headers.get('content-type')).toContain('application/json');
  });

  it('afterResponse sees a refused call too, before the SDK throws', async () => {
    const { seen, hooks } = recorder();
    const checkout = new CheckoutClient({ baseUrl: env.origin, apiKey: 'sika_checkout_000000000000000000000000000000000000000000000000', hooks, maxRetries: 0 });
    await expect(checkout.transactions.list()).rejects.toMatchObject({ status: 401 });
    expect(seen.after.map((r) => r.status)).toEqual([401]);
    expect(seen.before[0]!.headers.authorization).toBe('Bearer sika_checkout_000000000000000000000000000000000000000000000000');
  });
});

describe('hooks against a test server', () => {
  let server: TestServer;
  let answers: ((res: Parameters<Parameters<typeof startTestServer>[0]>[1]) => void)[] = [];
  beforeAll(async () => {
    server = await startTestServer((_req, res) => (answers.shift() ?? ((r) => json(r, 200, envelope({ id: 'a' }))))(res));
  });
  afterEach(() => {
    answers = [];
    server.requests.length = 0;
  });
  afterAll(() => server.close());
  const core = (options: Partial<ConstructorParameters<typeof HttpCore>[0]> = {}) =>
    new HttpCore({ baseUrl: server.url, auth: { headers: () => ({ 'X-API-Key': 'sika_secret_0123456789abcdef0123456789abcdef0123456789abcdef' }) }, ...options });

  it('runs on each attempt of a retried call; a header a hook adds (even after an await) is sent each time', async () => {
    answers = [(res) => json(res, 503, { error: { code: 'UNAVAILABLE', message: 'busy' } })];
    const { seen, hooks } = recorder();
    let n = 0;
    const beforeRequest = async (request: HookRequest) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      request.headers.set('traceparent', `00-${String(++n).padStart(32, '0')}-0000000000000001-01`);
      hooks.beforeRequest(request);
    };
    await core({ hooks: { ...hooks, beforeRequest } }).get('thing', { schema: Thing });
    expect(seen.before.map((r) => r.attempt)).toEqual([1, 2]);
    expect(seen.after.map((r) => [r.status, r.requestId])).toEqual([
      [503, undefined],
      [200, 'req_from_body'],
    ]);
    expect(server.requests.map((r) => r.headers.traceparent)).toEqual([`00-${'1'.padStart(32, '0')}-0000000000000001-01`, `00-${'2'.padStart(32, '0')}-0000000000000001-01`]);
  });

  it('masks secret query values in the URL and credentials in the answer headers', async () => {
    answers = [
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=abc', 'x-echo': 'sika_secret_0123456789abcdef0123456789abcdef0123456789abcdef', 'x-request-id': 'req_h' });
        res.end(JSON.stringify({ data: { id: 'a' } }));
      },
    ];
    const { seen, hooks } = recorder();
    await core({ hooks }).get('thing', { schema: Thing, query: { token: 'tok_0123456789', limit: 2, skip: undefined } });
    expect(server.requests[0]!.url).toBe('/thing?token=tok_0123456789&limit=2');
    expect(seen.before[0]!.url).toBe(`${server.url}/thing?token=[redacted]&limit=2`);
    const [answer] = seen.after;
    expect(answer!.requestId).toBe('req_h');
    expect(answer!.headers.get('set-cookie')).toBe('[redacted]');
    expect(answer!.headers.get('x-echo')).toBe('[redacted]');
  });

  it('a beforeRequest that throws fails the call with its error and sends nothing', async () => {
    const failure = new Error('tracer down');
    const call = core({ hooks: { beforeRequest: () => Promise.reject(failure) } }).get('thing', { schema: Thing });
    await expect(call).rejects.toBe(failure);
    expect(server.requests).toHaveLength(0);
  });

  it('an afterResponse that throws fails the call with its error, unretried', async () => {
    answers = [(res) => json(res, 503, { error: { code: 'UNAVAILABLE', message: 'busy' } })];
    const failure = new Error('metrics down');
    await expect(core({ hooks: { afterResponse: () => Promise.reject(failure) } }).get('thing', { schema: Thing })).rejects.toBe(failure);
    expect(server.requests).toHaveLength(1);
  });

  it('afterResponse is not called when no answer came, and the SDK error is unchanged', async () => {
    answers = [(res) => res.destroy(), (res) => res.destroy()];
    const { seen, hooks } = recorder();
    await expect(core({ hooks, maxRetries: 1 }).get('thing', { schema: Thing })).rejects.toBeInstanceOf(ConnectionError);
    expect(seen.before.map((r) => r.attempt)).toEqual([1, 2]);
    expect(seen.after).toEqual([]);
    answers = [(res) => json(res, 500, { error: { code: 'INTERNAL', message: 'boom' } })];
    await expect(core({ hooks, maxRetries: 0 }).get('thing', { schema: Thing })).rejects.toBeInstanceOf(InternalServerError);
    expect(seen.after.map((r) => r.status)).toEqual([500]);
  });

  it('sends the body and its content type with hooks, and POST headers changed by the hook', async () => {
    const { hooks } = recorder();
    const beforeRequest = (request: HookRequest) => {
      request.headers.set('x-tenant', 'shop-42');
      hooks.beforeRequest(request);
    };
    await core({ hooks: { beforeRequest } }).post('thing', { schema: Thing, body: { amount: 1 }, dedupeKey: 'k1' });
    expect(server.requests[0]).toMatchObject({ method: 'POST', body: '{"amount":1}' });
    expect(server.requests[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'x-tenant': 'shop-42', 'x-idempotency-key': 'k1' });
  });

  it('a header a hook adds reaches a fetch of your own that passes on only the Request', async () => {
    const requestOnly: typeof fetch = (input) => fetch(input);
    const beforeRequest = (request: HookRequest) => request.headers.set('x-tenant', 'shop-7');
    await core({ fetch: requestOnly, hooks: { beforeRequest } }).post('thing', { schema: Thing, body: { amount: 2 } });
    expect(server.requests[0]).toMatchObject({ method: 'POST', body: '{"amount":2}' });
    expect(server.requests[0]!.headers).toMatchObject({ 'x-tenant': 'shop-7', 'x-api-key': 'sika_secret_0123456789abcdef0123456789abcdef0123456789abcdef' });
  });
});

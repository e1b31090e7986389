/**
 * `SikarampError` keeps its message as given (so that `@sikaramp/sdk/webhooks` carries no
 * redaction code); each error class whose message can hold outside text redacts it itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpCore, type ClientOptions } from '../src/core/http.js';
import { ApiError, ConnectionError, ResponseValidationError, SikarampError, ValidationError, WaitTimeoutError } from '../src/core/errors.js';
import { WebhookVerificationError } from '../src/webhooks/index.js';
import { startTestServer, type TestServer } from './helpers/http-server.js';

const KEY = 'sika_secret_0123456789abcdef0123456789abcdef0123456789abcdef';

describe('errors built from outside text', () => {
  it.each([
    ['ApiError', () => new ApiError(400, { error: { code: 'X', message: `bad key ${KEY}` } }, new Headers())],
    ['ConnectionError', () => new ConnectionError(`could not reach http://127.0.0.1/?key=${KEY}`)],
    ['ValidationError', () => new ValidationError([{ path: ['apiKey'], message: `got ${KEY}` }])],
    ['ResponseValidationError', () => new ResponseValidationError([{ path: [], message: `got ${KEY}` }], {}, new Headers())],
    ['WaitTimeoutError', () => new WaitTimeoutError(5, KEY)],
  ])('%s redacts its message and stack', (_name, make) => {
    const error = make();
    expect(error).toBeInstanceOf(SikarampError);
    expect(error.message).toContain('[redacted]');
    expect(`${error.message}${error.stack}`).not.toContain(KEY);
  });

  it('a webhook verification error is still a SikarampError with its name and reason', () => {
    const error = new WebhookVerificationError('missing_header', 'No X-Svc-Signature header');
    expect(error).toBeInstanceOf(SikarampError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'WebhookVerificationError', reason: 'missing_header', message: 'No X-Svc-Signature header' });
  });
});

describe('a credential no header can carry', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer((_req, res) => void res.end('{}'));
  });
  afterAll(() => server.close());

  // An opaque token that no pattern of redact() knows, broken by a line break as a key pasted from two lines is.
  const token = 'opaque-session-4242-abcd\nsecond-line-9797';
  it.each<[string, ClientOptions]>([
    ['node:http', {}],
    ['node:http with hooks', { hooks: { beforeRequest: () => {} } }],
    ['a fetch of the caller\'s own', { fetch: (input, init) => fetch(input, init) }],
  ])('fails as ValidationError naming the header, never its value, and sends nothing (%s)', async (_path, options) => {
    const core = new HttpCore({ baseUrl: server.url, maxRetries: 2, ...options, auth: { headers: () => ({ 'x-session-token': token }) } });
    const before = server.requests.length;
    const error = (await core.get('x', { schema: z.unknown() }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain('x-session-token');
    let text = '';
    for (let e: unknown = error; e instanceof Error; e = e.cause) text += `${e.message}${e.stack}`;
    expect(text).not.toMatch(/opaque-session|second-line/);
    expect(server.requests.length).toBe(before);
  });
});

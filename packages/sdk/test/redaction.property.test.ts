/**
 * No credential survives in an error, whatever a hostile or careless service echoes back:
 * not in the message or stack, not in `body`, `headers` or `cause`, not in what
 * `util.inspect`, `JSON.stringify` or `String` show of it. Each run makes a real request to a
 * server on 127.0.0.1 that echoes a generated credential of every form the SDK handles.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { Keypair } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, ConnectionError, redact, ResponseValidationError } from '../src/core/errors.js';
import { HttpCore } from '../src/core/http.js';
import { startTestServer, type TestServer } from './helpers/http-server.js';

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${length}}$`));
const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** Each credential form, with the part that must never be shown. */
const credentials = fc.oneof(
  fc
    .tuple(fc.constantFrom('sika', 'xx', 'live', 'test'), fc.constantFrom('public', 'secret', 'checkout'), hex(48))
    .map(([prefix, kind, body]) => ({ form: `${kind} key`, text: `${prefix}_${kind}_${body}`, secret: body })),
  fc.tuple(hex(48), hex(64)).map(([a, b]) => ({ form: 'webhook secret', text: `whsec_${a}${b}`.slice(0, 70), secret: a })),
  fc
    .uint8Array({ minLength: 32, maxLength: 32 })
    .map((bytes) => Keypair.fromRawEd25519Seed(Buffer.from(bytes)).secret())
    .map((seed) => ({ form: 'Stellar secret seed', text: seed, secret: seed.slice(1) })),
  fc.record({ sub: fc.string({ minLength: 1, maxLength: 40 }), exp: fc.nat() }).map((claims) => {
    const head = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify(claims))}`;
    const signature = createHmac('sha256', 'k').update(head).digest('base64url');
    return { form: 'JWT', text: `${head}.${signature}`, secret: signature };
  }),
  fc
    .tuple(hex(48), fc.constantFrom('?', '&'))
    .map(([token, sep]) => ({ form: 'interactive token', text: `http://127.0.0.1:4010/interactive${sep === '?' ? '' : '?lang=en'}${sep}token=${token}`, secret: token })),
  hex(40).map((token) => ({ form: 'bearer value', text: `Bearer ${token}`, secret: token })),
  // A password in a URL's user information, as an upstream's address quoted in a 502 can carry.
  fc
    .tuple(fc.stringMatching(/^[a-z]{1,12}$/), hex(24))
    .map(([user, password]) => ({ form: 'password in a URL', text: `https://${user}:${password}@upstream.example/api`, secret: password })),
  // A session token in a URL under any name that says so, in its query or its fragment (an OAuth-style return).
  fc
    .tuple(hex(40), fc.constantFrom('?', '&', '#'), fc.constantFrom('sessionToken', 'session_token', 'access_token', 'id_token', 'code', 'auth', 'password', 'jwt', 'apiKey'))
    .map(([token, sep, name]) => ({ form: 'token in a URL', text: `https://merchant.example/return${sep === '&' ? '?lang=en' : ''}${sep}${name}=${token}`, secret: token })),
);

/** Text around the credential, ending and starting at a separator, as it appears in messages and JSON. */
const around = fc.tuple(fc.string({ maxLength: 30 }), fc.constantFrom(' ', '"', ':', '=', '\n', ',', '(', '/', '\t'));

/** Every way an error is looked at: thrown, logged, serialised. */
function views(error: unknown): string[] {
  const e = error as Error & Record<string, unknown>;
  return [
    String(e),
    e.message,
    e.stack ?? '',
    inspect(e, { depth: null, showHidden: true }),
    JSON.stringify(e),
    JSON.stringify(e.body ?? null),
    e.headers instanceof Headers ? JSON.stringify([...e.headers]) : '',
    String(e.location),
    inspect(e.cause, { depth: null, showHidden: true }),
  ];
}

const Thing = z.looseObject({ id: z.string() });

let server: TestServer;
/** What the server echoes on the next request. */
let echo = { text: '', header: '', status: 401 };
beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const { text, header, status } = echo;
    const body = JSON.stringify({
      error: { code: 'UNAUTHORIZED', message: `refused ${text}` },
      meta: { request_id: 'req_1' },
      echo: { [text]: [text, { nested: text }], sent_key: req.headers['x-api-key'] },
    });
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-echo-key': header,
      'set-cookie': `session=${header}`,
      // The credential in the path too (where it has no blank): RedirectError keeps the path as `location`.
      location: `https://elsewhere.example/cb${header.includes(' ') ? '' : `/${header}`}?token=${header}&key=${header}`,
      'www-authenticate': `Bearer realm="x", error="${header}"`,
    });
    res.end(status === 200 ? JSON.stringify({ data: { id: 7, echo: text } }) : body);
  });
});
afterAll(() => server.close());

describe('credentials in errors (property)', () => {
  it('an error answer that echoes any credential, in its message, body and headers, shows none of it', async () => {
    await fc.assert(
      fc.asyncProperty(credentials, around, around, fc.constantFrom(302, 400, 401, 403, 404, 409, 429, 500), async (cred, [pre, s1], [post, s2], status) => {
        echo = { text: `${pre}${s1}${cred.text}${s2}${post}`, header: cred.text, status };
        const apiKey = `sika_secret_${cred.secret.replace(/[^0-9a-f]/g, '').padEnd(48, 'a').slice(0, 48)}`;
        const core = new HttpCore({ baseUrl: server.url, maxRetries: 0, auth: { headers: () => ({ 'X-API-Key': apiKey, authorization: `Bearer ${apiKey}` }) } });
        const error = await core.get('thing', { schema: Thing }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ApiError);
        for (const view of views(error)) {
          expect(view, cred.form).not.toContain(cred.secret);
          expect(view, 'the key the request carried').not.toContain(apiKey.slice(12));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a 2xx answer that fails its schema keeps no credential in ResponseValidationError', async () => {
    await fc.assert(
      fc.asyncProperty(credentials, around, async (cred, [pre, s1]) => {
        echo = { text: `${pre}${s1}${cred.text}`, header: cred.text, status: 200 };
        const error = await new HttpCore({ baseUrl: server.url, maxRetries: 0 }).get('thing', { schema: Thing }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ResponseValidationError);
        for (const view of views(error)) expect(view, cred.form).not.toContain(cred.secret);
      }),
      { numRuns: 60 },
    );
  });

  it('a refused connection keeps neither the X-API-Key nor the Authorization value', async () => {
    const port = await closedPort();
    await fc.assert(
      fc.asyncProperty(hex(48), async (body) => {
        const key = `sika_secret_${body}`;
        const core = new HttpCore({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0, auth: { headers: () => ({ 'X-API-Key': key, authorization: `Bearer ${key}` }) } });
        const error = await core.get('thing', { schema: Thing }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConnectionError);
        for (const view of views(error)) expect(view).not.toContain(body);
      }),
      { numRuns: 20 },
    );
  });

  it.each([
    ['a query name that never ends', `?${'key'.repeat(70_000)}`],
    ['a fragment of names', `#${'token.'.repeat(35_000)}`],
    ['user information that never ends', `//${'a:'.repeat(100_000)}`],
    ['a JWT that never ends', `eyJ${'a'.repeat(100_000)}.${'b'.repeat(100_000)}`],
  ])('redact() stays linear on hostile text an answer can carry (%s, about 200 KB)', (_name, text) => {
    const started = performance.now();
    redact(text);
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('redact() masks each form anywhere in a log line, glued to other text too', () => {
    fc.assert(
      fc.property(credentials, fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), (cred, pre, post) => {
        const glued = cred.form === 'interactive token' || cred.form === 'bearer value' || cred.form === 'token in a URL' || cred.form === 'password in a URL' ? `${pre} ${cred.text} ${post}` : `${pre}${cred.text} ${post}`;
        expect(redact(glued)).not.toContain(cred.secret);
      }),
      { numRuns: 500 },
    );
  });
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * `logger` and `logLevel`: what each level logs of real calls to a real server on 127.0.0.1,
 * and that no credential form (API keys, webhook secrets, JWTs, Stellar seeds) reaches a log
 * line, whether it was sent by the SDK or echoed back by the server.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient } from '../src/anchor/index.js';
import { ApiError, CheckoutClient, RampClient, type Logger } from '../src/index.js';
import { customerInput } from './helpers/clients.js';
import { startStandalone } from './helpers/mock.js';
import { json, startTestServer, type TestServer } from './helpers/http-server.js';

const alnum = (n: number) => randomBytes(n).toString('base64').replace(/[^A-Za-z0-9]/g, 'x').slice(0, n);
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const secrets = {
  secret: `sika_secret_${alnum(24)}`,
  public: `sika_public_${alnum(24)}`,
  checkout: `sika_checkout_${alnum(24)}`,
  whsec: `whsec_${alnum(32)}`,
  jwt: `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'GABC', exp: 9e9 })}.${randomBytes(32).toString('base64url')}`,
  seed: Keypair.random().secret(),
};
const all = Object.values(secrets).join(' ');

interface Line {
  level: keyof Logger;
  message: string;
  details: Record<string, unknown> | undefined;
}
function capture(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: keyof Logger) => (message: string, details?: Record<string, unknown>) => lines.push({ level, message, details });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}
const text = (lines: Line[]) => lines.map((line) => `${line.message} ${JSON.stringify(line.details ?? {})}`).join('\n');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/api/v1/developer/transactions') {
      // The first page hands out a credential-shaped cursor, which the second request carries in its query.
      if (!url.searchParams.has('cursor')) return json(res, 200, { data: [], next_cursor: secrets.jwt, has_more: true }, { 'x-request-id': 'req_page1' });
      return json(res, 200, { data: [], next_cursor: null, has_more: false }, { 'x-request-id': 'req_page2' });
    }
    if (url.pathname.startsWith('/flaky/')) {
      // 503 once, then a 400 that echoes every secret in its body and headers.
      if (url.searchParams.get('n') === '0') {
        url.searchParams.set('n', '1');
        return json(res, 503, { error: { message: `down ${all}` } }, { 'x-request-id': 'req_503', 'retry-after': '0' });
      }
    }
    return json(res, 400, { error: { message: `bad request: ${all}` } }, { 'x-request-id': 'req_400', 'x-echo': secrets.jwt });
  });
});
afterAll(() => server.close());

const saved = process.env.SIKARAMP_LOG;
afterEach(() => {
  if (saved === undefined) delete process.env.SIKARAMP_LOG;
  else process.env.SIKARAMP_LOG = saved;
});

describe('logLevel debug', () => {
  it('logs each request and answer with method, URL, status, duration, request id and attempt; retries at info; the failure at warn', async () => {
    const { logger, lines } = capture();
    let calls = 0;
    const ramp = new RampClient({
      baseUrl: server.url,
      secretKey: secrets.secret,
      logger,
      logLevel: 'debug',
      // 503 on the first attempt, 400 on the second, through the same real server.
      fetch: (input, init) => {
        const request = new Request(input, init);
        const url = new URL(request.url);
        url.pathname = `/flaky${url.pathname}`;
        url.searchParams.set('n', String(calls++));
        return globalThis.fetch(new Request(url, request), init);
      },
    });
    const error = await ramp.orders.get(`ord_${secrets.seed}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(calls).toBe(2);

    const requests = lines.filter((l) => l.level === 'debug' && l.message.startsWith('request GET '));
    expect(requests.map((l) => l.details?.attempt)).toEqual([1, 2]);
    const answers = lines.filter((l) => l.level === 'debug' && l.message.startsWith('response '));
    expect(answers.map((l) => [l.details?.status, l.details?.requestId, l.details?.attempt])).toEqual([
      [503, 'req_503', 1],
      [400, 'req_400', 2],
    ]);
    for (const answer of answers) expect(answer.details?.durationMs).toEqual(expect.any(Number));
    expect(answers[0]?.message).toMatch(new RegExp(`^response 503 GET ${server.url}/api/v1/ramp/orders/ord_\\[redacted\\]$`));
    expect(lines.filter((l) => l.level === 'info').map((l) => l.message)).toEqual([expect.stringMatching(/^retrying GET .* after 503$/)]);
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.details).toMatchObject({ status: 400, requestId: 'req_400', attempt: 2 });

    const logged = text(lines);
    for (const [form, value] of Object.entries(secrets)) expect(logged, form).not.toContain(value);
    expect(logged).not.toMatch(/bearer|authorization|x-api-key|x-session-token/i);
  });

  it('masks a credential carried in the query string (a page cursor here)', async () => {
    const { logger, lines } = capture();
    const checkout = new CheckoutClient({ baseUrl: server.url, apiKey: secrets.checkout, logger, logLevel: 'debug' });
    const page = await checkout.transactions.list();
    await page.getNextPage();
    expect(server.requests.at(-1)?.url).toContain(`cursor=${secrets.jwt}`);
    const second = lines.filter((l) => l.message.startsWith('request GET ')).at(-1);
    expect(second?.message).toBe(`request GET ${server.url}/api/v1/developer/transactions?cursor=[redacted]`);
    expect(lines.filter((l) => l.message.startsWith('response 200')).map((l) => l.details?.requestId)).toEqual(['req_page1', 'req_page2']);
    const logged = text(lines);
    for (const [form, value] of Object.entries(secrets)) expect(logged, form).not.toContain(value);
  });

  it('a connection failure is logged at error once the retries are spent', async () => {
    const { logger, lines } = capture();
    const closed = await startTestServer(() => {});
    await closed.close();
    const ramp = new RampClient({ baseUrl: closed.url, secretKey: secrets.secret, logger, logLevel: 'error', maxRetries: 0 });
    await expect(ramp.orders.get('ord_1')).rejects.toThrow();
    expect(lines.map((l) => l.level)).toEqual(['error']);
    expect(lines[0]?.message).toMatch(/^failed GET .*ConnectionError/);
  });
});

describe('levels and the default', () => {
  it('logs nothing by default, only failures at warn, and takes SIKARAMP_LOG when no logLevel is given', async () => {
    delete process.env.SIKARAMP_LOG;
    const off = capture();
    await expect(new RampClient({ baseUrl: server.url, secretKey: secrets.secret, logger: off.logger }).orders.get('ord_1')).rejects.toThrow(ApiError);
    expect(off.lines).toEqual([]);

    const warn = capture();
    await expect(new RampClient({ baseUrl: server.url, secretKey: secrets.secret, logger: warn.logger, logLevel: 'warn' }).orders.get('ord_1')).rejects.toThrow(ApiError);
    expect(warn.lines.map((l) => l.level)).toEqual(['warn']);

    process.env.SIKARAMP_LOG = 'DEBUG';
    const env = capture();
    await expect(new RampClient({ baseUrl: server.url, secretKey: secrets.secret, logger: env.logger }).orders.get('ord_1')).rejects.toThrow(ApiError);
    expect(env.lines.map((l) => l.level)).toEqual(['debug', 'debug', 'warn']);
    // An explicit option wins over the environment.
    const quiet = capture();
    await expect(new RampClient({ baseUrl: server.url, secretKey: secrets.secret, logger: quiet.logger, logLevel: 'off' }).orders.get('ord_1')).rejects.toThrow(ApiError);
    expect(quiet.lines).toEqual([]);
  });

  it('refuses a logLevel that is no level, before sending anything', () => {
    const before = server.requests.length;
    expect(() => new CheckoutClient({ baseUrl: server.url, logLevel: 'verbose' as never })).toThrow(/logLevel: must be one of off, error, warn, info, debug/);
    expect(server.requests.length).toBe(before);
  });
});

describe('the anchor client', () => {
  it('logs its SEP-10, SEP-12 and SEP-38 requests with the options it was given, never the signed challenge or the token', async () => {
    const env = await startStandalone({ seed: 12 });
    try {
      const { logger, lines } = capture();
      const signer = Keypair.random();
      const anchor = new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer, logger, logLevel: 'debug', now: () => env.backend.clock.now() });
      await anchor.customers.put(customerInput());
      await anchor.quotes.info();
      for (const path of ['/anchor/auth', '/anchor/customer', '/anchor/sep38/info']) {
        expect(lines.some((line) => line.message.includes(`${env.origin}${path}`)), path).toBe(true);
      }
      const token = await anchor.authenticate();
      const logged = text(lines);
      expect(logged).not.toContain(token);
      expect(logged).not.toContain(signer.secret());
    } finally {
      await env.close();
    }
  });
});

/**
 * The standalone mock on a developer's machine, attacked the way a web page they visit would:
 * real HTTP requests carrying the headers a browser sends, then the same from a real Chromium
 * page on another origin.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../test/chromium.js';
import { startMockServer, type MockServer, type MockServerOptions } from '../src/server.js';
import { createKey, registerMerchant } from './helpers/merchant.js';
import type { MockEnv } from './helpers/env.js';

const SHOP = 'http://shop.localhost:3000';
const EVIL = 'https://evil.example';

async function startMock(options: MockServerOptions = {}) {
  const server = await startMockServer({ port: 0, clock: 'manual', ...options });
  const env: MockEnv = { mode: 'standalone', origin: server.url, backend: server.backend, close: server.close };
  return { server, env };
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
const post = (url: string, headers: Record<string, string> = {}) => fetch(url, { method: 'POST', headers });
const preflight = (url: string, origin: string, method: string, requestHeaders: string) =>
  fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': requestHeaders } });

describe('CORS of the standalone mock', () => {
  let mock: MockServer;
  let env: MockEnv;
  beforeAll(async () => {
    ({ server: mock, env } = await startMock({ corsOrigins: ['http://localhost:5173/'] }));
    const merchant = await registerMerchant(env);
    await createKey(env, merchant, { key_type: 'public', domains: [SHOP] });
  });
  afterAll(() => mock.close());

  it('answers no CORS to an origin no key allows, on a request or a preflight', async () => {
    const res = await post(`${mock.url}/api/v1/merchant/login`, { origin: EVIL, 'content-type': 'application/json' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const pre = await preflight(`${mock.url}/api/v1/merchant/profile`, EVIL, 'GET', 'authorization');
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('answers the allowed_domains of an active public key and the corsOrigins option, without credentials', async () => {
    for (const origin of [SHOP, 'http://localhost:5173', mock.url]) {
      const res = await get(`${mock.url}/api/v1/widget/config`, { origin });
      expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
      expect(res.headers.get('vary')).toMatch(/Origin/);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const pre = await preflight(`${mock.url}/api/v1/widget/session`, SHOP, 'POST', 'x-api-key, content-type');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(SHOP);
    // A fixed list, not whatever the page asks for.
    expect(pre.headers.get('access-control-allow-headers')).not.toContain('x-evil');
    expect(pre.headers.get('access-control-allow-headers')).toContain('x-api-key');
  });

  it('stops answering an origin once the key that allowed it is revoked', async () => {
    const merchant = await registerMerchant(env);
    const key = await createKey(env, merchant, { key_type: 'public', domains: ['http://revoked.localhost:8080'] });
    expect((await get(`${mock.url}/api/v1/widget/config`, { origin: 'http://revoked.localhost:8080' })).headers.get('access-control-allow-origin')).toBe(
      'http://revoked.localhost:8080',
    );
    const revoked = await fetch(`${mock.url}/api/v1/merchant/apikeys/${key.id}`, { method: 'DELETE', headers: merchant.auth });
    expect(revoked.status).toBeLessThan(300);
    expect((await get(`${mock.url}/api/v1/widget/config`, { origin: 'http://revoked.localhost:8080' })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers any origin on stellar.toml and the anchor, as SEP-1, 10 and 24 ask, without credentials', async () => {
    for (const path of ['/.well-known/stellar.toml', '/anchor/info', '/anchor/auth?account=x']) {
      const res = await get(`${mock.url}${path}`, { origin: EVIL });
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});

describe('/_mock against cross-origin browser requests', () => {
  let mock: MockServer;
  let env: MockEnv;
  let merchantId: string;
  beforeAll(async () => {
    ({ server: mock, env } = await startMock({ controlOrigins: ['http://tools.localhost:4000'] }));
    merchantId = (await registerMerchant(env)).id;
  });
  afterAll(() => mock.close());

  it('refuses a reset, a KYB approval and an OTP read from another origin with 403, changing nothing', async () => {
    for (const [method, path] of [
      ['POST', '/_mock/reset'],
      ['POST', `/_mock/merchants/${merchantId}/kyb/approve`],
      ['GET', '/_mock/otp?phone=%2B233241234567'],
    ] as const) {
      for (const origin of [EVIL, 'null', 'http://127.0.0.1:1']) {
        const res = await fetch(`${mock.url}${path}`, { method, headers: { origin, 'content-type': 'text/plain' } });
        expect(res.status, `${method} ${path} from ${origin}`).toBe(403);
        expect(((await res.json()) as any).error.code).toBe('FORBIDDEN');
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
      }
    }
    expect(env.backend.store.merchants.get(merchantId)?.kyb.status).toBe('not_submitted');
  });

  it('refuses a no-cors GET that carries no Origin but says it is cross-site', async () => {
    for (const site of ['cross-site', 'same-site']) {
      expect((await get(`${mock.url}/_mock/clock`, { 'sec-fetch-site': site })).status, site).toBe(403);
    }
    expect((await get(`${mock.url}/_mock/clock`, { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await get(`${mock.url}/_mock/clock`, { 'sec-fetch-site': 'none' })).status).toBe(200);
  });

  it('answers a same-origin page, a non-browser caller, and an origin named in controlOrigins', async () => {
    expect((await get(`${mock.url}/_mock/clock`)).status).toBe(200);
    expect((await get(`${mock.url}/_mock/clock`, { origin: mock.url })).status).toBe(200);
    const named = await get(`${mock.url}/_mock/clock`, { origin: 'http://tools.localhost:4000' });
    expect(named.status).toBe(200);
    expect(named.headers.get('access-control-allow-origin')).toBe('http://tools.localhost:4000');
    // A shop's allowed origin reaches the service, not the control surface.
    expect((await get(`${mock.url}/_mock/clock`, { origin: SHOP })).status).toBe(403);
    expect(env.backend.store.merchants.has(merchantId)).toBe(true);
  });
});

describe('/_mock closed with a control token', () => {
  const token = 'dev-control-token-0123456789';
  let mock: MockServer;
  beforeAll(async () => {
    ({ server: mock } = await startMock({ controlToken: token }));
  });
  afterAll(() => mock.close());

  it('refuses a missing or wrong token with 401, and takes it as a bearer or in X-Mock-Control-Token', async () => {
    expect((await post(`${mock.url}/_mock/reset`)).status).toBe(401);
    expect((await post(`${mock.url}/_mock/reset`, { authorization: `Bearer ${token}x` })).status).toBe(401);
    expect((await post(`${mock.url}/_mock/reset`, { 'x-mock-control-token': token.slice(0, -1) })).status).toBe(401);
    expect((await post(`${mock.url}/_mock/reset`, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await post(`${mock.url}/_mock/reset`, { 'x-mock-control-token': token })).status).toBe(200);
    // The service itself needs no control token.
    expect((await get(`${mock.url}/.well-known/stellar.toml`)).status).toBe(200);
  });

  it('refuses a token too short to be one', async () => {
    await expect(startMockServer({ port: 0, controlToken: 'short' })).rejects.toThrow(/at least 16/);
  });
});

describe('a hostile page in Chromium', () => {
  let mock: MockServer;
  let env: MockEnv;
  let browser: Browser;
  let site: Server;
  let siteOrigin: string;
  beforeAll(async () => {
    ({ server: mock, env } = await startMock());
    site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>cat pictures</title>'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await mock?.close();
    if (site) await new Promise((resolve) => site.close(resolve));
  });

  it('can neither reset the mock nor read its clock, its OTPs or a merchant login', { timeout: 30_000 }, async () => {
    const merchant = await registerMerchant(env);
    const page = await browser.newPage();
    await page.goto(`${siteOrigin}/`);
    const outcome = await page.evaluate(
      async ({ mockUrl, email, password }) => {
        const tryRead = async (input: string, init?: RequestInit) => {
          try {
            return await (await fetch(input, init)).text();
          } catch {
            return 'blocked';
          }
        };
        // A simple request needs no preflight: it reaches the server unless the server refuses it.
        await fetch(`${mockUrl}/_mock/reset`, { method: 'POST', mode: 'no-cors' });
        await fetch(`${mockUrl}/_mock/reset`, { method: 'POST', mode: 'no-cors', body: 'x', headers: { 'content-type': 'text/plain' } });
        const img = new Image();
        img.src = `${mockUrl}/_mock/otp?phone=%2B233241234567`;
        await new Promise((resolve) => ((img.onload = img.onerror = resolve), undefined));
        return {
          clock: await tryRead(`${mockUrl}/_mock/clock`),
          login: await tryRead(`${mockUrl}/api/v1/merchant/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password }),
          }),
        };
      },
      { mockUrl: mock.url, email: merchant.email, password: merchant.password },
    );
    expect(outcome).toEqual({ clock: 'blocked', login: 'blocked' });
    // The resets were refused: the merchant is still there.
    expect(env.backend.store.merchants.has(merchant.id)).toBe(true);
    await page.close();
  });
});

/**
 * The standalone server hands msw only the handlers that could match a request. These check
 * that it never leaves out one msw would match, whatever the path looks like, and that the
 * server still answers as the whole list would.
 */
import { request } from 'node:http';
import fc from 'fast-check';
import { http, HttpResponse, type RequestHandler } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../src/backend.js';
import { indexHandlers } from '../src/http/routing.js';
import { startMockServer, type MockServer } from '../src/server.js';

const ORIGIN = 'http://127.0.0.1:4010';
const backend = createMockBackend({ origin: ORIGIN, clock: 'manual' });
const handlers: RequestHandler[] = backend.handlers;
const index = indexHandlers(handlers, ORIGIN);
const patterns = backend.handlers.map((h) => h.info.path).filter((p): p is string => typeof p === 'string');

const segment = fc.oneof(
  fc.constantFrom('api', 'v1', 'developer', 'payments', 'anchor', '_mock', 'interactive', 'gateway', 'checkout', 'widget', '', 'x'),
  fc.stringMatching(/^[A-Za-z0-9_.~-]{1,8}$/),
);

/** A handler's own path with its params filled in, then bent: case, escapes, slashes, cut or extended. */
const path = fc.oneof(
  fc
    .record({
      pattern: fc.constantFrom(...patterns),
      fill: segment,
      bend: fc.constantFrom('none', 'trailing-slash', 'double-slash', 'escape', 'upper', 'cut', 'extend', 'query'),
      at: fc.nat(),
      extra: segment,
    })
    .map(({ pattern, fill, bend, at, extra }) => {
      let p = pattern.slice(ORIGIN.length).replace(/:[A-Za-z]\w*/g, fill || 'x').replace(/\*$/, extra);
      const cut = p.split('/');
      const i = 1 + (at % Math.max(cut.length - 1, 1));
      if (bend === 'trailing-slash') p += '/';
      if (bend === 'double-slash') p = p.replace('/', '//');
      if (bend === 'upper') p = p.toUpperCase();
      if (bend === 'cut') p = cut.slice(0, i).join('/') || '/';
      if (bend === 'extend') p += `/${extra}`;
      if (bend === 'query') p += `?q=${extra}`;
      if (bend === 'escape' && cut[i]) p = [...cut.slice(0, i), cut[i].replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`), ...cut.slice(i + 1)].join('/');
      return p;
    }),
  fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
);

describe('which handlers the standalone server hands msw', () => {
  it('includes every handler msw matches, in the order of the whole list', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
        path,
        fc.constantFrom(ORIGIN, 'http://localhost:4010', 'http://127.0.0.1:4011'),
        async (method, p, origin) => {
          const url = new URL(`${origin}${p}`);
          const request = new Request(url, { method });
          const candidates = index.candidates(method, url);
          let from = 0;
          for (const h of candidates) {
            from = handlers.indexOf(h, from) + 1;
            expect(from).toBeGreaterThan(0);
          }
          for (const h of handlers) {
            if (await h.test({ request })) expect(candidates, `${method} ${url.href} matches ${h.info.header}`).toContain(h);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('hands over a few handlers for a known route, not the whole list', () => {
    const lookup = index.candidates('GET', new URL(`${ORIGIN}/api/v1/developer/payments/cs_1`));
    expect(lookup.map((h) => h.info.header)).toEqual([
      `GET ${ORIGIN}/api/v1/developer/payments/`,
      `GET ${ORIGIN}/api/v1/developer/payments/:sessionRef`,
      `/.+/ ${ORIGIN}/*`,
    ]);
  });
});

describe('the standalone server answers as the whole handler list would', () => {
  let server: MockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('matches a percent-escaped path, an empty reference and an unknown route as msw does', async () => {
    server = await startMockServer({ port: 0, clock: 'manual' });
    const escaped = await fetch(`${server.url}/api/v1/developer/%70ayments/cs_unknown`);
    expect(escaped.status).toBe(404);
    expect(await escaped.json()).toMatchObject({ error: expect.stringContaining('failed to fetch payment session') });
    const empty = await fetch(`${server.url}/api/v1/developer/payments/`);
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ error: 'session reference is required', message: 'session reference is required' });
    const unknown = await fetch(`${server.url}/api/v1/developer/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('reads a target starting with // as a path on this server, not as another host', async () => {
    server = await startMockServer({ port: 0, clock: 'manual' });
    const { port } = new URL(server.url);
    const raw = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject).end();
      });
    for (const path of ['//', '//evil.example/api/v1/widget/config', '///api/v1/widget/config']) {
      const answer = await raw(path);
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body), path).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it('serves a handler added to backend.handlers after it started, ahead of the built-in ones', async () => {
    server = await startMockServer({ port: 0, clock: 'manual' });
    expect((await fetch(`${server.url}/api/v1/widget/config`)).status).toBe(401);
    server.backend.handlers.unshift(http.get(`${server.url}/api/v1/widget/config`, () => HttpResponse.json({ overridden: true })));
    const res = await fetch(`${server.url}/api/v1/widget/config`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ overridden: true });
  });

  it('keeps msw semantics for handlers of its own: a once handler answers once, a passthrough lets the next one answer', async () => {
    server = await startMockServer({ port: 0, clock: 'manual' });
    const seen: string[] = [];
    server.backend.handlers.unshift(
      http.post(`${server.url}/api/v1/merchant/login`, () => HttpResponse.json({ first: true }), { once: true }),
      http.post(`${server.url}/api/v1/merchant/login`, async ({ request }) => {
        seen.push(await request.clone().text());
        return undefined;
      }),
    );
    const login = () => fetch(`${server!.url}/api/v1/merchant/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"a@b.co","password":"wrong password"}' });
    expect(await (await login()).json()).toEqual({ first: true });
    const second = await login();
    expect(second.status).toBe(401);
    expect(await second.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect(seen).toEqual(['{"email":"a@b.co","password":"wrong password"}']);
  });
});

/**
 * The standalone server: the backend's msw handlers behind `node:http`, every surface on one
 * port (msw 3 has no server of its own), tried as msw's `getResponse` would (see dispatch).
 * Adds CORS for the origins a merchant allowed, guards `/_mock` against the web pages a
 * developer visits, and passes the socket's address to IP allowlists.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpHandler, matchRequestUrl, type RequestHandler } from 'msw';
import { createMockBackend, type MockBackend } from './backend.js';
import { timingSafeEqual } from './crypto.js';
import { HttpError, notFound } from './http/errors.js';
import { NodeHeaders, NodeRequest } from './http/node-request.js';
import { asciiBody, DirectAnswer, errorResponse, routedResolvers } from './http/respond.js';
import { indexHandlers, type HandlerIndex } from './http/routing.js';
import type { MockBackendOptions } from './options.js';

/** Largest request body the server accepts, bytes. */
const MAX_REQUEST_BYTES = 2 * 1024 * 1024;

/** Request headers a browser may send cross-origin: those the widget, the SDK and the SEPs use. */
const ALLOWED_HEADERS = [
  'accept',
  'accept-language',
  'authorization',
  'content-type',
  'idempotency-key',
  'x-api-key',
  'x-idempotency-key',
  'x-mock-control-token',
  'x-request-id',
  'x-session-id',
  'x-session-token',
].join(', ');

/** The extra headers of a request without `Origin`: none (shared, never written to). */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Query parameters whose values `--log` never prints. */
const SECRET_PARAM = /token|secret|key|password|jwt|signature/i;

export interface MockServerOptions extends Omit<MockBackendOptions, 'origin'> {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Address to bind. Default `127.0.0.1`. */
  host?: string;
  /**
   * Browser origins answered with CORS besides the mock's own and the `allowed_domains` of
   * its active public keys, e.g. `http://localhost:3000`.
   */
  corsOrigins?: string[];
  /** Browser origins allowed to call `/_mock` (default none: only same-origin and non-browser callers). */
  controlOrigins?: string[];
  /** When set, `/_mock` answers only `Authorization: Bearer <token>` or `X-Mock-Control-Token: <token>`. */
  controlToken?: string;
}

export interface MockServer {
  /** `http://host:port`: widget backend, dashboard, ramp and checkout APIs live here. */
  url: string;
  backend: MockBackend;
  close(): Promise<void>;
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 4010, host = '127.0.0.1', corsOrigins = [], controlOrigins = [], controlToken, ...backendOptions } = options;
  if (controlToken !== undefined && controlToken.length < 16) throw new TypeError('controlToken must be at least 16 characters');
  const guard: Guard = { corsOrigins: new Set(corsOrigins.map(originOf)), controlOrigins: new Set(controlOrigins.map(originOf)), controlToken };
  let backend: MockBackend | undefined;
  const server = createServer((req, res) => {
    if (!backend) return void res.writeHead(503).end();
    const ready = backend;
    handle(ready, guard, req, res).catch(async (error: unknown) => {
      // A client that hung up mid-request is gone: nothing to answer, nothing to report.
      if ((error as NodeJS.ErrnoException).code === 'ECONNRESET') return void res.destroy();
      console.error('[sikaramp-mock] request failed:', error);
      if (res.headersSent) return void res.end();
      await send(res, errorResponse(ready.context, 'envelope', new HttpError(500, 'INTERNAL_ERROR', 'internal error')), {});
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // As URL parsing writes it: port 80 drops out, as it does from every request URL.
  const url = new URL(`http://${hostPart}:${address.port}`).origin;
  backend = createMockBackend({ ...backendOptions, origin: url });
  const ready = backend;
  return {
    url,
    backend: ready,
    close: () =>
      new Promise<void>((resolve, reject) => {
        ready.clock.stop();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

interface Guard {
  corsOrigins: Set<string>;
  controlOrigins: Set<string>;
  controlToken: string | undefined;
}

/** `scheme://host[:port]` of an origin given as an option; a bad one fails at start. */
function originOf(text: string): string {
  try {
    return new URL(text).origin;
  } catch {
    throw new TypeError(`not an origin: ${text}`);
  }
}

/**
 * Which origin a browser request may be answered to, if any. SEP-1, 10, 12 and 24 ask anchors
 * to answer every origin (wallets run in any page; they send bearer tokens, never cookies);
 * `/_mock` answers only the control origins; every other surface the mock's own origin, the
 * option's, and the `allowed_domains` of active public keys. Nothing carries credentials.
 */
function corsOrigin(backend: MockBackend, guard: Guard, site: Prepared, path: string, origin: string): string | undefined {
  const { urls } = backend;
  const { anchorPath } = site;
  if (path === '/.well-known/stellar.toml' || path === anchorPath || path.startsWith(`${anchorPath}/`)) return '*';
  if (isControl(site, path)) return guard.controlOrigins.has(origin) ? origin : undefined;
  if (origin === urls.origin || guard.corsOrigins.has(origin)) return origin;
  for (const key of backend.store.apiKeys.values()) {
    if (key.key_type === 'public' && key.is_active && key.allowed_domains.includes(origin)) return origin;
  }
  return undefined;
}

const isControl = (site: Prepared, path: string) => {
  const control = site.controlPath;
  return path === control || path.startsWith(`${control}/`);
};

/**
 * `/_mock` resets the world, reads OTPs and approves KYB, so a web page the developer happens
 * to visit must not reach it: a browser request from another origin (its `Origin`, or
 * `Sec-Fetch-Site` when a no-cors GET sends none) is refused unless its origin was named, and
 * with a control token every caller must show it. Undefined when the request may go on.
 */
function refuseControl(backend: MockBackend, guard: Guard, req: IncomingMessage): HttpError | undefined {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  const crossOrigin = origin !== undefined ? origin !== backend.urls.origin : site === 'cross-site' || site === 'same-site';
  if (crossOrigin && !(origin !== undefined && guard.controlOrigins.has(origin))) {
    return new HttpError(403, 'FORBIDDEN', 'the control API refuses requests from other origins (see the controlOrigins option)');
  }
  if (guard.controlToken === undefined) return undefined;
  const auth = req.headers.authorization;
  const given = auth?.startsWith('Bearer ') ? auth.slice(7) : req.headers['x-mock-control-token'];
  if (typeof given !== 'string' || !timingSafeEqual(given, guard.controlToken)) {
    return new HttpError(401, 'UNAUTHORIZED', 'the control API needs the control token');
  }
  return undefined;
}

/** The request URL as `--log` prints it: tokens and keys in the query masked. */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq >= 0 && SECRET_PARAM.test(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=***` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

async function handle(backend: MockBackend, guard: Guard, req: IncomingMessage, res: ServerResponse) {
  const site = prepared(backend);
  // An origin-form target is a path on this server, even `//host/...`, which `new URL(target, base)`
  // would read as another host (and `//` alone as no URL at all).
  const target = req.url ?? '/';
  const url = URL.parse(target.startsWith('/') ? backend.urls.origin + target : target);
  if (!url) return send(res, errorResponse(backend.context, 'envelope', new HttpError(400, 'VALIDATION_ERROR', 'malformed request target')), {});
  const path = url.pathname;
  const origin = req.headers.origin;
  const allowed = origin === undefined ? undefined : corsOrigin(backend, guard, site, path, origin);
  const cors: Record<string, string> = allowed
    ? {
        'access-control-allow-origin': allowed,
        'access-control-expose-headers': 'retry-after, x-request-id',
        ...(allowed === '*' ? {} : { vary: 'Origin' }),
      }
    : origin === undefined
      ? NO_HEADERS
      : { vary: 'Origin' };
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
    res.writeHead(204, {
      ...cors,
      ...(allowed
        ? {
            'access-control-allow-methods': 'GET, POST, PUT, DELETE, PATCH, OPTIONS',
            'access-control-allow-headers': ALLOWED_HEADERS,
            'access-control-max-age': '600',
          }
        : {}),
    });
    return void res.end();
  }
  if (isControl(site, path)) {
    const refused = refuseControl(backend, guard, req);
    if (refused) return send(res, errorResponse(backend.context, 'envelope', refused), cors);
  }

  const body = await readBody(req);
  if (body === 'too large') {
    const tooLarge = new HttpError(413, 'VALIDATION_ERROR', 'request body is too large');
    return send(res, errorResponse(backend.context, 'envelope', tooLarge), cors);
  }
  const clientIp = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  const request = new NodeRequest(req.method ?? 'GET', url.href, new NodeHeaders(req.headers, clientIp), body);
  // A method fetch forbids (CONNECT, TRACE, TRACK) fails here as building the Request always did: a 500.
  if (FORBIDDEN_METHODS.has(request.method.toUpperCase())) request.toRequest();

  // Every path under the origin has a handler (a catch-all 404 comes last), so this always answers.
  const response =
    (await dispatch(site.index.candidates(request.method, url), request, url)) ??
    errorResponse(backend.context, 'envelope', notFound(`route ${req.method} ${path}`));
  if (backend.context.options.log) console.log(`[sikaramp-mock] ${req.method} ${maskUrl(req.url ?? '/')} -> ${response.status}`);
  return send(res, response, cors);
}

let requestSequence = 0;

const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * msw's `getResponse` over the candidates, first response wins, except that a handler whose
 * resolver `route()` made is matched here as msw's `parse` and `predicate` would (method,
 * then `matchRequestUrl`) and called with the NodeRequest: msw would want a WHATWG Request,
 * parse its cookies, and in `run` clone it and arm and abort an AbortController (a
 * DOMException) on every request, for `finalize` cleanups those resolvers never schedule.
 * Every other handler gets a Request and goes through msw's `run`.
 */
async function dispatch(handlers: RequestHandler[], request: NodeRequest, url: URL): Promise<Response | DirectAnswer | undefined> {
  const requestId = `req-${++requestSequence}`;
  let whatwg: Request | undefined;
  for (const handler of handlers) {
    // msw declares these two private; they are plain fields of every handler (were one
    // renamed, no resolver would be found routed and every handler would go through run).
    const { resolver, options } = handler as unknown as { resolver: (info: object) => Promise<Response | DirectAnswer | undefined>; options?: { once?: boolean } };
    const { method, path } = handler.info as { method?: string | RegExp; path?: unknown };
    if (!(handler instanceof HttpHandler) || !routedResolvers.has(resolver) || options?.once || (typeof path !== 'string' && !(path instanceof RegExp))) {
      const result = await handler.run({ request: (whatwg ??= request.toRequest()), requestId });
      if (result?.response) return result.response;
      continue;
    }
    const methodMatches = method instanceof RegExp ? method.test(request.method) : method === request.method || method?.toUpperCase() === request.method.toUpperCase();
    if (!methodMatches) continue;
    const match = matchRequestUrl(url, path);
    if (!match.matches) continue;
    handler.isUsed = true;
    // Those resolvers read `request` and `params` only: no cookies are parsed for them.
    const response = await resolver({ request, requestId, params: match.params ?? {}, cookies: {} });
    if (response) return response;
  }
  return undefined;
}

/** What the server works out once per backend instead of on every request. */
interface Prepared {
  controlPath: string;
  anchorPath: string;
  /** The handler list as indexed, to notice a caller changing `backend.handlers`. */
  handlers: HttpHandler[];
  copy: HttpHandler[];
  index: HandlerIndex;
}

const preparedBackends = new WeakMap<MockBackend, Prepared>();

function prepared(backend: MockBackend): Prepared {
  const { handlers, urls } = backend;
  let done = preparedBackends.get(backend);
  if (!done || done.handlers !== handlers || !sameItems(done.copy, handlers)) {
    const copy = [...handlers];
    done = {
      controlPath: new URL(urls.control).pathname,
      anchorPath: new URL(urls.anchor).pathname,
      handlers,
      copy,
      index: indexHandlers(copy, urls.origin),
    };
    preparedBackends.set(backend, done);
  }
  return done;
}

/** Whether two lists hold the same items in the same order (a loop: this runs on every request). */
function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Writes a fetch Response or a DirectAnswer to a node:http response, with extra headers (CORS). */
async function send(res: ServerResponse, response: Response | DirectAnswer, extra: Record<string, string>) {
  if (response instanceof DirectAnswer) {
    res.writeHead(response.status, { ...extra, ...response.headers });
    return void res.end(response.text, response.ascii ? 'latin1' : 'utf8');
  }
  const out: Record<string, string | string[]> = { ...extra };
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  res.writeHead(response.status, out);
  // As a latin1 string (byte for byte), which node:http sends in one write with the head. An
  // ASCII JSON body made by json() is that string already: its stream need not be read.
  const text = asciiBody(response) ?? Buffer.from(await response.arrayBuffer()).toString('latin1');
  res.end(text, 'latin1');
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined | 'too large'> {
  if (req.method === 'GET' || req.method === 'HEAD') return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    // One chunk (most bodies) is the body as it is, not a copy of it.
    req.on('end', () => resolve(size > MAX_REQUEST_BYTES ? 'too large' : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

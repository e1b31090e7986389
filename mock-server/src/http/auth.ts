/**
 * Credentials of the dashboard (merchant JWT) and of the widget/ramp surfaces (API keys),
 * plus the per-key rate limit. Keys are looked up by their SHA-256 (an index of the store):
 * the mock, like the service, never stores a key's text.
 */
import type { MockContext } from '../context.js';
import { sha256Hex, signJwt, timingSafeEqual, verifyJwt } from '../crypto.js';
import { findBy, keyHash } from '../state/indexed-map.js';
import type { ApiKeyRecord, MerchantRecord, SessionRecord } from '../store.js';
import { forbidden, HttpError, unauthorized } from './errors.js';

/** Merchant access tokens live 24 hours of clock time (000 section 5). */
export const ACCESS_TOKEN_TTL_SECONDS = 24 * 60 * 60;

/** Header the standalone server sets from the socket (and strips from callers). */
export const CLIENT_IP_HEADER = 'x-sikaramp-client-ip';

export const KEY_PREFIX = { public: 'sika_public_', secret: 'sika_secret_' } as const;

export const hashKey = (key: string) => sha256Hex(key);

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearer(request: Request): string | undefined {
  const value = request.headers.get('authorization');
  const match = value?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/** A dashboard JWT for the merchant, valid ACCESS_TOKEN_TTL_SECONDS; `expiresAt` in ms since the epoch. */
export async function issueAccessToken(ctx: MockContext, merchant: MerchantRecord) {
  const iat = Math.floor(ctx.clock.now() / 1000);
  const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
  const token = await signJwt({ sub: merchant.id, aud: 'dashboard', iat, exp }, ctx.jwtSecret);
  return { token, expiresAt: exp * 1000 };
}

/** The merchant behind `Authorization: Bearer <access token>`, or 401. */
export async function requireMerchant(ctx: MockContext, request: Request): Promise<MerchantRecord> {
  const token = bearer(request);
  if (!token) throw unauthorized('missing access token');
  const claims = await verifyJwt(token, ctx.jwtSecret, ctx.clock.now());
  if (!claims || claims.aud !== 'dashboard') throw unauthorized('invalid or expired access token');
  const merchant = ctx.store.merchants.get(String(claims.sub));
  if (!merchant) throw unauthorized('invalid or expired access token');
  return merchant;
}

/** The caller's IP address: the standalone server's socket address, or `clientIp` in-process; as canonicalIp writes it. */
export function clientIp(ctx: MockContext, request: Request): string {
  return canonicalIp(request.headers.get(CLIENT_IP_HEADER) ?? ctx.options.clientIp);
}

/**
 * One spelling per address, so that `allowed_ips` compares as addresses, not text: IPv6 as the
 * URL standard writes it (lower case, zeros compressed), an IPv4-mapped IPv6 address (what Node
 * reports for an IPv4 client of a dual-stack socket) as its IPv4 address; IPv4 as it is.
 */
export function canonicalIp(address: string): string {
  if (!address.includes(':')) return address;
  const host = URL.parse(`http://[${address}]`)?.hostname.slice(1, -1);
  if (host === undefined) return address;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return host;
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * Under msw's `setupWorker` the handlers run in the page that sent the request, and msw gives
 * them the request without the `Origin` and `Referer` the browser adds on the wire: the caller
 * is that page. Elsewhere (Node) there is no document and so no such origin.
 */
const workerPageOrigin = (): string | undefined => (typeof document === 'undefined' ? undefined : globalThis.location?.origin);

/**
 * The calling page's origin: `Origin`, else the origin of `Referer`, else (setupWorker) the page's.
 * `Origin: null` is a browser refusing to name the page (sandboxed, `file:`, `data:`): no origin,
 * whatever its `Referer` says, since a sandboxed page of an allowed site is by design not that site.
 */
export function requestOrigin(request: Request): string | undefined {
  const origin = request.headers.get('origin');
  if (origin === 'null') return undefined;
  if (origin) return origin;
  const referer = request.headers.get('referer');
  if (!referer) return workerPageOrigin();
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

export interface KeyAuth {
  key: ApiKeyRecord;
  merchant: MerchantRecord;
}

/** Finds an active key by its text; undefined for unknown or revoked keys. */
export async function findKey(ctx: MockContext, text: string): Promise<KeyAuth | undefined> {
  const key = findBy(ctx.store.apiKeys, keyHash, await hashKey(text));
  if (!key?.is_active) return undefined;
  const merchant = ctx.store.merchants.get(key.merchant_id);
  return merchant ? { key, merchant } : undefined;
}

export interface RequireKeyOptions {
  /**
   * Which key the endpoint takes; `any` for endpoints both the frontend and the merchant
   * backend call (widget config). A public key where a secret one is needed gets 403 FORBIDDEN.
   */
  type: 'public' | 'secret' | 'any';
  /** Where the key travels: `X-API-Key` (widget backend) or `Authorization: Bearer` (ramp API). */
  from: 'x-api-key' | 'bearer';
  /**
   * Whether the key's `rate_limit_rpm` applies. It limits widget requests (000 section 8);
   * the ramp API has its own limit per merchant instead (001 section 8). Default true.
   */
  perKeyLimit?: boolean;
}

/**
 * Authenticates an API key: unknown or revoked 401 UNAUTHORIZED; wrong type 403 FORBIDDEN;
 * a secret key in `X-API-Key` from a browser 403 FORBIDDEN; a public key from an origin
 * outside `allowed_domains` 403 FORBIDDEN; a key from an address outside `allowed_ips` 403
 * FORBIDDEN; above `rate_limit_rpm` 429 RATE_LIMITED (unless `perKeyLimit` is false).
 */
export async function requireKey(ctx: MockContext, request: Request, opts: RequireKeyOptions): Promise<KeyAuth> {
  const text = opts.from === 'bearer' ? bearer(request) : request.headers.get('x-api-key')?.trim();
  if (!text) throw unauthorized(opts.from === 'bearer' ? 'missing Authorization: Bearer <secret key>' : 'missing X-API-Key header');
  const auth = await findKey(ctx, text);
  if (!auth) throw unauthorized('invalid or revoked API key');
  const { key } = auth;
  if (opts.type !== 'any' && key.key_type !== opts.type) {
    throw forbidden(opts.type === 'secret' ? 'this endpoint needs a secret key' : 'this endpoint needs a public key');
  }
  // 000 section 5: a secret key is server-side only. A browser sends `Origin` with every
  // cross-origin request (which a call to the service from a page is); servers' HTTP clients
  // do not (Node's fetch sends `Sec-Fetch-Mode`, so that one tells nothing).
  if (key.key_type === 'secret' && opts.from === 'x-api-key' && request.headers.has('origin')) {
    throw forbidden('a secret key must stay on your server, and this request came from a browser; use the public key in pages');
  }
  if (key.key_type === 'public' && key.allowed_domains.length > 0) {
    const origin = requestOrigin(request);
    if (!origin || !key.allowed_domains.includes(origin)) throw forbidden('origin not in the allowed domains of this key');
  }
  if (key.allowed_ips.length > 0 && !key.allowed_ips.includes(clientIp(ctx, request))) {
    throw forbidden('caller address not in the allowed IPs of this key');
  }
  if (opts.perKeyLimit !== false) rateLimit(ctx, `key:${key.id}`, key.rate_limit_rpm, 60_000);
  return auth;
}

/** Expired times a rate window skips before its array is compacted (see RateWindow). */
const RATE_WINDOW_SLACK = 64;

/**
 * Sliding-window rate limit in clock time: the request that would be number `limit + 1`
 * within `windowMs` gets 429 RATE_LIMITED with `Retry-After` (seconds until a slot frees).
 * The clock only moves forward, so a window's times are in order and the expired ones are
 * the oldest: a request skips those and appends its own, without copying the window.
 */
export function rateLimit(ctx: MockContext, bucket: string, limit: number, windowMs: number): void {
  const now = ctx.clock.now();
  const windows = ctx.store.rateWindows;
  let window = windows.get(bucket);
  if (!window) windows.set(bucket, (window = { times: [], head: 0 }));
  const { times } = window;
  let head = window.head;
  while (head < times.length && times[head]! <= now - windowMs) head++;
  if (head >= RATE_WINDOW_SLACK && head * 2 >= times.length) {
    times.splice(0, head);
    head = 0;
  }
  window.head = head;
  if (times.length - head >= limit) {
    const retryAfter = Math.max(1, Math.ceil((times[head]! + windowMs - now) / 1000));
    throw new HttpError(429, 'RATE_LIMITED', 'too many requests', { 'Retry-After': String(retryAfter) });
  }
  times.push(now);
}

/** 403 FORBIDDEN unless the key carries `permission` (`onramp` for buying, `offramp` for selling). */
export function requirePermission(key: ApiKeyRecord, permission: 'onramp' | 'offramp'): void {
  if (!key.permissions.includes(permission)) throw forbidden(`this key lacks the ${permission} permission`);
}

/** Widget sessions live 30 minutes of clock time (000 section 8). */
export const SESSION_TTL_SECONDS = 30 * 60;

/** Opens a widget session for one of the merchant's customers, with a fresh id and token. */
export function openSession(ctx: MockContext, merchantId: string, userId: string): SessionRecord {
  const session: SessionRecord = {
    session_id: ctx.random.uuid(),
    session_token: ctx.secrets.uuid(),
    merchant_id: merchantId,
    user_id: userId,
    expires_at: ctx.clock.now() + SESSION_TTL_SECONDS * 1000,
  };
  ctx.store.sessions.set(session.session_id, session);
  return session;
}

/**
 * The live session with this id and token: 401 UNAUTHORIZED when either is wrong, the
 * session has expired, or its customer has been deleted since. For session fields that
 * travel in a body (the anchor's `session_id`, `session_token`).
 */
export function findSession(ctx: MockContext, sessionId: string, sessionToken: string): SessionRecord {
  const session = ctx.store.sessions.get(sessionId);
  if (!session || !timingSafeEqual(session.session_token, sessionToken)) throw unauthorized('invalid session');
  return requireLiveSession(ctx, session);
}

/** The session, if it is still live: 401 UNAUTHORIZED once it has expired or its customer has been deleted. */
export function requireLiveSession(ctx: MockContext, session: SessionRecord): SessionRecord {
  if (session.expires_at <= ctx.clock.now()) throw unauthorized('session expired');
  if (!ctx.store.customers.has(session.user_id)) throw unauthorized('invalid session');
  return session;
}

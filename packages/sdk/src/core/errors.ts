/**
 * Every error the SDK throws, for every surface. This module imports nothing, so that the
 * webhooks entry can share it without pulling in ky or zod. A class whose message can hold
 * outside text (an answer, an input, a cause) redacts it in its constructor; the base class
 * and the webhooks' errors, whose messages are the SDK's own words, carry no redaction code,
 * which keeps `@sikaramp/sdk/webhooks` small.
 *
 * ```ts
 * try { await widget.customers.get(id) }
 * catch (e) { if (e instanceof NotFoundError) … else if (e instanceof RateLimitError) e.retryAfter }
 * ```
 */

/**
 * Credential forms, replaced before any message is built or any body or header kept. No
 * leading word boundary: a key glued to other text (`id=1sika_secret_…`) is masked too.
 */
const CREDENTIAL_PATTERNS: RegExp[] = [
  // API keys: `sika_public_…`, `sika_secret_…`, `sika_checkout_…`, and other prefixes of that form.
  /[a-z]{2,12}_(?:public|secret|checkout)_[A-Za-z0-9]{8,}/g,
  // Webhook signing secrets.
  /whsec_[A-Za-z0-9+/=_-]{8,}/g,
  // Stellar secret seeds: `S` and 55 base32 characters.
  /S[A-Z2-7]{55}/g,
  // JWTs: a base64url JSON header (`eyJ`), a payload and a signature (empty when unsigned).
  /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
  // Bearer credentials: RFC 6750's token characters, so that two in one text are both masked.
  /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi,
  // A password in a URL's user information (`https://user:password@host`).
  /(\/\/[^/?#\s:@]*:)[^/?#\s@]+(?=@)/g,
];

/**
 * A parameter of a URL's query or fragment; its value is masked when its name says it is secret
 * (as log.ts masks them): the interactive page's `?token=`, a `sessionToken`, an OAuth-style
 * `#access_token=` or `?code=`. The name is read by a second, anchored test: one pattern for both
 * backtracked over every long run of name characters, quadratic on a hostile answer.
 */
const URL_PARAMETER = /([?&#;][\w.-]{1,64}=)[^&#\s"'<>]+/g;
const SECRET_NAME = /token|key|secret|signature|password|jwt|seed|auth|code/i;

/** Masks anything credential-shaped in a text meant for an error message or a log line. */
export function redact(text: string): string {
  let out = text;
  for (const pattern of CREDENTIAL_PATTERNS) {
    out = out.replace(pattern, (match, kept?: unknown) => (typeof kept === 'string' ? `${kept}[redacted]` : '[redacted]'));
  }
  return out.replace(URL_PARAMETER, (match, name: string) => (SECRET_NAME.test(name) ? `${name}[redacted]` : match));
}

/** Headers whose whole value is a credential, in a request or an answer. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'cookie', 'set-cookie', 'x-session-token']);

/** A copy of headers with credential headers masked and credential-shaped values redacted. */
export function redactHeaders(headers: Headers): Headers {
  const out = new Headers();
  headers.forEach((value, name) => out.append(name, CREDENTIAL_HEADERS.has(name) ? '[redacted]' : redact(value)));
  return out;
}

/** A copy of a parsed body with every credential-shaped string redacted (keys and values). */
function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= 32) return '[truncated]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactValue(item, depth + 1)]));
}

/** Base class of every error thrown by `@sikaramp/sdk`. */
export class SikarampError extends Error {
  override name = 'SikarampError';
}

/** The service answered with a non-2xx status. One subclass per status, chosen by {@link ApiError.from}. */
export class ApiError extends SikarampError {
  override name = 'ApiError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The service's error code where the surface has one (widget backend and ramp API: `error.code`, e.g. `KYC_NOT_APPROVED`). */
  readonly code: string | undefined;
  /** `meta.request_id` of the answer, else its `X-Request-Id` header: quote it to support. */
  readonly requestId: string | undefined;
  /** The answer's body: parsed JSON, or the text when it is not JSON, with credential-shaped text redacted. */
  readonly body: unknown;
  /** The answer's headers, with credential headers and credential-shaped values redacted. */
  readonly headers: Headers;

  constructor(status: number, body: unknown, headers: Headers) {
    const { code, message } = describeBody(body);
    super(redact(`${status}${code ? ` ${code}` : ''}: ${message ?? statusText(status)}`));
    this.status = status;
    this.code = code;
    this.requestId = requestIdOf(body, headers);
    this.body = redactValue(body);
    this.headers = redactHeaders(headers);
  }

  /** Builds the subclass that matches the status. */
  static from(status: number, body: unknown, headers: Headers): ApiError {
    if (status >= 300 && status < 400) return new RedirectError(status, body, headers);
    if (status === 400) return new BadRequestError(status, body, headers);
    if (status === 401) return new AuthenticationError(status, body, headers);
    if (status === 403) return new PermissionDeniedError(status, body, headers);
    if (status === 404) return new NotFoundError(status, body, headers);
    if (status === 409) return new ConflictError(status, body, headers);
    if (status === 422) return new UnprocessableEntityError(status, body, headers);
    if (status === 429) return new RateLimitError(status, body, headers);
    if (status >= 500) return new InternalServerError(status, body, headers);
    return new ApiError(status, body, headers);
  }
}

/**
 * 3xx: the service (or something in front of it) answered with a redirect. The SDK never
 * follows one, so that the key or token of the request is never sent to wherever `Location`
 * names; a redirect usually means a wrong `baseUrl` (`http://` for `https://`, a missing path).
 */
export class RedirectError extends ApiError {
  override name = 'RedirectError';
  /** Where the answer pointed, without its query and fragment (which could hold a token); undefined when it did not say. */
  readonly location: string | undefined;
  constructor(status: number, body: unknown, headers: Headers) {
    super(status, body, headers);
    const location = withoutQuery(headers.get('location'));
    // Its path can hold a credential too (`/session/eyJ…`).
    this.location = location && redact(location);
    this.message = redact(
      `${status}: redirect not followed${this.location ? ` (to ${this.location})` : ''}: the SDK never sends credentials to another address. Check the client's baseUrl.`,
    );
  }
}

/** `scheme://host/path` of a URL, or the path of a relative one: no user name, password, query or fragment. */
function withoutQuery(location: string | null): string | undefined {
  if (!location) return undefined;
  try {
    const url = new URL(location);
    return `${url.origin}${url.pathname}`.slice(0, 500);
  } catch {
    return location.replace(/[?#].*$/s, '').slice(0, 500);
  }
}

/** 400: the request was refused as malformed (`VALIDATION_ERROR`, `MISSING_HEADER`, …). */
export class BadRequestError extends ApiError {
  override name = 'BadRequestError';
}
/** 401: the key, token or session is missing, unknown, revoked or expired (`UNAUTHORIZED`). */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
/** 403: authenticated but not allowed (`FORBIDDEN`, `KYC_NOT_APPROVED`, `RAMP_NOT_ENABLED`). */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}
/** 404: no such resource (`NOT_FOUND`). */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
/** 409: the request conflicts with the resource's state or an earlier request (`DUPLICATE_ORDER`, `INVALID_STATE`). */
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
/**
 * 422: well-formed but not acceptable (`PHONE_NOT_VERIFIED`, `QUOTE_EXPIRED`, `AMOUNT_OUT_OF_RANGE`;
 * ours: `INVALID_OTP`, `OTP_EXPIRED`, `SOURCE_WALLET_MISMATCH`). `code` says which.
 */
export class UnprocessableEntityError extends ApiError {
  override name = 'UnprocessableEntityError';
}
/** 429: too many requests (`RATE_LIMITED`). */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** What `Retry-After` asked for, seconds; undefined when the answer did not say. */
  readonly retryAfter: number | undefined;
  constructor(status: number, body: unknown, headers: Headers) {
    super(status, body, headers);
    this.retryAfter = retryAfterSeconds(headers);
  }
}
/** 5xx: the service (or a gateway behind it) failed. */
export class InternalServerError extends ApiError {
  override name = 'InternalServerError';
}

/** No answer: the connection was refused, reset or dropped. */
export class ConnectionError extends SikarampError {
  override name = 'ConnectionError';
  constructor(message = 'Connection error: the service could not be reached', options?: { cause?: unknown }) {
    super(redact(message), options);
  }
}

/** No answer within the `timeout` of one attempt. */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
  constructor(timeoutMs: number) {
    super(`Request timed out after ${timeoutMs} ms`);
  }
}

/**
 * The answer was larger than the SDK reads: a misconfigured server, or one that means harm (a
 * gzip answer of a megabyte that inflates to gigabytes, a body that never ends). The SDK stops
 * reading at the limit and hangs up. Not retried: the service may have acted on the request.
 */
export class ResponseTooLargeError extends SikarampError {
  override name = 'ResponseTooLargeError';
  /** The most the SDK reads of one answer, bytes, after decompression. */
  readonly limit: number;
  constructor(limit: number) {
    super(`The answer was larger than ${limit} bytes; the SDK stopped reading it`);
    this.limit = limit;
  }
}

/** The caller's AbortSignal fired; nothing more is sent. */
export class AbortError extends SikarampError {
  override name = 'AbortError';
  constructor(options?: { cause?: unknown }) {
    super('Request was aborted', options);
  }
}

/** One problem found in an input, as zod reports it. */
export interface ValidationIssue {
  /** Where in the input, e.g. `['user', 'phone']`. */
  path: PropertyKey[];
  message: string;
  code?: string;
}

/** The input was refused before anything was sent. */
export class ValidationError extends SikarampError {
  override name = 'ValidationError';
  /** Every problem found. */
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[], what = 'input') {
    super(redact(`Invalid ${what}: ${issues.map(formatIssue).join('; ')}`));
    this.issues = issues;
  }
}

/** The service answered 2xx with a body the SDK cannot use (not JSON, or a known field of the wrong type). */
export class ResponseValidationError extends SikarampError {
  override name = 'ResponseValidationError';
  /** Every problem found. */
  readonly issues: ValidationIssue[];
  /** The body as received, with credential-shaped text redacted. */
  readonly body: unknown;
  /** `meta.request_id` or `X-Request-Id` of the answer. */
  readonly requestId: string | undefined;
  constructor(issues: ValidationIssue[], body: unknown, headers: Headers) {
    super(redact(`Unexpected response from the service: ${issues.map(formatIssue).join('; ')}`));
    this.issues = issues;
    this.body = redactValue(body);
    this.requestId = requestIdOf(body, headers);
  }
}

/** A `waitFor…` helper gave up before the resource reached a final status. */
export class WaitTimeoutError extends SikarampError {
  override name = 'WaitTimeoutError';
  /** The last status seen. */
  readonly lastStatus: string | undefined;
  constructor(seconds: number, lastStatus: string | undefined) {
    super(redact(`Gave up waiting after ${seconds} s; the last status was ${lastStatus ?? 'unknown'}`));
    this.lastStatus = lastStatus;
  }
}

/** A secret credential was given where it could leak (a browser), or a public key where a secret one is needed. */
export class CredentialError extends SikarampError {
  override name = 'CredentialError';
}

function formatIssue(issue: ValidationIssue): string {
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads the three error bodies: the envelope `{error: {code, message}}` (widget backend,
 * dashboard, ramp), SEP's `{error: "text"}` (anchor), checkout's `{error, message}`.
 */
function describeBody(body: unknown): { code?: string; message?: string } {
  if (typeof body === 'string') return body.trim() ? { message: body.trim().slice(0, 500) } : {};
  if (!isRecord(body)) return {};
  const { error, message } = body;
  if (isRecord(error)) {
    return {
      code: typeof error.code === 'string' ? error.code : undefined,
      message: typeof error.message === 'string' ? error.message : undefined,
    };
  }
  if (typeof message === 'string') return { message };
  if (typeof error === 'string') return { message: error };
  return {};
}

export function requestIdOf(body: unknown, headers: Headers): string | undefined {
  const meta = isRecord(body) && isRecord(body.meta) ? body.meta : undefined;
  if (typeof meta?.request_id === 'string') return meta.request_id;
  return headers.get('x-request-id') ?? undefined;
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date; `retry-after-ms` first when present. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    400: 'bad request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not found',
    409: 'conflict',
    422: 'unprocessable entity',
    429: 'too many requests',
    500: 'internal server error',
    502: 'bad gateway',
    503: 'service unavailable',
    504: 'gateway timeout',
  };
  return texts[status] ?? 'request failed';
}

/**
 * The HTTP core under every client: ky for the request, then the SDK's own timeout, retry
 * loop, envelope unwrapping, error mapping and response parsing. The only module that
 * imports ky; ky's own retry stays off so that `core/retry.ts` is the one policy.
 */
import ky, { NetworkError, type KyInstance, type Options } from 'ky';
import type { z } from 'zod';
import { AbortError, ApiError, BadRequestError, ConflictError, ConnectionError, CredentialError, RedirectError, redactHeaders, requestIdOf, ResponseTooLargeError, TimeoutError, ValidationError } from './errors.js';
import { toAPIPromise, type APIPromise, type ResponseSink } from './api-promise.js';
import { createLog, loggableUrl, type Log, type Logger, type LogLevel } from './log.js';
import { DEFAULT_MAX_RETRIES, isRetryableStatus, isSafeToRetry, MAX_TIMER_MS, retryDelayMs, sleep, waitsTooLong } from './retry.js';
import { parseResponse } from './schema.js';
import { nodeTransport, readText } from './transport.js';
import { clientHeader } from './version.js';

/** Default time allowed for one attempt, including reading the answer, ms. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Options every client takes. */
export interface ClientOptions {
  /** Retries after the first attempt where retrying is safe. Default 2. */
  maxRetries?: number;
  /** Time allowed for one attempt, including reading the answer, ms. Default 60000. */
  timeout?: number;
  /**
   * A fetch of your own (instrumentation, a proxy agent, a test double). Default: on Node, node:http and
   * node:https with their global keep-alive agents (half the CPU of Node's fetch per call); elsewhere the global fetch.
   * Pass `fetch: (input, init) => fetch(input, init)` to go through Node's fetch (an undici dispatcher of your own).
   * It is given a Request whose `redirect` is `'manual'`; keep it, so that a credential never follows a redirect.
   * Pass its init on too (`fetch(input, init)`): it holds the call's signal and JSON body, which undici then need not copy.
   */
  fetch?: typeof fetch;
  /** Headers added to every request. */
  defaultHeaders?: Record<string, string>;
  /**
   * Lets a client with a secret credential be created where `window` or `document` exists, which
   * it otherwise refuses. Only for backend tests under jsdom or happy-dom: in a real page anyone can read the key.
   */
  dangerouslyAllowBrowser?: boolean;
  /** Receives the SDK's log lines, redacted. Default: `console` once a level is set. */
  logger?: Logger;
  /**
   * `debug`: each request and answer (method, URL with secret query values masked, status, duration, request id, attempt);
   * `info`: retries; `warn` / `error`: failures. Default: `SIKARAMP_LOG` where `process.env` exists, else `off`.
   */
  logLevel?: LogLevel;
  /** Called around each attempt: to add headers (tracing) and to see each answer's status, request id and duration. */
  hooks?: Hooks;
}

/** A request about to be sent, as a hook sees it. */
export interface HookRequest {
  /** `GET`, `POST`, … */
  readonly method: string;
  /** The URL, query included, secret-looking query values masked (`token=[redacted]`). */
  readonly url: string;
  /**
   * The headers that will be sent, the client's credential included (it is yours): add or change
   * any in `beforeRequest`. Changes made later are not sent.
   */
  readonly headers: Headers;
  /** 1 for the first attempt, 2 for the first retry, and so on; a repeat after a renewed credential counts too. */
  readonly attempt: number;
}

/** An answer, as a hook sees it. Its body is not given: it can hold a secret (a new API key, a webhook secret). */
export interface HookResponse {
  readonly status: number;
  /** The answer's headers, with credential headers (`Set-Cookie`, …) and credential-shaped values redacted. */
  readonly headers: Headers;
  /** `meta.request_id` of the body, else the `X-Request-Id` header: quote it to support. */
  readonly requestId: string | undefined;
  /** From sending the request to having read the whole answer, ms. */
  readonly durationMs: number;
}

/**
 * Hooks on each attempt of each call. A promise a hook returns is awaited; a hook that throws
 * fails the call with its error, unretried (and `beforeRequest`'s before anything is sent).
 */
export interface Hooks {
  /** Before each attempt is sent, retries included. */
  beforeRequest?: (request: HookRequest) => void | Promise<void>;
  /** After each answer is read, 2xx or not, before the SDK returns, retries or throws. Not called when no answer came (ConnectionError, TimeoutError, AbortError). */
  afterResponse?: (response: HookResponse, request: HookRequest) => void | Promise<void>;
}

/** Options of one call. */
export interface RequestOptions {
  /** Cancels the call, including a wait between retries; the call rejects with AbortError. */
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call, ms. */
  timeout?: number;
  /** Overrides the client's maxRetries for this call. */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /**
   * Not taken here: only calls whose service de-duplicates a repeat take one ({@link IdempotentRequestOptions}).
   * Elsewhere the service would ignore it, while the SDK, trusting it, would repeat a request that could act twice.
   */
  idempotencyKey?: undefined;
}

/** Options of a call that creates something, where an idempotency key makes a retry safe. */
export interface IdempotentRequestOptions extends Omit<RequestOptions, 'idempotencyKey'> {
  /** Identifies this piece of work; the service answers a repeat without doing it twice. Generated when the client requires one. */
  idempotencyKey?: string;
}

/** Supplies a surface's credentials. */
export interface Authenticator {
  /** Headers that authenticate a request. */
  headers(signal?: AbortSignal): Promise<Record<string, string>> | Record<string, string>;
  /** Called once after a 401 to renew the credential (a fresh login); the request is then sent again. */
  refresh?(signal?: AbortSignal): Promise<void>;
  /** Whether an answer other than 401 also says the credential expired (SEP answers 403). Default: only 401. */
  isExpired?(status: number, body: unknown): boolean;
}

export interface CoreConfig extends ClientOptions {
  /** The surface's base URL; request paths are relative to it. */
  baseUrl: string;
  auth?: Authenticator;
  /** Header that carries the idempotency key on this surface. Default `X-Idempotency-Key`. */
  idempotencyHeader?: string;
  /** Builds the error of a non-2xx answer, for a surface whose body says more than its status. Default {@link ApiError.from}. */
  errorFrom?: (status: number, body: unknown, headers: Headers) => ApiError;
}

type Query = Record<string, string | number | boolean | undefined>;

/** One call as a resource describes it. */
export interface Call<S extends z.ZodType> extends RequestOptions {
  /**
   * The idempotency key of a call whose service de-duplicates repeats: sent in the surface's
   * header, and what makes a POST safe to retry. Only such resources set it: an `idempotencyKey`
   * in a caller's options (plain JavaScript can pass one anywhere) is not read.
   */
  dedupeKey?: string;
  /** The answer's schema, applied leniently. */
  schema: S;
  query?: Query;
  /** JSON body, already validated by the resource. */
  body?: unknown;
  /** Return the envelope's `data` rather than the whole body. Default true. */
  unwrap?: boolean;
  /** Send the surface's credentials. Default true. */
  auth?: boolean;
  /** Told why an attempt is about to be repeated (a ConnectionError or an ApiError), so that a later answer can be read in that light. */
  onRetry?: (reason: unknown) => void;
  /** Where a successful answer is reported for withResponse(), for a request sent after the method's first await (see {@link HttpCore.reporter}). */
  report?: ResponseSink;
}

interface Received {
  response: Response;
  body: unknown;
}

export class HttpCore {
  readonly baseUrl: string;
  readonly #ky: KyInstance;
  readonly #config: CoreConfig;
  readonly #log: Log | undefined;
  /** Where the call now being started reports its answer (see {@link HttpCore.capture}). */
  #sink: ResponseSink | undefined;
  /** Headers every request starts with: the SDK's name and version, unless defaultHeaders name it themselves. */
  readonly #baseHeaders: Record<string, string>;

  constructor(config: CoreConfig) {
    checkBaseUrl(config.baseUrl);
    checkLimits(config);
    this.#config = config;
    this.#log = createLog(config.logger, config.logLevel);
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    const [name, value] = clientHeader();
    const given = Object.keys(config.defaultHeaders ?? {}).some((key) => key.toLowerCase() === name);
    this.#baseHeaders = { accept: 'application/json', ...(given ? {} : { [name]: value }), ...config.defaultHeaders };
    // ky's fast path: one instance, its retry, timeout and HTTP errors off (the loop below
    // owns them), no hooks of its own (the client's run in #attempt, only when given). The
    // signal, headers and body reach fetch in its init (see #attempt).
    this.#ky = ky.create({ retry: 0, timeout: false, throwHttpErrors: false, redirect: 'manual' });
  }

  get<S extends z.ZodType>(path: string, call: Call<S>): Promise<z.output<S>> {
    return this.request('GET', path, call);
  }
  post<S extends z.ZodType>(path: string, call: Call<S>): Promise<z.output<S>> {
    return this.request('POST', path, call);
  }
  put<S extends z.ZodType>(path: string, call: Call<S>): Promise<z.output<S>> {
    return this.request('PUT', path, call);
  }
  delete<S extends z.ZodType>(path: string, call: Call<S>): Promise<z.output<S>> {
    return this.request('DELETE', path, call);
  }

  /** Sends a call with the retry policy and returns its parsed answer. */
  async request<S extends z.ZodType>(method: string, path: string, call: Call<S>): Promise<z.output<S>> {
    const { response, body } = await this.send(method, path, call);
    const value = call.unwrap === false ? body : isRecord(body) ? body.data : undefined;
    return parseResponse(call.schema, value, body, response.headers);
  }

  /**
   * Runs a resource method so that its promise has `withResponse()`. The request the method
   * starts synchronously (before its first await) reports its successful answer there.
   */
  capture<T>(run: () => T): T extends Promise<infer V> ? APIPromise<V> : T;
  capture(run: () => unknown): unknown {
    let answer: { response: Response; requestId: string | undefined } | undefined;
    const outer = this.#sink;
    this.#sink = (response, requestId) => {
      answer = { response, requestId };
    };
    let result: unknown;
    try {
      result = run();
    } finally {
      this.#sink = outer;
    }
    return result instanceof Promise ? toAPIPromise(result, () => answer) : result;
  }

  /** The withResponse() sink of the method now starting: a method that repeats a request after an await passes it on as `report`. */
  reporter(): ResponseSink | undefined {
    return this.#sink;
  }

  /** Sends a call with the retry policy and returns the raw answer; non-2xx becomes ApiError. */
  async send(method: string, path: string, call: Omit<Call<z.ZodType>, 'schema'>): Promise<Received> {
    if (call.maxRetries !== undefined || call.timeout !== undefined) checkLimits(call);
    const sink = call.report ?? this.#sink;
    const maxRetries = call.maxRetries ?? this.#config.maxRetries ?? DEFAULT_MAX_RETRIES;
    const retryable = isSafeToRetry(method, call.dedupeKey);
    let refreshed = false;
    const log = this.#log;
    // Built only when something is logged: the URL as it may appear in a log line.
    const shown = log && `${method} ${loggableUrl(this.#url(path), call.query)}`;
    for (let retry = 0, attempt = 1; ; attempt++) {
      let received: Received;
      log?.debug(`request ${shown}`, { attempt });
      const started = Date.now();
      try {
        received = await this.#attempt(method, path, call, attempt);
      } catch (error) {
        if (!(error instanceof ConnectionError) || !retryable || retry >= maxRetries) {
          if (log) logFailure(log, shown!, error, attempt);
          throw error;
        }
        call.onRetry?.(error);
        const delay = retryDelayMs(retry++);
        log?.info(`retrying ${shown} in ${delay} ms after ${error.name}`, { attempt, delayMs: delay });
        await sleep(delay, call.signal);
        continue;
      }
      const { response, body } = received;
      log?.debug(`response ${response.status} ${shown}`, {
        status: response.status,
        durationMs: Date.now() - started,
        requestId: requestIdOf(body, response.headers),
        attempt,
      });
      // `opaqueredirect` is how a browser-like fetch reports a redirect it did not follow.
      if (isRedirect(response)) {
        const error = new RedirectError(response.status, body, response.headers);
        if (log) logFailure(log, shown!, error, attempt);
        throw error;
      }
      if (response.ok) {
        sink?.(response, requestIdOf(body, response.headers));
        return received;
      }
      const auth = this.#config.auth;
      const expired = response.status === 401 || auth?.isExpired?.(response.status, body) === true;
      if (expired && !refreshed && call.auth !== false && auth?.refresh) {
        // A 401 means nothing was done, so one fresh credential and a repeat is always safe.
        refreshed = true;
        log?.info(`renewing the credential and repeating ${shown} after ${response.status}`, { attempt });
        await auth.refresh(call.signal);
        continue;
      }
      const error = (this.#config.errorFrom ?? ApiError.from)(response.status, body, response.headers);
      // A conflict or a refused body is never retried unchanged, whatever status carried it (checkout embeds the
      // gateway's 409 and 400 in a 502); nor is an answer that asks for a minute's wait or more sooner.
      const unchanged = error instanceof ConflictError || error instanceof BadRequestError;
      if (!retryable || retry >= maxRetries || !isRetryableStatus(response.status) || unchanged || waitsTooLong(response.headers)) {
        if (log) logFailure(log, shown!, error, attempt);
        throw error;
      }
      call.onRetry?.(error);
      const delay = retryDelayMs(retry++, response.headers);
      log?.info(`retrying ${shown} in ${delay} ms after ${response.status}`, { attempt, delayMs: delay, status: response.status });
      await sleep(delay, call.signal);
    }
  }

  /** The URL of a path: an empty path is the base URL itself (SEP-10's endpoint is a full URL). */
  #url(path: string): string {
    return path === '' ? this.baseUrl : `${this.baseUrl}/${path.startsWith('/') ? path.replace(/^\/+/, '') : path}`;
  }

  async #attempt(method: string, path: string, call: Omit<Call<z.ZodType>, 'schema'>, attempt: number): Promise<Received> {
    const { signal } = call;
    if (signal?.aborted) throw new AbortError({ cause: signal.reason });
    const config = this.#config;
    const headers: Record<string, string> = { ...this.#baseHeaders };
    const auth = call.auth === false ? undefined : config.auth;
    if (auth) {
      // Most authenticators answer at once: awaiting only a promise spares a turn of the event loop per call.
      const given = auth.headers(signal);
      Object.assign(headers, typeof (given as Promise<unknown>).then === 'function' ? await given : given);
    }
    if (call.dedupeKey !== undefined) headers[config.idempotencyHeader ?? 'X-Idempotency-Key'] = call.dedupeKey;
    if (call.headers) Object.assign(headers, call.headers);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const url = call.query ? withQuery(this.#url(path), call.query) : this.#url(path);

    // Only a client with hooks pays for a Headers object and a masked URL.
    const hooks = config.hooks;
    let sent: HeadersInit = headers;
    let shown: HookRequest | undefined;
    if (hooks?.beforeRequest || hooks?.afterResponse) {
      try {
        sent = new Headers(headers);
      } catch (error) {
        throw unsendable(headers) ?? error;
      }
      shown = { method, url: loggableUrl(url), headers: sent, attempt };
      await hooks.beforeRequest?.(shown);
    }

    // Longer than a timer holds (Infinity: no deadline) would fire at once.
    const timeoutMs = Math.min(call.timeout ?? config.timeout ?? DEFAULT_TIMEOUT_MS, MAX_TIMER_MS);
    const own = config.fetch;
    // On Node without a fetch of the caller's own, node:http (core/transport.ts) keeps the
    // deadline and gets the caller's signal; a fetch gets one signal for both, so that the
    // deadline also covers reading the answer.
    const direct = own ? undefined : nodeTransport;
    const timer = direct ? undefined : new AbortController();
    const timeout = timer && setTimeout(abort, timeoutMs, timer);
    // redirect 'manual': fetch would follow a 3xx and send every header but Authorization to
    // whatever host `Location` names (X-API-Key included): a redirect is answered, never followed.
    const init: RequestInit = { method, headers: sent, body, signal: timer ? (signal ? AbortSignal.any([signal, timer.signal]) : timer.signal) : signal, redirect: 'manual' };
    // Where node:http answered, its text, read whole already; a fetch's is read below.
    const read: { text?: string } = {};
    // ky's fast path: it builds only a bare Request for the URL and method, and the transport
    // gets the URL and the init and copies no body stream. A fetch of the caller's own gets
    // ky's whole Request (headers, body and signal too, for one that drops the init) and the init.
    const options: Options = own
      ? { method, headers: sent, body, signal: init.signal, fetch: (request) => own(request, init) }
      : { method, fetch: direct ? () => direct(url, init, timeoutMs, read) : () => globalThis.fetch(url, init) };
    // A fetch of the caller's own may drop the signal (a wrapper that builds its own init): the
    // deadline and the caller's abort end the call all the same, waiting for the answer or reading it.
    const ended = own && endedBy(init.signal!);
    const started = shown && performance.now();
    try {
      let response: Response;
      try {
        response = await (ended ? Promise.race([this.#ky(url, options), ended]) : this.#ky(url, options));
      } catch (error) {
        throw (error instanceof TypeError && unsendable(headers)) || this.#failure(error, signal, timer?.signal, timeoutMs, error instanceof NetworkError);
      }
      let text = read.text;
      try {
        text ??= await (ended ? Promise.race([readText(response), ended]) : readText(response));
      } catch (error) {
        // The connection dropped while the answer was being read.
        throw this.#failure(error, signal, timer?.signal, timeoutMs, true);
      }
      const received = { response, body: parseBody(text) };
      if (hooks?.afterResponse) {
        const { status, headers: answered } = response;
        const requestId = requestIdOf(received.body, answered);
        await hooks.afterResponse({ status, headers: redactHeaders(answered), requestId, durationMs: performance.now() - started! }, shown!);
      }
      return received;
    } finally {
      clearTimeout(timeout);
    }
  }

  #failure(error: unknown, signal: AbortSignal | undefined, timer: AbortSignal | undefined, timeoutMs: number, network: boolean): unknown {
    if (signal?.aborted) return new AbortError({ cause: signal.reason });
    if (timer?.aborted) return new TimeoutError(timeoutMs);
    if (error instanceof ResponseTooLargeError) return error;
    // Keep the root cause (ECONNREFUSED, …), not ky's error, which holds the request and its credential headers.
    if (network) return new ConnectionError(undefined, { cause: error instanceof NetworkError ? error.cause : error });
    return error;
  }
}

/** A call's final failure: the caller's own abort at debug, a 4xx at warn, anything else (5xx, network) at error. */
function logFailure(log: Log, shown: string, error: unknown, attempt: number): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (error instanceof AbortError) log.debug(`aborted ${shown}`, { attempt });
  else if (error instanceof ApiError && error.status < 500) log.warn(`failed ${shown}: ${message}`, { attempt, status: error.status, requestId: error.requestId });
  else log.error(`failed ${shown}: ${message}`, { attempt, ...(error instanceof ApiError ? { status: error.status, requestId: error.requestId } : {}) });
}

const abort = (controller: AbortController) => controller.abort();

/** Rejects when `signal` fires; raced against a fetch that may not listen to it. */
function endedBy(signal: AbortSignal): Promise<never> {
  const ended = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
  // Handled by the race, or by nobody when the call ends first.
  ended.catch(() => undefined);
  return ended;
}

/**
 * Refuses a base URL that is no absolute http(s) URL, and one with a user name or password:
 * fetch refuses such a URL on every call with a TypeError that quotes it, and logs would show it.
 */
function checkBaseUrl(baseUrl: unknown): void {
  let url: URL | undefined;
  try {
    url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined;
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new ValidationError([{ path: ['baseUrl'], message: 'must be an absolute http or https URL' }], 'options');
  }
  if (url.username || url.password) {
    throw new CredentialError('baseUrl must not hold a user name or password: fetch refuses such a URL. Send credentials with the client options or defaultHeaders.');
  }
}

/**
 * Refuses a `maxRetries` that is not a whole number of at least 0 (NaN never reached its limit:
 * a 503 was asked again for ever) and a `timeout` not above 0 (NaN and 0 timed every call out at once).
 */
function checkLimits({ maxRetries, timeout }: { maxRetries?: number; timeout?: number }): void {
  const issues = [];
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) issues.push({ path: ['maxRetries'], message: 'must be a whole number, at least 0' });
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0)) issues.push({ path: ['timeout'], message: 'must be a number of ms above 0 (Infinity for none)' });
  if (issues.length > 0) throw new ValidationError(issues, 'options');
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What node:http sends as a header value (fetch would also trim blanks around it). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The error of a header that cannot be sent (a line break, a control or non-Latin-1 character:
 * a key pasted from two lines). fetch's own TypeError quotes the value, which may be a key; this
 * names only the header. Looked for only once a request failed, so that a call pays nothing for it.
 */
function unsendable(headers: Record<string, string>): ValidationError | undefined {
  const issues = Object.entries(headers)
    .filter(([name, value]) => !HEADER_NAME.test(name) || !HEADER_VALUE.test(value))
    .map(([name]) => ({ path: [name], message: 'has a character that cannot be sent in an HTTP header (a line break, a control or non-Latin-1 character)' }));
  return issues.length > 0 ? new ValidationError(issues, 'headers') : undefined;
}

/** `url` with the defined values of `query` appended, as ky's `searchParams` would. */
function withQuery(url: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
  const search = params.toString();
  return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
}

const isRedirect = (response: Response) => response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A fresh idempotency key (a random UUID). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

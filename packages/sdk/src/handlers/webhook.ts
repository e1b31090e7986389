/**
 * The webhook endpoint as a web-standard `(Request) => Promise<Response>` handler: reads the
 * raw body, verifies it, runs `onEvent` once per event (de-duplicated in `store`), and answers
 * 2xx only once `onEvent` succeeded, so that the service retries everything else.
 *
 * | answer | when |
 * |---|---|
 * | 200 `{ received: true }` | `onEvent` succeeded, or the event was already handled (`duplicate: true`, after `onDuplicate`) |
 * | 400 | the signature, timestamp, headers or body do not verify, or an order event is older than `ttlSeconds` (a replay) (`onEvent` does not run; `onRefused` does) |
 * | 405 | not a POST |
 * | 408 | a body that took longer than `bodyTimeoutMs` to arrive |
 * | 409 | the same event is being handled right now; the retry comes later |
 * | 413 | a body over `maxBodyBytes` |
 * | 500 | `onEvent`, `onDuplicate` or the store failed; after `onEvent`, the key is released, so the retry runs it again |
 */
import { createDeduplicator, DEFAULT_DEDUPE_TTL_SECONDS, type DedupeStore } from '../webhooks/dedupe.js';
import {
  DEFAULT_TOLERANCE_SECONDS,
  verifyCheckoutWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type CheckoutWebhookEvent,
  type WebhookEvent,
  type WebhookSignatureScheme,
} from '../webhooks/index.js';
import { DEFAULT_BODY_TIMEOUT_MS, error, json, methodNotAllowed, readBody, reportInternal, type ErrorReporter } from './response.js';
import { MAX_TIMER_MS } from '../core/retry.js';

interface WebhookHandlerCommon {
  /** The webhook secret; during a rotation pass `secrets`, the new and the old one. */
  secret?: string;
  secrets?: readonly string[];
  /**
   * Where handled event keys are kept. Order webhooks do not sign their timestamp, so use one that
   * survives a restart: `SqliteDedupeStore` (`@sikaramp/sdk/webhooks/sqlite`), Redis, or your
   * database; `MemoryDedupeStore` serves one process until it restarts.
   */
  store: DedupeStore;
  /** How long a handled key is remembered, seconds. Default 7 days. */
  ttlSeconds?: number;
  /** How long a key is held while `onEvent` runs, with a store that has `commit`, seconds; renewed every third of it with a store that has `renew`. Default 10 minutes. */
  leaseSeconds?: number;
  /** Largest accepted difference between the signed timestamp and now, seconds. Default 300. */
  tolerance?: number;
  /** The clock the tolerance is checked against, ms since the epoch. Default `Date.now`; tests pass the mock's. */
  now?: () => number;
  /** Largest body read, bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** How long the body may take to arrive, ms; a slower one is answered 408 (the service retries it). Default 10 s. */
  bodyTimeoutMs?: number;
  /** Called with each error answered 5xx, and with a `DedupeLeaseError` when a running `onEvent`'s lease could not be renewed. Default `console.error`. */
  onError?: ErrorReporter;
  /** Called with each delivery refused 400 (forged, stale, or a body that is not the one signed), e.g. to log it. */
  onRefused?: (error: WebhookVerificationError, request: Request) => unknown;
}

/** Order and ramp payment webhooks: both arrive at your webhook URL, signed the same way; tell them apart by `event`. */
export interface MerchantWebhookHandlerOptions extends WebhookHandlerCommon {
  kind?: 'order' | 'ramp';
  /** Accept only this signed content (see `verifyWebhook`). Default: either. */
  scheme?: WebhookSignatureScheme;
  onEvent: (event: WebhookEvent, request: Request) => unknown;
  /** Called, instead of `onEvent`, with a verified event that was already handled (answered 200 `duplicate: true`). */
  onDuplicate?: (event: WebhookEvent, request: Request) => unknown;
}

/** Checkout webhooks (`X-Svc-Signature`), de-duplicated by event id. */
export interface CheckoutWebhookHandlerOptions extends WebhookHandlerCommon {
  kind: 'checkout';
  onEvent: (event: CheckoutWebhookEvent, request: Request) => unknown;
  /** Called, instead of `onEvent`, with a verified event that was already handled (answered 200 `duplicate: true`). */
  onDuplicate?: (event: CheckoutWebhookEvent, request: Request) => unknown;
}

export type WebhookHandlerOptions = MerchantWebhookHandlerOptions | CheckoutWebhookHandlerOptions;

/** Default largest body, bytes: a webhook is well under 4 KB. */
const MAX_BODY = 1024 * 1024;

export function createWebhookHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  const secrets = [...(options.secrets ?? []), ...(options.secret === undefined ? [] : [options.secret])];
  // An unset environment variable must fail at start-up, not as a 500 on every delivery.
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '')) {
    throw new TypeError('createWebhookHandler: `secret` (or `secrets`) must be the webhook secret: is its environment variable set?');
  }
  const { store, tolerance, now = Date.now, maxBodyBytes = MAX_BODY, bodyTimeoutMs = DEFAULT_BODY_TIMEOUT_MS } = options;
  // An order event older than this may have had its key forgotten: its replay would run again.
  // The margin (the clock tolerance, at most half the window) covers the service's clock running ahead.
  const ttl = options.ttlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS;
  const oldestMs = (ttl - Math.min(tolerance ?? DEFAULT_TOLERANCE_SECONDS, ttl / 2)) * 1000;
  if (!(bodyTimeoutMs > 0 && bodyTimeoutMs <= MAX_TIMER_MS)) throw new RangeError('createWebhookHandler: `bodyTimeoutMs` must be a number of ms from 1 to 2^31 - 1');
  const onError = options.onError ?? ((e: unknown) => console.error(e));
  const dedupeOptions = { store, ttlSeconds: options.ttlSeconds, leaseSeconds: options.leaseSeconds };

  return async (request) => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    const body = await readBody(request, maxBodyBytes, bodyTimeoutMs);
    if (body instanceof Response) return body;
    const input = { body, headers: request.headers, secret: secrets, tolerance, now: now() };
    let event: WebhookEvent | CheckoutWebhookEvent;
    try {
      event = options.kind === 'checkout' ? await verifyCheckoutWebhook(input) : await verifyWebhook({ ...input, scheme: options.scheme });
      // Order webhooks sign the body alone, so the timestamp header proves nothing: a captured
      // delivery sent again with a fresh one verifies. The signed body's own `timestamp` does
      // not change between retries; past the de-duplication window it can only be a replay.
      const signed: unknown = 'order_id' in event ? event.timestamp : undefined;
      if (typeof signed === 'string' && input.now - Date.parse(signed) > oldestMs) {
        throw new WebhookVerificationError('timestamp_too_old', `timestamp_too_old: the signed event is from ${signed}, older than the ${ttl} s its key is kept: a replay`);
      }
    } catch (cause) {
      // The verifier's messages name the failed check, never a secret.
      if (cause instanceof WebhookVerificationError) {
        // A failing hook is reported; the refusal stands.
        await Promise.resolve()
          .then(() => options.onRefused?.(cause, request))
          .catch((hookError: unknown) => onError(hookError, request));
        return json(400, { error: { code: 'invalid_webhook', reason: cause.reason, message: cause.message } });
      }
      return reportInternal(onError, cause, request);
    }
    try {
      // One per delivery, so that a lease lost while onEvent runs is reported with its request.
      const dedupe = createDeduplicator({ ...dedupeOptions, onLeaseError: (leaseError) => onError(leaseError, request) });
      const outcome = await dedupe.once(event, () => (options.onEvent as (e: typeof event, r: Request) => unknown)(event, request));
      if (!outcome.duplicate) return json(200, { received: true });
      if (outcome.pending) return error(409, 'in_flight', 'This event is being handled; deliver it again later.');
      await (options.onDuplicate as ((e: typeof event, r: Request) => unknown) | undefined)?.(event, request);
      return json(200, { received: true, duplicate: true });
    } catch (cause) {
      return reportInternal(onError, cause, request);
    }
  };
}

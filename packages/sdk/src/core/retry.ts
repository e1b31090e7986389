/**
 * The one retry policy of the SDK. A request is repeated only where repeating is safe: a GET,
 * or a request that carries an idempotency key (the service recognises the repeat). It is
 * repeated on connection errors and timeouts, on 429, and on 502/503/504, unless the answer's
 * `Retry-After` asks for a minute or more: that is left to the caller (`RateLimitError.retryAfter`).
 */
import { AbortError, retryAfterSeconds } from './errors.js';

/** Retries after the first attempt, by default. */
export const DEFAULT_MAX_RETRIES = 2;
/** First backoff delay, seconds; doubles each retry. */
const INITIAL_DELAY_SECONDS = 0.5;
/** Longest backoff delay, seconds. */
const MAX_DELAY_SECONDS = 8;
/** A `Retry-After` shorter than this, seconds, is honoured as given; at a longer one the call throws rather than wait or ask sooner. */
const MAX_RETRY_AFTER_SECONDS = 60;

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** Whether repeating the request cannot do the work twice. */
export function isSafeToRetry(method: string, idempotencyKey: string | undefined): boolean {
  return method.toUpperCase() === 'GET' || idempotencyKey !== undefined;
}

/** Whether an answer with this status is worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** Whether the answer's `Retry-After` asks for a longer wait than a retry inside one call may take. */
export function waitsTooLong(headers: Headers): boolean {
  const retryAfter = retryAfterSeconds(headers);
  return retryAfter !== undefined && retryAfter >= MAX_RETRY_AFTER_SECONDS;
}

/**
 * Delay before retry number `retry` (0 for the first), ms: the answer's `Retry-After` when it
 * is under 60 s, else 0.5 s doubling up to 8 s, shortened by up to 25 % jitter so that many
 * clients do not retry in step.
 */
export function retryDelayMs(retry: number, headers?: Headers, random = Math.random): number {
  const retryAfter = headers ? retryAfterSeconds(headers) : undefined;
  if (retryAfter !== undefined && retryAfter < MAX_RETRY_AFTER_SECONDS) return retryAfter * 1000;
  const backoff = Math.min(INITIAL_DELAY_SECONDS * 2 ** retry, MAX_DELAY_SECONDS);
  return backoff * (1 - random() * 0.25) * 1000;
}

/** The longest delay a timer holds (about 24.8 days); a longer one would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Waits `ms` (at most about 24.8 days), or rejects with AbortError as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError({ cause: signal.reason }));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError({ cause: signal?.reason }));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

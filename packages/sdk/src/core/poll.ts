/**
 * Polling until a resource reaches a final status: one status-change callback, an interval
 * per status, a maximum duration, an AbortSignal, and backing off when rate limited. Every
 * `waitFor…` helper takes `WaitOptions` and resolves with a `WaitResult`.
 */
import { RateLimitError, ValidationError, WaitTimeoutError } from './errors.js';
import { sleep } from './retry.js';

/** Options of every `waitFor…` helper. */
export interface WaitOptions<T> {
  /** Stops waiting; the helper rejects with AbortError. */
  signal?: AbortSignal;
  /** Longest time to wait, seconds; then WaitTimeoutError. */
  maxDuration?: number;
  /** Wait between looks, seconds, whatever the status. Default: the helper's own (5 s; waitForOrder's per-status table). */
  interval?: number;
  /** Called with the resource each time its status changes, the first one included. */
  onStatus?: (value: T) => void;
  /** Where the wait reads the time and how it waits. Default: real time; tests pass one driven by the mock's manual clock. */
  clock?: WaitClock;
}

/**
 * What every `waitFor…` helper resolves with, on any final status (a failure too: check
 * `succeeded` before acting). It rejects only when it could not tell: WaitTimeoutError,
 * AbortError, or the error of a look that failed.
 */
export interface WaitResult<T, S extends string = string> {
  /** True only for the status that means success (`completed`; a customer's `ACCEPTED`). */
  succeeded: boolean;
  /** The final status. */
  status: S;
  /** The resource as last read, in that status. */
  value: T;
}

/** Time as a `waitFor…` helper reads and spends it. */
export interface WaitClock {
  /** Current time, ms since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with AbortError as soon as `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: WaitClock = { now: () => Date.now(), sleep };

/** Longest wait after repeated 429s, seconds. */
const MAX_RATE_LIMIT_WAIT_SECONDS = 60;

export interface PollSpec<T, S extends string> extends Omit<WaitOptions<T>, 'interval'> {
  fetch(signal?: AbortSignal): Promise<T>;
  status(value: T): S;
  isFinal(status: string): boolean;
  /** Whether a final status is the success. */
  succeeded(status: S): boolean;
  /** Wait before the next look, seconds, for a resource in `status`. */
  interval(status: string): number;
  /** Default maxDuration, seconds. */
  defaultMaxDuration: number;
}

const invalid = (name: string, message: string) => new ValidationError([{ path: [name], message }], 'wait options');

/** Fetches until `isFinal`, and resolves with the final value. */
export async function poll<T, S extends string>(spec: PollSpec<T, S>): Promise<WaitResult<T, S>> {
  const maxDuration = spec.maxDuration ?? spec.defaultMaxDuration;
  // NaN would never reach the deadline, and a wait of 0 or NaN would ask again at once: a loop that only a 429 slows.
  if (typeof maxDuration !== 'number' || !(maxDuration >= 0)) throw invalid('maxDuration', 'must be a number of seconds, at least 0');
  const clock = spec.clock ?? realClock;
  const deadline = clock.now() + maxDuration * 1000;
  let last: string | undefined;
  let rateLimitWait = 0;
  for (;;) {
    let wait: number;
    try {
      const value = await spec.fetch(spec.signal);
      rateLimitWait = 0;
      const status = spec.status(value);
      if (status !== last) spec.onStatus?.(value);
      last = status;
      if (spec.isFinal(status)) return { succeeded: spec.succeeded(status), status, value };
      wait = spec.interval(status);
      if (typeof wait !== 'number' || !(wait > 0)) throw invalid('interval', 'must be a number of seconds above 0');
    } catch (error) {
      // The core already retried; past that, slow down instead of failing the whole wait.
      if (!(error instanceof RateLimitError)) throw error;
      rateLimitWait = Math.min(Math.max(rateLimitWait * 2, 1, error.retryAfter ?? 0), MAX_RATE_LIMIT_WAIT_SECONDS);
      wait = rateLimitWait;
    }
    const left = deadline - clock.now();
    if (left <= 0) throw new WaitTimeoutError(maxDuration, last);
    await clock.sleep(Math.min(wait * 1000, left), spec.signal);
  }
}

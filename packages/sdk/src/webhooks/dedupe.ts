/**
 * De-duplication of webhook deliveries. The same event can arrive more than once (retries,
 * status synchronisation, a manual retry), and several deliveries of it can arrive at once;
 * the handler must run once. The store is pluggable: the in-memory default serves one
 * process, a merchant with several backs it with Redis (`SET key 1 NX EX ttl` / `DEL key`)
 * or a database table with a unique key.
 */
import type { CheckoutWebhookEvent, WebhookEvent } from './events.js';

/** Where claimed event keys live. */
export interface DedupeStore {
  /** Records `key` for `ttlSeconds` unless it is already there; true when this call recorded it. Must be atomic. */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
  /** Forgets `key`, so that a redelivery of an event whose handling failed runs again. */
  release(key: string): Promise<void>;
}

/** Default time a key is remembered, seconds: 7 days, longer than any redelivery. */
export const DEFAULT_DEDUPE_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface MemoryDedupeStoreOptions {
  /** Most keys kept; the oldest are dropped first. Default 100000. */
  maxEntries?: number;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

/** An in-memory store for one process. */
export class MemoryDedupeStore implements DedupeStore {
  readonly #expiries = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    const now = this.#now();
    const expiry = this.#expiries.get(key);
    if (expiry !== undefined && expiry > now) return false;
    this.#expiries.delete(key);
    if (this.#expiries.size >= this.#maxEntries) this.#expiries.delete(this.#expiries.keys().next().value!);
    this.#expiries.set(key, now + ttlSeconds * 1000);
    return true;
  }

  async release(key: string): Promise<void> {
    this.#expiries.delete(key);
  }
}

/** The de-duplication key of an event: checkout's event id, or the order (or payment) and event name. */
export function webhookEventKey(event: WebhookEvent | CheckoutWebhookEvent): string {
  if (!('event' in event)) return `checkout:${event.id}`;
  if ('order_id' in event) return `order:${event.order_id}:${event.event}`;
  return `payment:${event.data.reference}:${event.event}`;
}

export interface DeduplicatorOptions {
  /** Default: a MemoryDedupeStore. */
  store?: DedupeStore;
  /** How long a handled key is remembered, seconds. Default 7 days. */
  ttlSeconds?: number;
}

export type DedupeResult<T> = { duplicate: false; result: T } | { duplicate: true };

export interface Deduplicator {
  /**
   * Runs `handler` unless `key` (an event id, or an event: see {@link webhookEventKey}) was
   * already handled or is being handled. When the handler throws, the key is released so that
   * the redelivery runs it again, and the error is rethrown.
   */
  once<T>(key: string | WebhookEvent | CheckoutWebhookEvent, handler: () => T | Promise<T>): Promise<DedupeResult<T>>;
}

export function createDeduplicator(options: DeduplicatorOptions = {}): Deduplicator {
  const store = options.store ?? new MemoryDedupeStore();
  const ttl = options.ttlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS;
  return {
    async once(key, handler) {
      const id = typeof key === 'string' ? key : webhookEventKey(key);
      if (!(await store.claim(id, ttl))) return { duplicate: true };
      try {
        return { duplicate: false, result: await handler() };
      } catch (error) {
        await store.release(id);
        throw error;
      }
    },
  };
}

/**
 * @sikaramp/sdk/webhooks/dedupe: de-duplication of webhook deliveries, platform-neutral (no
 * crypto, no Node module). The same event can arrive more than once (retries,
 * status synchronisation, a manual retry, a replay by whoever captured a delivery: order
 * webhooks do not sign their timestamp), and several deliveries of it can arrive at once;
 * the handler must run once. The store is pluggable: the in-memory default serves one
 * process until it restarts; `@sikaramp/sdk/webhooks/sqlite` keeps keys across restarts, and
 * a merchant with several processes backs it with Redis (`SET key 1 NX EX ttl` / `DEL key`)
 * or a database table with a unique key (`@sikaramp/sdk/redis` has one).
 *
 * ```ts
 * import { createDeduplicator } from '@sikaramp/sdk/webhooks/dedupe';
 * const dedupe = createDeduplicator({ store });
 * const { duplicate } = await dedupe.once(event, () => fulfil(event));
 * ```
 */
import type { CheckoutWebhookEvent, WebhookEvent } from './events.js';

/** Where claimed event keys live. */
export interface DedupeStore {
  /**
   * Records `key` for `ttlSeconds` unless it is already there; true when this call recorded it.
   * When it is there: `'pending'` if it is still being handled (a store with `commit`), else false. Must be atomic.
   */
  claim(key: string, ttlSeconds: number): Promise<boolean | 'pending'>;
  /** Forgets `key`, so that a redelivery of an event whose handling failed runs again. */
  release(key: string): Promise<void>;
  /**
   * Marks a claimed key handled and keeps it for `ttlSeconds`. A store that has it is claimed
   * for a short lease first, so that a process that dies while handling an event does not
   * keep its key, and the service's next retry runs the handler.
   */
  commit?(key: string, ttlSeconds: number): Promise<void>;
}

/** Default time a key is remembered, seconds: 7 days, longer than any redelivery. */
export const DEFAULT_DEDUPE_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Default time a key is held while its handler runs, in a store with `commit`, seconds: 10 minutes, under the service's 1 h retry. */
export const DEFAULT_DEDUPE_LEASE_SECONDS = 10 * 60;

export interface MemoryDedupeStoreOptions {
  /** Most keys kept; the oldest are dropped first. Default 100000. */
  maxEntries?: number;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

/** An in-memory store for one process; forgotten on restart. */
export class MemoryDedupeStore implements DedupeStore {
  readonly #entries = new Map<string, { expiry: number; done: boolean }>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean | 'pending'> {
    const now = this.#now();
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.expiry > now) return entry.done ? false : 'pending';
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { expiry: now + ttlSeconds * 1000, done: false });
    return true;
  }

  async commit(key: string, ttlSeconds: number): Promise<void> {
    this.#entries.set(key, { expiry: this.#now() + ttlSeconds * 1000, done: true });
  }

  async release(key: string): Promise<void> {
    this.#entries.delete(key);
  }
}

/** The de-duplication key of an event: checkout's event id, or the order (or payment) and event name. */
export function webhookEventKey(event: WebhookEvent | CheckoutWebhookEvent): string {
  if (!('event' in event)) return `checkout:${event.id}`;
  if ('order_id' in event) return `order:${event.order_id}:${event.event}`;
  return `payment:${event.data.reference}:${event.event}`;
}

export interface DeduplicatorOptions {
  /** Default: a MemoryDedupeStore, which a restart empties; pass `SqliteDedupeStore` (`@sikaramp/sdk/webhooks/sqlite`) or your own for keys that survive it. */
  store?: DedupeStore;
  /** How long a handled key is remembered, seconds. Default 7 days. */
  ttlSeconds?: number;
  /** How long a key is held while its handler runs, with a store that has `commit`, seconds. Default 10 minutes. */
  leaseSeconds?: number;
}

/**
 * What `once` did. A duplicate that is `pending` is still being handled elsewhere: answer it
 * non-2xx (e.g. 409) so that the service retries it later, in case that handling fails.
 */
export type DedupeResult<T> = { duplicate: false; result: T } | { duplicate: true; pending: boolean };

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
  const lease = store.commit ? Math.min(options.leaseSeconds ?? DEFAULT_DEDUPE_LEASE_SECONDS, ttl) : ttl;
  return {
    async once(key, handler) {
      const id = typeof key === 'string' ? key : webhookEventKey(key);
      const claimed = await store.claim(id, lease);
      if (claimed !== true) return { duplicate: true, pending: claimed === 'pending' };
      let result: Awaited<ReturnType<typeof handler>>;
      try {
        result = await handler();
      } catch (error) {
        await store.release(id);
        throw error;
      }
      await store.commit?.(id, ttl);
      return { duplicate: false, result };
    },
  };
}

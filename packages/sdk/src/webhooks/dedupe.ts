/**
 * @sikaramp/sdk/webhooks/dedupe: de-duplication of webhook deliveries, platform-neutral (no
 * HMAC, no Node module; the global `crypto.randomUUID` names each claim). The same event can
 * arrive more than once (retries, status synchronisation, a manual retry, a replay by whoever
 * captured a delivery: order webhooks do not sign their timestamp), and several deliveries of
 * it can arrive at once; the handler must run once, however long it takes (its lease is
 * renewed while it runs). The store is pluggable: the in-memory default serves one process
 * until it restarts; `@sikaramp/sdk/webhooks/sqlite` keeps keys across restarts, and a
 * merchant with several processes backs it with Redis (`@sikaramp/sdk/redis` has one) or a
 * database table with a unique key.
 *
 * ```ts
 * import { createDeduplicator } from '@sikaramp/sdk/webhooks/dedupe';
 * const dedupe = createDeduplicator({ store });
 * const { duplicate } = await dedupe.once(event, () => fulfil(event));
 * ```
 */
import { SikarampError } from '../core/errors.js';
import { MAX_TIMER_MS } from '../core/retry.js';
import type { CheckoutWebhookEvent, WebhookEvent } from './events.js';

/**
 * Where claimed event keys live. `createDeduplicator` names each claim with a fresh random
 * `claimId` and passes it to every call about that claim; a store that keeps it acts only on
 * its own claim (fencing), so a handler whose lease ran out and whose key was claimed again
 * cannot commit, release or renew the new claim. A store that ignores it (one written before
 * it existed) keeps working, unfenced: a late commit or release then acts on the new claim.
 */
export interface DedupeStore {
  /**
   * Records `key` for `ttlSeconds` unless it is already there (an expired one counts as gone); true when this call recorded it.
   * When it is there: `'pending'` if it is still being handled (a store with `commit`), else false. Must be atomic.
   */
  claim(key: string, ttlSeconds: number, claimId?: string): Promise<boolean | 'pending'>;
  /** Forgets `key` while claim `claimId` holds it, so that a redelivery of an event whose handling failed runs again. */
  release(key: string, claimId?: string): Promise<void>;
  /**
   * Marks a claimed key handled and keeps it for `ttlSeconds`, unless another claim holds it
   * now (a key gone since counts as held: the handler did run). A store that has it is claimed
   * for a short lease first, so that a process that dies while handling an event does not
   * keep its key, and the service's next retry runs the handler.
   */
  commit?(key: string, ttlSeconds: number, claimId?: string): Promise<void>;
  /**
   * Extends claim `claimId`'s lease on `key` to `leaseSeconds` from now: true while the claim
   * holds the key (or it is gone, and the claim took it back), false once another claim holds
   * it or it was handled. `createDeduplicator` calls it every third of the lease while the
   * handler runs. A store with `commit` but without `renew` holds the key for one lease only:
   * a handler that runs longer lets the service's next retry run it a second time meanwhile.
   */
  renew?(key: string, leaseSeconds: number, claimId?: string): Promise<boolean>;
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

/**
 * An in-memory store for one process; forgotten on restart. A call without `claimId` acts on
 * whichever claim holds the key: every claim in it is this process's own.
 */
export class MemoryDedupeStore implements DedupeStore {
  /** `holder` is the claim's id while its handler runs, undefined once handled. */
  readonly #entries = new Map<string, { expiry: number; holder: string | undefined }>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  async claim(key: string, ttlSeconds: number, claimId = ''): Promise<boolean | 'pending'> {
    const entry = this.#live(key);
    if (entry !== undefined) return entry.holder === undefined ? false : 'pending';
    this.#put(key, ttlSeconds, claimId);
    return true;
  }

  async commit(key: string, ttlSeconds: number, claimId?: string): Promise<void> {
    if (this.#heldBy(key, claimId) !== false) this.#put(key, ttlSeconds, undefined);
  }

  async release(key: string, claimId?: string): Promise<void> {
    if (this.#heldBy(key, claimId) === true) this.#entries.delete(key);
  }

  async renew(key: string, leaseSeconds: number, claimId?: string): Promise<boolean> {
    const held = this.#heldBy(key, claimId);
    if (held === false) return false;
    // A key gone since is taken back: nobody else is handling it.
    this.#put(key, leaseSeconds, held ? this.#entries.get(key)!.holder : (claimId ?? ''));
    return true;
  }

  /** The entry of `key` unless it expired. */
  #live(key: string) {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.expiry > this.#now() ? entry : undefined;
  }

  /** True when claim `claimId` (any claim, without one) holds `key`, undefined when nothing does, false when another claim or a handled mark does. */
  #heldBy(key: string, claimId: string | undefined): boolean | undefined {
    const entry = this.#live(key);
    if (entry === undefined) return undefined;
    return entry.holder !== undefined && (claimId === undefined || entry.holder === claimId);
  }

  /** Sets `key` as the newest entry, dropping the oldest beyond `maxEntries`. */
  #put(key: string, seconds: number, holder: string | undefined): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { expiry: this.#now() + seconds * 1000, holder });
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
  /**
   * How long a key is held while its handler runs, with a store that has `commit`, seconds;
   * renewed every third of it while the handler runs, with a store that has `renew`. Default 10 minutes.
   */
  leaseSeconds?: number;
  /**
   * Called when a running handler's lease could not be renewed (see {@link DedupeLeaseError}).
   * Default `console.error`: a lost lease means the event may be handled twice.
   */
  onLeaseError?: (error: DedupeLeaseError) => unknown;
}

/** Why a lease renewal failed: `lost`, another claim holds the key now (or it was handled); `failed`, the store threw. */
export type DedupeLeaseErrorReason = 'lost' | 'failed';

/**
 * The lease of a running handler could not be renewed. `lost`: renewal stops and the signal
 * passed to the handler aborts; the handler cannot be stopped from outside, and its commit or
 * release will change nothing, so the event may now be handled twice. `failed`: renewal goes
 * on at the next third of the lease; the claim holds until its lease runs out.
 */
export class DedupeLeaseError extends SikarampError {
  override name = 'DedupeLeaseError';
  readonly reason: DedupeLeaseErrorReason;
  /** The de-duplication key whose lease it was. */
  readonly key: string;
  constructor(reason: DedupeLeaseErrorReason, key: string, options?: { cause?: unknown }) {
    super(
      reason === 'lost'
        ? `The claim on ${key} was lost while its handler ran: another claim holds it, so the event may be handled twice`
        : `Renewing the lease on ${key} failed: ${options?.cause instanceof Error ? options.cause.message : String(options?.cause)}`,
      options,
    );
    this.reason = reason;
    this.key = key;
  }
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
   * the redelivery runs it again, and the error is rethrown. `signal` aborts if the handler's
   * lease is lost (a {@link DedupeLeaseError} `lost`): check it before an effect that must not
   * happen twice.
   */
  once<T>(key: string | WebhookEvent | CheckoutWebhookEvent, handler: (signal: AbortSignal) => T | Promise<T>): Promise<DedupeResult<T>>;
}


export function createDeduplicator(options: DeduplicatorOptions = {}): Deduplicator {
  const store = options.store ?? new MemoryDedupeStore();
  const ttl = options.ttlSeconds ?? DEFAULT_DEDUPE_TTL_SECONDS;
  const lease = store.commit ? Math.min(options.leaseSeconds ?? DEFAULT_DEDUPE_LEASE_SECONDS, ttl) : ttl;
  const onLeaseError = options.onLeaseError ?? ((error: DedupeLeaseError) => console.error(error));
  const report = (error: DedupeLeaseError) => void Promise.resolve().then(() => onLeaseError(error)).catch(() => undefined);

  /** Runs `handler` holding claim `claimId` on `id`: its lease renewed every third of it, until the handler settles. */
  async function holding<T>(id: string, claimId: string, handler: (signal: AbortSignal) => T | Promise<T>): Promise<T> {
    const lost = new AbortController();
    const renew = store.commit && store.renew?.bind(store);
    if (!renew) return handler(lost.signal);
    let running = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      if (!running) return;
      timer = setTimeout(tick, Math.min((lease * 1000) / 3, MAX_TIMER_MS));
      // A renewal alone must not keep the process alive: one that exits lets the lease run out.
      if (typeof timer === 'object') timer.unref?.();
    };
    const tick = async () => {
      try {
        if (!(await renew(id, lease, claimId)) && running) {
          const error = new DedupeLeaseError('lost', id);
          report(error);
          lost.abort(error);
          return;
        }
      } catch (cause) {
        if (running) report(new DedupeLeaseError('failed', id, { cause }));
      }
      schedule();
    };
    schedule();
    try {
      return await handler(lost.signal);
    } finally {
      running = false;
      clearTimeout(timer);
    }
  }

  return {
    async once(key, handler) {
      const id = typeof key === 'string' ? key : webhookEventKey(key);
      const claimId = globalThis.crypto.randomUUID();
      const claimed = await store.claim(id, lease, claimId);
      if (claimed !== true) return { duplicate: true, pending: claimed === 'pending' };
      let result: Awaited<ReturnType<typeof handler>>;
      try {
        result = await holding(id, claimId, handler);
      } catch (error) {
        await store.release(id, claimId);
        throw error;
      }
      await store.commit?.(id, ttl, claimId);
      return { duplicate: false, result };
    },
  };
}

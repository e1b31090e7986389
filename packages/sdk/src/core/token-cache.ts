/**
 * Caches a bearer token (the dashboard's login token, the anchor's SEP-10 token) until shortly
 * before it expires, and shares one in-flight renewal between concurrent calls. The store is
 * pluggable, so that several processes can share one token (Redis, a database).
 */
import { AbortError } from './errors.js';

/** A token and when it stops being valid. */
export interface StoredToken {
  token: string;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

/** Where cached tokens live. The values are credentials: keep the store private. */
export interface TokenStore {
  get(key: string): Promise<StoredToken | undefined>;
  set(key: string, token: StoredToken): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Optional: takes `key`'s renewal lock, shared by every process on this store, waiting while
   * another holds it; resolves to its release. The lock must expire by itself, so that a holder
   * that dies does not keep it. With it, one process renews and the others read its token.
   */
  lock?(key: string, signal?: AbortSignal): Promise<() => Promise<void>>;
}

/** Keeps tokens in this process's memory. */
export class MemoryTokenStore implements TokenStore {
  readonly #tokens = new Map<string, StoredToken>();
  async get(key: string) {
    return this.#tokens.get(key);
  }
  async set(key: string, token: StoredToken) {
    this.#tokens.set(key, token);
  }
  async delete(key: string) {
    this.#tokens.delete(key);
  }
}

/** A token is renewed this long before it expires, seconds, so that no request carries one that dies in flight. */
export const TOKEN_RENEW_MARGIN_SECONDS = 60;

export interface TokenCacheOptions {
  store?: TokenStore;
  /** The store key: identifies the service and the identity. */
  key: string;
  /** Obtains a fresh token. */
  obtain(signal?: AbortSignal): Promise<StoredToken>;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

export class TokenCache {
  readonly #options: TokenCacheOptions;
  readonly #store: TokenStore;
  #inFlight: Promise<string> | undefined;
  /** The token this cache last handed out: a renewal replaces it, so another process's copy of it will not do. */
  #last: string | undefined;

  constructor(options: TokenCacheOptions) {
    this.#options = options;
    this.#store = options.store ?? new MemoryTokenStore();
  }

  /** A valid token: the cached one, or a fresh one when it is missing or about to expire. */
  async get(signal?: AbortSignal): Promise<string> {
    const cached = await this.#store.get(this.#options.key);
    if (cached && this.#usable(cached)) return (this.#last = cached.token);
    return this.renew(signal);
  }

  /**
   * Obtains a fresh token, joining a renewal already under way (in this process, and in others
   * when the store has `lock`). A caller's signal ends only its own wait: the renewal is shared, so
   * that one caller giving up does not fail the others that joined it (it still finishes and is cached).
   */
  renew(signal?: AbortSignal): Promise<string> {
    if (signal?.aborted) return Promise.reject(new AbortError({ cause: signal.reason }));
    this.#inFlight ??= this.#renew().finally(() => {
      this.#inFlight = undefined;
    });
    return signal ? untilAborted(this.#inFlight, signal) : this.#inFlight;
  }

  async #renew(): Promise<string> {
    const { key } = this.#options;
    const replaced = this.#last;
    const release = await this.#store.lock?.(key);
    try {
      // Another process may have renewed while this one waited for the lock.
      const cached = release && (await this.#store.get(key));
      if (cached && cached.token !== replaced && this.#usable(cached)) return (this.#last = cached.token);
      const fresh = await this.#options.obtain();
      await this.#store.set(key, fresh);
      return (this.#last = fresh.token);
    } finally {
      // A lock left behind expires by itself: failing to release it must not fail the token.
      await release?.().catch(() => undefined);
    }
  }

  #usable(token: StoredToken): boolean {
    return token.expiresAt - TOKEN_RENEW_MARGIN_SECONDS * 1000 > (this.#options.now ?? Date.now)();
  }

  /** Forgets the cached token (after the service refused it). */
  async clear(): Promise<void> {
    await this.#store.delete(this.#options.key);
  }
}

/** `promise`, or AbortError as soon as `signal` fires. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new AbortError({ cause: signal.reason }));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** PBKDF2 rounds for a secret a person chose (a password): slow to test guesses against a key read from the store. */
export const SLOW_FINGERPRINT_ROUNDS = 100_000;

/**
 * PBKDF2-SHA256 of `secret` salted with `scope` (the rest of the cache key, and a label of what the
 * secret is), hex: binds a cached token to a secret in the store key without revealing it. A person's
 * secret takes {@link SLOW_FINGERPRINT_ROUNDS} (about 20 ms); 32 random bytes (a Stellar seed), 1.
 */
export async function secretFingerprint(scope: string, secret: string | Uint8Array, rounds: number): Promise<string> {
  const encoder = new TextEncoder();
  const raw = typeof secret === 'string' ? encoder.encode(secret) : new Uint8Array(secret);
  const key = await crypto.subtle.importKey('raw', raw, 'PBKDF2', false, ['deriveBits']);
  const params = { name: 'PBKDF2', hash: 'SHA-256', salt: encoder.encode(scope), iterations: rounds };
  const bits = await crypto.subtle.deriveBits(params, key, 256);
  return Array.from(new Uint8Array(bits), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The `exp` claim of a JWT, ms since the epoch; undefined when the token is not a readable JWT. */
export function jwtExpiry(token: string): number | undefined {
  try {
    const payload = token.split('.')[1];
    if (!payload) return undefined;
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

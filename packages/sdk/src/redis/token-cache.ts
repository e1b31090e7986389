/**
 * A {@link TokenStore} on Redis, so that every process of the merchant uses one SEP-10 (or
 * dashboard) token: with its `lock`, one process renews while the others wait and then read
 * the new token, one round trip per token lifetime however many processes there are. The lock
 * expires after `lockMs`, so that a process that dies while renewing does not block the rest.
 * One Redis may serve several accounts or tenants: the clients' keys carry a fingerprint of the
 * secret that signs in (never the secret), so a client is handed only a token it could obtain.
 * The values are bearer tokens: keep this Redis private.
 */
import type { StoredToken, TokenStore } from '../core/token-cache.js';
import { sleep } from '../core/retry.js';
import { keyedScript, type KeyedScript, type RedisScriptRunner, type RedisStoreOptions } from './client.js';

const GET = `return redis.call('GET', KEYS[1])`;
const SET = `return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])`;
const DEL = `return redis.call('DEL', KEYS[1])`;
const LOCK = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0`;
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface RedisTokenCacheOptions extends RedisStoreOptions {
  /** How long a renewal lock outlives a holder that never releases it, ms: longer than one sign-in. Default 30000. */
  lockMs?: number;
  /** How often a process waiting for the lock tries again, ms. Default 50. */
  pollMs?: number;
  /** The clock tokens' `expiresAt` is read against, ms since the epoch; pass the client's own. Default `Date.now`. */
  now?: () => number;
}

export class RedisTokenCache implements TokenStore {
  readonly #run: KeyedScript;
  readonly #lockMs: number;
  readonly #pollMs: number;
  readonly #now: () => number;

  constructor(redis: RedisScriptRunner, options: RedisTokenCacheOptions = {}) {
    this.#run = keyedScript(redis, options, 'token:');
    this.#lockMs = options.lockMs ?? 30_000;
    this.#pollMs = options.pollMs ?? 50;
    this.#now = options.now ?? Date.now;
  }

  async get(key: string): Promise<StoredToken | undefined> {
    const value = await this.#run(GET, key);
    if (typeof value !== 'string') return undefined;
    try {
      const token = JSON.parse(value) as Partial<StoredToken>;
      if (typeof token.token === 'string' && typeof token.expiresAt === 'number') return { token: token.token, expiresAt: token.expiresAt };
    } catch {
      // Not ours (another program wrote the key): treated as missing, so the next renewal replaces it.
    }
    return undefined;
  }

  async set(key: string, token: StoredToken): Promise<void> {
    const left = token.expiresAt - this.#now();
    if (left <= 0) return this.delete(key);
    // Redis drops the token when it expires.
    await this.#run(SET, key, JSON.stringify({ token: token.token, expiresAt: token.expiresAt }), String(Math.ceil(left)));
  }

  async delete(key: string): Promise<void> {
    await this.#run(DEL, key);
  }

  async lock(key: string, signal?: AbortSignal): Promise<() => Promise<void>> {
    const lockKey = `${key}:lock`;
    const id = globalThis.crypto.randomUUID();
    while (Number(await this.#run(LOCK, lockKey, id, String(this.#lockMs))) !== 1) await sleep(this.#pollMs, signal);
    // Deletes the lock only while it is still this holder's: after `lockMs` it may be another's.
    return async () => void (await this.#run(UNLOCK, lockKey, id));
  }
}

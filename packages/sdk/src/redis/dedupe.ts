/**
 * A {@link DedupeStore} on Redis, shared by every process of the merchant: one key per event,
 * whose value is the claim's id while its handler runs (for the lease) and `done` once handled
 * (for the TTL). Each step is one Lua script, so no two processes can both claim, and a claim
 * can only be committed, released or renewed by its holder: one whose lease ran out and was
 * claimed again elsewhere changes nothing. The id is the `claimId` passed in (createDeduplicator
 * passes one), else one of the store's own, remembered by key until its commit or release.
 */
import { OwnClaims } from '../webhooks/claims.js';
import type { DedupeStore } from '../webhooks/dedupe.js';
import { keyedScript, type KeyedScript, type RedisScriptRunner, type RedisStoreOptions } from './client.js';

// 1 claimed, 0 handled already, 2 being handled.
const CLAIM = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == 'done' then return 0 end
return 2`;
// Marks handled unless another call has claimed the key since this one's lease ran out.
const COMMIT = `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] or v == false then redis.call('SET', KEYS[1], 'done', 'PX', ARGV[2]) return 1 end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;
// Extends the lease of this claim, or takes the key back if it is gone (nobody else handles it).
const RENEW = `local v = redis.call('GET', KEYS[1])
if v == ARGV[1] or v == false then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;

export class RedisDedupeStore implements DedupeStore {
  readonly #run: KeyedScript;
  readonly #claims = new OwnClaims();

  constructor(redis: RedisScriptRunner, options: RedisStoreOptions = {}) {
    this.#run = keyedScript(redis, options, 'webhook:');
  }

  async claim(key: string, ttlSeconds: number, claimId?: string): Promise<boolean | 'pending'> {
    const { id, claimed } = this.#claims.id(key, claimId);
    let reply: unknown;
    try {
      reply = await this.#run(CLAIM, key, id, ms(ttlSeconds));
    } catch (error) {
      // The claim may still reach Redis (a client that queues while it reconnects): undo it
      // after it, so that the redelivery is not refused as in flight for the whole lease.
      this.#run(RELEASE, key, id).catch(() => undefined);
      throw error;
    }
    if (Number(reply) === 1) claimed();
    return Number(reply) === 1 ? true : Number(reply) === 0 ? false : 'pending';
  }

  async commit(key: string, ttlSeconds: number, claimId?: string): Promise<void> {
    await this.#run(COMMIT, key, this.#claims.take(key, claimId), ms(ttlSeconds));
  }

  async release(key: string, claimId?: string): Promise<void> {
    await this.#run(RELEASE, key, this.#claims.take(key, claimId));
  }

  async renew(key: string, leaseSeconds: number, claimId?: string): Promise<boolean> {
    const id = this.#claims.held(key, claimId);
    if (id === undefined) return false;
    return Number(await this.#run(RENEW, key, id, ms(leaseSeconds))) === 1;
  }

}

const ms = (seconds: number) => String(Math.max(1, Math.ceil(seconds * 1000)));

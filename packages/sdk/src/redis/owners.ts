/**
 * {@link TransactionOwners} on Redis, so that `status-url` answers on every process of the
 * merchant, not only on the one that started the transaction: behind a load balancer the
 * widget's polls reach any of them. One key per transaction, `<prefix>owner:<id>`, holding the
 * customer id, kept `ttlSeconds` after the transaction started.
 */
import { DEFAULT_OWNER_TTL_SECONDS, type TransactionOwners } from '../handlers/owners.js';
import { keyedScript, type KeyedScript, type RedisScriptRunner, type RedisStoreOptions } from './client.js';

const SET = `return redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])`;
const GET = `return redis.call('GET', KEYS[1])`;

export interface RedisTransactionOwnersOptions extends RedisStoreOptions {
  /** How long after it started a transaction's status can be read, seconds. Default 7 days. */
  ttlSeconds?: number;
}

export class RedisTransactionOwners implements TransactionOwners {
  readonly #run: KeyedScript;
  readonly #ttl: string;

  constructor(redis: RedisScriptRunner, options: RedisTransactionOwnersOptions = {}) {
    const ttl = options.ttlSeconds ?? DEFAULT_OWNER_TTL_SECONDS;
    if (!Number.isInteger(ttl) || ttl < 1) throw new RangeError('ttlSeconds must be a whole number of seconds, 1 or more');
    this.#run = keyedScript(redis, options, 'owner:');
    this.#ttl = String(ttl);
  }

  /** Records the customer; throws RedisStoreError when Redis fails (the handler answers 500). */
  async set(transactionId: string, customerId: string): Promise<void> {
    await this.#run(SET, transactionId, customerId, this.#ttl);
  }

  /** The customer, or undefined when unknown or expired; throws RedisStoreError when Redis fails, never answers "unknown" for it. */
  async get(transactionId: string): Promise<string | undefined> {
    const value = await this.#run(GET, transactionId);
    return typeof value === 'string' ? value : undefined;
  }
}

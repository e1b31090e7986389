/**
 * {@link TransactionOwners} in a SQLite database of your own, so that `status-url` still
 * answers after a restart, and on every process of one host that opens the file. Like
 * `SqliteDedupeStore` it takes the database handle (`node:sqlite`, better-sqlite3, `bun:sqlite`)
 * and loads nothing itself.
 *
 * ```ts
 * import { DatabaseSync } from 'node:sqlite';
 * import { createRampHandlers, SqliteTransactionOwners } from '@sikaramp/sdk/handlers';
 * const owners = new SqliteTransactionOwners(new DatabaseSync('shop.db'));
 * // createRampHandlers({ widget, anchor, publicKey, authorize, owners })
 * ```
 */
import type { SqliteDatabase, SqliteStatement } from '../webhooks/sqlite.js';
import { DEFAULT_OWNER_TTL_SECONDS, type TransactionOwners } from './owners.js';

export interface SqliteTransactionOwnersOptions {
  /** The table, created when missing: letters, digits and `_`. Default `sikaramp_transaction_owners`. */
  table?: string;
  /** How long after it started a transaction's status can be read, seconds. Default 7 days, as `RedisTransactionOwners`. */
  ttlSeconds?: number;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

/** Records between two sweeps of expired rows. */
const SWEEP_EVERY = 1_000;

/** One row per transaction: its customer and until when its status may be read. */
export class SqliteTransactionOwners implements TransactionOwners {
  readonly #now: () => number;
  readonly #ttlMs: number;
  readonly #set: SqliteStatement;
  readonly #get: SqliteStatement;
  readonly #sweep: SqliteStatement;
  #sets = 0;

  constructor(db: SqliteDatabase, options: SqliteTransactionOwnersOptions = {}) {
    const table = options.table ?? 'sikaramp_transaction_owners';
    // The name goes into SQL text, where no parameter can stand for it.
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(table)) throw new RangeError('table must be letters, digits and _, starting with a letter or _');
    const ttl = options.ttlSeconds ?? DEFAULT_OWNER_TTL_SECONDS;
    if (!Number.isInteger(ttl) || ttl < 1) throw new RangeError('ttlSeconds must be a whole number of seconds, 1 or more');
    this.#ttlMs = ttl * 1000;
    this.#now = options.now ?? Date.now;
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (transaction_id TEXT PRIMARY KEY NOT NULL, customer_id TEXT NOT NULL, expires_at INTEGER NOT NULL)`,
    );
    this.#set = db.prepare(
      `INSERT INTO ${table} (transaction_id, customer_id, expires_at) VALUES (?, ?, ?) ` +
        'ON CONFLICT (transaction_id) DO UPDATE SET customer_id = excluded.customer_id, expires_at = excluded.expires_at',
    );
    this.#get = db.prepare(`SELECT customer_id FROM ${table} WHERE transaction_id = ? AND expires_at > ?`);
    this.#sweep = db.prepare(`DELETE FROM ${table} WHERE expires_at <= ?`);
    this.#sweep.run(this.#now());
  }

  async set(transactionId: string, customerId: string): Promise<void> {
    const now = this.#now();
    if (++this.#sets % SWEEP_EVERY === 0) this.#sweep.run(now);
    this.#set.run(transactionId, customerId, now + this.#ttlMs);
  }

  async get(transactionId: string): Promise<string | undefined> {
    const row = this.#get.get(transactionId, this.#now()) as { customer_id?: unknown } | undefined;
    return typeof row?.customer_id === 'string' ? row.customer_id : undefined;
  }
}

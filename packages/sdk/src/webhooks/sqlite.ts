/**
 * @sikaramp/sdk/webhooks/sqlite: a de-duplication store in a SQLite database of your own, so
 * that handled webhook keys survive a restart and a replayed delivery is still refused.
 * It takes the database handle rather than opening one, so it loads nothing itself and works
 * with Node's `node:sqlite`, better-sqlite3 and Bun's `bun:sqlite`; processes that share the
 * file share the keys (SQLite locks the file for each statement).
 *
 * ```ts
 * import { DatabaseSync } from 'node:sqlite';
 * import { createDeduplicator } from '@sikaramp/sdk/webhooks/dedupe';
 * import { SqliteDedupeStore } from '@sikaramp/sdk/webhooks/sqlite';
 * const dedupe = createDeduplicator({ store: new SqliteDedupeStore(new DatabaseSync('webhooks.db')) });
 * ```
 */
import type { DedupeStore } from './dedupe.js';

/** The part of a synchronous SQLite handle the store uses: `DatabaseSync` of `node:sqlite`, better-sqlite3's `Database`, Bun's `Database`. */
export interface SqliteDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): SqliteStatement;
}

/** A prepared statement, as the three libraries shape it. */
export interface SqliteStatement {
  run(...params: (string | number)[]): { changes: number | bigint };
  get(...params: (string | number)[]): unknown;
}

export interface SqliteDedupeStoreOptions {
  /** The table that holds the keys, created when missing: letters, digits and `_`. Default `sikaramp_webhook_keys`. */
  table?: string;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

/** Claims between two sweeps of expired keys. */
const SWEEP_EVERY = 1_000;

/** A {@link DedupeStore} in a SQLite table: one row per key, with its expiry and whether it was handled. */
export class SqliteDedupeStore implements DedupeStore {
  readonly #now: () => number;
  readonly #claim: SqliteStatement;
  readonly #state: SqliteStatement;
  readonly #commit: SqliteStatement;
  readonly #release: SqliteStatement;
  readonly #sweep: SqliteStatement;
  #claims = 0;

  constructor(db: SqliteDatabase, options: SqliteDedupeStoreOptions = {}) {
    const table = options.table ?? 'sikaramp_webhook_keys';
    // The name goes into SQL text, where no parameter can stand for it.
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(table)) throw new RangeError('table must be letters, digits and _, starting with a letter or _');
    this.#now = options.now ?? Date.now;
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY NOT NULL, expires_at INTEGER NOT NULL, done INTEGER NOT NULL DEFAULT 0)`,
    );
    // One statement, so that two processes cannot both claim a key: a new key is inserted, an
    // expired one taken over, a live one left alone (0 rows changed).
    this.#claim = db.prepare(
      `INSERT INTO ${table} (key, expires_at, done) VALUES (?, ?, 0) ` +
        `ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at, done = 0 WHERE ${table}.expires_at <= ?`,
    );
    this.#state = db.prepare(`SELECT done FROM ${table} WHERE key = ?`);
    this.#commit = db.prepare(`UPDATE ${table} SET expires_at = ?, done = 1 WHERE key = ?`);
    this.#release = db.prepare(`DELETE FROM ${table} WHERE key = ?`);
    this.#sweep = db.prepare(`DELETE FROM ${table} WHERE expires_at <= ?`);
    this.#sweep.run(this.#now());
  }

  async claim(key: string, ttlSeconds: number): Promise<boolean | 'pending'> {
    const now = this.#now();
    if (++this.#claims % SWEEP_EVERY === 0) this.#sweep.run(now);
    if (Number(this.#claim.run(key, now + Math.ceil(ttlSeconds * 1000), now).changes) === 1) return true;
    const row = this.#state.get(key) as { done?: unknown } | undefined;
    // Gone since (its handler failed and released it): let the service retry, as for one in flight.
    return row !== undefined && Number(row.done) === 1 ? false : 'pending';
  }

  async commit(key: string, ttlSeconds: number): Promise<void> {
    this.#commit.run(this.#now() + Math.ceil(ttlSeconds * 1000), key);
  }

  async release(key: string): Promise<void> {
    this.#release.run(key);
  }
}

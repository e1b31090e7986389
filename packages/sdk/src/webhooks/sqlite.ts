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
import { OwnClaims } from './claims.js';
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

/**
 * A {@link DedupeStore} in a SQLite table: one row per key, with its expiry, whether it was
 * handled, and the id of the claim that holds it while its handler runs. Commit, release and
 * renewal act only on that claim, so a process whose lease ran out changes nothing once another
 * has claimed the key. A call without `claimId` acts on this store's own latest claim of the key.
 */
export class SqliteDedupeStore implements DedupeStore {
  readonly #now: () => number;
  readonly #claim: SqliteStatement;
  readonly #state: SqliteStatement;
  readonly #commit: SqliteStatement;
  readonly #release: SqliteStatement;
  readonly #renew: SqliteStatement;
  readonly #sweep: SqliteStatement;
  readonly #claims = new OwnClaims();
  #claimCount = 0;

  constructor(db: SqliteDatabase, options: SqliteDedupeStoreOptions = {}) {
    const table = options.table ?? 'sikaramp_webhook_keys';
    // The name goes into SQL text, where no parameter can stand for it.
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(table)) throw new RangeError('table must be letters, digits and _, starting with a letter or _');
    this.#now = options.now ?? Date.now;
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY NOT NULL, expires_at INTEGER NOT NULL, done INTEGER NOT NULL DEFAULT 0, claim TEXT)`,
    );
    addClaimColumn(db, table);
    // Each step is one statement, so that two processes cannot both claim a key, and a row
    // whose expiry passed counts as gone. A claim inserts a new key, takes over an expired one,
    // leaves a live one alone (0 rows changed).
    const upsert = (done: 0 | 1, claim: '?' | 'NULL') =>
      `INSERT INTO ${table} (key, expires_at, done, claim) VALUES (?, ?, ${done}, ${claim}) ` +
      `ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at, done = ${done}, claim = excluded.claim WHERE ${table}.expires_at <= ?`;
    this.#claim = db.prepare(upsert(0, '?'));
    this.#state = db.prepare(`SELECT done FROM ${table} WHERE key = ?`);
    // Commit and renewal also take the caller's own live claim. A handled row's claim is NULL,
    // but a process of an earlier version marks one handled without clearing it: hence done = 0.
    this.#commit = db.prepare(`${upsert(1, 'NULL')} OR (${table}.done = 0 AND ${table}.claim = ?)`);
    this.#renew = db.prepare(`${upsert(0, '?')} OR (${table}.done = 0 AND ${table}.claim = excluded.claim)`);
    this.#release = db.prepare(`DELETE FROM ${table} WHERE key = ? AND done = 0 AND claim = ?`);
    this.#sweep = db.prepare(`DELETE FROM ${table} WHERE expires_at <= ?`);
    this.#sweep.run(this.#now());
  }

  async claim(key: string, ttlSeconds: number, claimId?: string): Promise<boolean | 'pending'> {
    const now = this.#now();
    if (++this.#claimCount % SWEEP_EVERY === 0) this.#sweep.run(now);
    const { id, claimed } = this.#claims.id(key, claimId);
    if (Number(this.#claim.run(key, now + Math.ceil(ttlSeconds * 1000), id, now).changes) === 1) {
      claimed();
      return true;
    }
    const row = this.#state.get(key) as { done?: unknown } | undefined;
    // Gone since (its handler failed and released it): let the service retry, as for one in flight.
    return row !== undefined && Number(row.done) === 1 ? false : 'pending';
  }

  async commit(key: string, ttlSeconds: number, claimId?: string): Promise<void> {
    const now = this.#now();
    this.#commit.run(key, now + Math.ceil(ttlSeconds * 1000), now, this.#claims.take(key, claimId));
  }

  async release(key: string, claimId?: string): Promise<void> {
    this.#release.run(key, this.#claims.take(key, claimId));
  }

  async renew(key: string, leaseSeconds: number, claimId?: string): Promise<boolean> {
    const id = this.#claims.held(key, claimId);
    if (id === undefined) return false;
    const now = this.#now();
    return Number(this.#renew.run(key, now + Math.ceil(leaseSeconds * 1000), id, now).changes) === 1;
  }

}

/**
 * Adds the `claim` column to a table made before claims had ids. Another process may add it
 * at the same moment: its error is ignored once the column is there.
 */
function addClaimColumn(db: SqliteDatabase, table: string): void {
  const hasClaim = () => Number((db.prepare(`SELECT count(*) AS n FROM pragma_table_info('${table}') WHERE name = 'claim'`).get() as { n: unknown }).n) === 1;
  if (hasClaim()) return;
  try {
    db.exec(`ALTER TABLE ${table} ADD COLUMN claim TEXT`);
  } catch (error) {
    if (!hasClaim()) throw error;
  }
}

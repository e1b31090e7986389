/**
 * The shop's own records in SQLite (`node:sqlite`, built into Node): orders, what was shipped,
 * and every webhook event already handled. Fulfilment claims the event id and ships in ONE
 * transaction, so a redelivered event, two deliveries at once, or a restart between them can
 * never ship twice.
 *
 * It is also the one place that picks where the SDK keeps the state the shop's processes must
 * share. Without REDIS_URL: the handled webhook keys (`SqliteDedupeStore`) and which customer
 * started which widget transaction (`SqliteTransactionOwners`) in tables of the same file, so a
 * restart forgets neither and the processes of one host share them; the anchor's SEP-10 token
 * in each process's memory. With REDIS_URL, all three in Redis (`@sikaramp/sdk/redis`), shared
 * by every process of the shop on every host.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { TokenStore } from '@sikaramp/sdk';
import { SqliteTransactionOwners, type TransactionOwners } from '@sikaramp/sdk/handlers';
import { fromNodeRedis, RedisDedupeStore, RedisTokenCache, RedisTransactionOwners } from '@sikaramp/sdk/redis';
import type { DedupeStore } from '@sikaramp/sdk/webhooks/dedupe';
import { SqliteDedupeStore } from '@sikaramp/sdk/webhooks/sqlite';
import { createClient } from 'redis';

export interface Order {
  /** This database's number for it, shown to the customer ("Order 7"); never used to look it up from outside. */
  id: number;
  /**
   * How the order is named everywhere outside this database: its URLs, the payment's
   * `meta.order_id` and idempotency key. Random (a UUID), so that nobody reaches another
   * customer's order by counting.
   */
  token: string;
  /** Smallest currency unit (pesewas for GHS). */
  amount: number;
  currency: string;
  description: string;
  /** `pending` until the signed webhook says paid, then `paid`. */
  status: 'pending' | 'paid';
  /** The checkout session, once created. */
  session_id: string | null;
  reference: string | null;
  checkout_url: string | null;
  created_at: string;
  paid_at: string | null;
}

/** What handling a fulfilment event came to. */
export type FulfilResult =
  | { outcome: 'fulfilled'; order: Order }
  /** This event id was handled before: nothing happens again. */
  | { outcome: 'duplicate' }
  /** Recorded, nothing to ship: the order was already paid (another event), or is unknown. */
  | { outcome: 'ignored'; reason: string };

export interface ShopDb {
  createOrder(input: { amount: number; currency: string; description: string }): Order;
  /** The order with this token; an order number or anything else finds none. */
  getOrder(token: string): Order | undefined;
  attachCheckout(id: number, session: { session_id?: string; reference?: string; checkout_url: string }): void;
  /**
   * Marks the order paid and ships it, once: keyed on the webhook event id, in one transaction
   * with the shipment. `check` runs inside the transaction and may refuse (amount mismatch).
   */
  fulfil(eventId: string, token: string, check: (order: Order) => string | undefined): FulfilResult;
  /**
   * Where the webhook handlers keep the events they handled, across restarts: the SDK's
   * SqliteDedupeStore on this file. Fulfilment also claims its event in the shipment's own
   * transaction (`fulfil`).
   */
  webhookStore: DedupeStore;
  /** Which customer started which widget transaction: `status-url` answers only that customer, on any process. */
  transactionOwners: TransactionOwners;
  /** Where the anchor's SEP-10 token is cached: Redis with REDIS_URL (one sign-in per token lifetime for all processes), else undefined (each process's memory). */
  tokenStore: TokenStore | undefined;
  /** Shipments of an order: one per fulfilment; more than one would be a double delivery. */
  shipments(orderId: number): number;
  close(): void;
}

export function openShopDb(path: string, now: () => Date = () => new Date(), redisUrl = process.env.REDIS_URL): ShopDb {
  // Commands wait for the connection; the store bounds each wait, and a webhook that meets no Redis is answered 500.
  const redis = redisUrl ? createClient({ url: redisUrl }).on('error', (e: Error) => console.error(`redis: ${e.message}`)) : undefined;
  redis?.connect().catch((e: Error) => console.error(`redis: ${e.message}`));
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec(`
    PRAGMA journal_mode = WAL;
    -- Several processes (src/cluster.ts) write this file: wait for another's transaction instead of failing with "database is locked".
    PRAGMA busy_timeout = 5000;
    CREATE TABLE IF NOT EXISTS orders (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      token TEXT,
      amount INTEGER NOT NULL,
      currency TEXT NOT NULL,
      description TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending',
      session_id TEXT,
      reference TEXT,
      checkout_url TEXT,
      created_at TEXT NOT NULL,
      paid_at TEXT
    );
    CREATE TABLE IF NOT EXISTS webhook_events (
      event_id TEXT PRIMARY KEY,
      received_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS shipments (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      order_id INTEGER NOT NULL REFERENCES orders(id),
      event_id TEXT NOT NULL,
      shipped_at TEXT NOT NULL
    );
  `);
  // A file from before orders had tokens gains the column; its older orders have none, so no URL reaches them.
  if (!(db.prepare('PRAGMA table_info(orders)').all() as { name: string }[]).some((c) => c.name === 'token')) {
    db.exec('ALTER TABLE orders ADD COLUMN token TEXT');
  }
  db.exec('CREATE UNIQUE INDEX IF NOT EXISTS orders_token ON orders (token)');
  const insertOrder = db.prepare('INSERT INTO orders (token, amount, currency, description, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *');
  const selectOrder = db.prepare('SELECT * FROM orders WHERE token = ?');
  const updateCheckout = db.prepare('UPDATE orders SET session_id = ?, reference = ?, checkout_url = ? WHERE id = ?');
  const claimEvent = db.prepare('INSERT INTO webhook_events (event_id, received_at) VALUES (?, ?) ON CONFLICT DO NOTHING');
  const markPaid = db.prepare("UPDATE orders SET status = 'paid', paid_at = ? WHERE id = ? AND status = 'pending'");
  const ship = db.prepare('INSERT INTO shipments (order_id, event_id, shipped_at) VALUES (?, ?, ?)');
  const countShipments = db.prepare('SELECT COUNT(*) AS n FROM shipments WHERE order_id = ?');

  const getOrder = (token: string) => selectOrder.get(token) as Order | undefined;
  const at = () => now().toISOString();
  const clock = () => now().getTime();
  const shared = redis && fromNodeRedis(redis);

  return {
    createOrder: ({ amount, currency, description }) => insertOrder.get(randomUUID(), amount, currency, description, at()) as unknown as Order,
    getOrder,
    attachCheckout(id, session) {
      updateCheckout.run(session.session_id ?? null, session.reference ?? null, session.checkout_url, id);
    },
    fulfil(eventId, token, check) {
      db.exec('BEGIN IMMEDIATE');
      try {
        // The event id first: a redelivery stops here, before anything else is read or written.
        if (claimEvent.run(eventId, at()).changes === 0) {
          db.exec('ROLLBACK');
          return { outcome: 'duplicate' };
        }
        const order = getOrder(token);
        const refusal = order ? check(order) : `no order ${token}`;
        let result: FulfilResult;
        if (!order || refusal) result = { outcome: 'ignored', reason: refusal! };
        else if (markPaid.run(at(), order.id).changes === 0) result = { outcome: 'ignored', reason: `order ${token} was already paid` };
        else {
          ship.run(order.id, eventId, at());
          result = { outcome: 'fulfilled', order: getOrder(token)! };
        }
        db.exec('COMMIT');
        return result;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    // With REDIS_URL, every process (src/cluster.ts, other hosts) shares these in Redis.
    webhookStore: shared ? new RedisDedupeStore(shared) : new SqliteDedupeStore(db, { now: clock }),
    transactionOwners: shared ? new RedisTransactionOwners(shared) : new SqliteTransactionOwners(db, { now: clock }),
    tokenStore: shared && new RedisTokenCache(shared, { now: clock }),
    shipments: (orderId) => (countShipments.get(orderId) as { n: number }).n,
    close: () => {
      db.close();
      void redis?.close();
    },
  };
}

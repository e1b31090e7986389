/**
 * The durable de-duplication store (`@sikaramp/sdk/webhooks/sqlite`) on Node's own SQLite.
 * Order and ramp payment webhooks do not sign their timestamp, so a captured delivery sent
 * again with a fresh one verifies: only the handled key, kept across a restart, refuses it.
 * The delivery is a real one, POSTed by the standalone mock server to an endpoint on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RampClient } from '../src/clients/ramp.js';
import { createDeduplicator, MemoryDedupeStore, type DedupeStore, type Deduplicator } from '../src/webhooks/dedupe.js';
import { verifyWebhookDelivery, WebhookVerificationError, type WebhookEvent } from '../src/webhooks/index.js';
import { SqliteDedupeStore } from '../src/webhooks/sqlite.js';
import { newMerchant } from './helpers/clients.js';
import { outlivesItsLease, staleClaimChangesNothing } from './helpers/lease.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';

const dir = mkdtempSync(join(tmpdir(), 'sikaramp-dedupe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `webhooks-${++files}.db`);

/** One run of the merchant's server: its database handle and the recommended handler over it. */
function startProcess(file: string, store: (db: DatabaseSync) => DedupeStore = (db) => new SqliteDedupeStore(db)) {
  const db = new DatabaseSync(file);
  return { db, dedupe: createDeduplicator({ store: store(db) }), stop: () => db.close() };
}

describe('a ramp payment webhook captured and replayed after the merchant restarts', () => {
  let env: MockEnv;
  let endpoint: string;
  let secret: string;
  /** The running "process" of the merchant's server; swapped on restart. */
  let current: { dedupe: Deduplicator; stop(): void };
  const fulfilled: WebhookEvent[] = [];
  const captured: { body: Buffer; headers: IncomingHttpHeaders }[] = [];
  const answers: number[] = [];
  let close: () => Promise<void>;

  /** The handler docs/guides/webhooks.md recommends: verify, then act once per event. */
  async function handle(body: Buffer, headers: IncomingHttpHeaders): Promise<number> {
    let verified;
    try {
      verified = await verifyWebhookDelivery({ body, headers, secret, now: env.backend.clock.now() });
    } catch (error) {
      if (error instanceof WebhookVerificationError) return 400;
      throw error;
    }
    const outcome = await current.dedupe.once(verified.event, () => fulfilled.push(verified.event));
    return outcome.duplicate && outcome.pending ? 409 : 200;
  }

  beforeAll(async () => {
    env = await startStandalone({ seed: 5 });
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        captured.push({ body, headers: req.headers });
        const status = await handle(body, req.headers);
        answers.push(status);
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    close = () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  });
  afterAll(async () => {
    current?.stop();
    await close();
    await env.close();
  });

  it('verifies (the timestamp is not signed) but is not handled again', async () => {
    const file = newFile();
    current = startProcess(file);
    const merchant = await newMerchant(env);
    secret = (await merchant.client.webhook.set({ url: endpoint })).secret!;
    const { key } = await merchant.client.apiKeys.create({ key_type: 'secret' });
    env.backend.control.merchants.enableRamp(merchant.id);
    const ramp = new RampClient({ baseUrl: env.origin, secretKey: key });
    const phone = '0241234999';
    const { kyc_id } = await ramp.kyc.initiate({ first_name: 'Kwame', last_name: 'Mensah', phone, provider_name: 'MTN' });
    await ramp.kyc.verify({ kyc_id, otp_code: env.backend.control.rails.otp(phone).code });
    const order = await ramp.orders.create({
      type: 'onramp',
      fiat_amount: 150,
      destination_wallet: Keypair.random().publicKey(),
      user: { first_name: 'Kwame', last_name: 'Mensah', phone, network: 'MTN' },
    });
    await env.backend.control.rails.approvePrompt(order.reference);
    await env.backend.control.webhooks.settle();
    expect(fulfilled).toHaveLength(1);
    expect(fulfilled[0]).toMatchObject({ event: 'payment.completed', data: { meta: { ramp_order_id: order.id } } });
    const delivery = captured.find((c) => JSON.parse(c.body.toString()).event === 'payment.completed')!;

    // The merchant's server restarts; a day later the attacker replays the delivery, timestamp refreshed.
    current.stop();
    current = startProcess(file);
    await env.backend.clock.advance(86_400);
    const replay = {
      'content-type': 'application/json',
      'x-webhook-signature': String(delivery.headers['x-webhook-signature']),
      'x-webhook-timestamp': String(Math.floor(env.backend.clock.now() / 1000)),
    };
    const verified = await verifyWebhookDelivery({ body: delivery.body, headers: replay, secret, now: env.backend.clock.now() });
    expect(verified.timestampSigned).toBe(false);
    const res = await fetch(endpoint, { method: 'POST', headers: replay, body: new Uint8Array(delivery.body) });
    expect(res.status).toBe(200);
    expect(fulfilled).toHaveLength(1);

    // The in-memory store, which a restart empties, would have handled it again.
    const forgetful = createDeduplicator({ store: new MemoryDedupeStore() });
    expect(await forgetful.once(verified.event, () => 'fulfilled twice')).toEqual({ duplicate: false, result: 'fulfilled twice' });
  });
});

describe('SqliteDedupeStore', () => {
  it('keeps a key claimed by a process that died while handling it only for the lease, answering pending meanwhile', async () => {
    const file = newFile();
    let now = 0;
    const store = (db: DatabaseSync) => new SqliteDedupeStore(db, { now: () => now });
    const first = startProcess(file, store);
    const handling = first.dedupe.once('payment:PAY-1:payment.completed', () => new Promise<never>(() => {}));
    first.stop(); // the process dies with the handler still running
    void handling.catch(() => {});

    const second = startProcess(file, store);
    now = 599_000;
    expect(await second.dedupe.once('payment:PAY-1:payment.completed', () => 'ran')).toEqual({ duplicate: true, pending: true });
    now = 600_000; // the 10-minute lease is over: the service's next retry runs the handler
    expect(await second.dedupe.once('payment:PAY-1:payment.completed', () => 'ran')).toEqual({ duplicate: false, result: 'ran' });
    expect(await second.dedupe.once('payment:PAY-1:payment.completed', () => 'ran')).toEqual({ duplicate: true, pending: false });
    second.stop();
  });

  it('runs the handler once when two processes share the file and get the event together', async () => {
    const file = newFile();
    const a = startProcess(file);
    const b = startProcess(file);
    let runs = 0;
    const results = await Promise.all([a, b, a, b].map((p) => p.dedupe.once('checkout:evt_1', () => ++runs)));
    expect(runs).toBe(1);
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    a.stop();
    b.stop();
  });

  it('runs a redelivery after a failed handling, and forgets a handled key after its time to live', async () => {
    const file = newFile();
    let now = 1_000;
    const db = new DatabaseSync(file);
    const dedupe = createDeduplicator({ store: new SqliteDedupeStore(db, { now: () => now }), ttlSeconds: 3_600 });
    await expect(dedupe.once('k', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await dedupe.once('k', () => 1)).toEqual({ duplicate: false, result: 1 });
    now += 3_599_000;
    expect(await dedupe.once('k', () => 2)).toEqual({ duplicate: true, pending: false });
    now += 1_000;
    expect(await dedupe.once('k', () => 3)).toEqual({ duplicate: false, result: 3 });
    db.close();
  });

  it('keeps the claim of a handler that outlives its lease while it runs: the other process answers pending, the handler runs once', async () => {
    const file = newFile();
    const [a, b] = [new DatabaseSync(file), new DatabaseSync(file)];
    await outlivesItsLease(new SqliteDedupeStore(a), new SqliteDedupeStore(b), 'payment:PAY-9:payment.completed');
    a.close();
    b.close();
  });

  it("lets a stale claim's release, renewal and commit change nothing once another process took the key", async () => {
    const file = newFile();
    let now = 1_000;
    const db = new DatabaseSync(file);
    await staleClaimChangesNothing(new SqliteDedupeStore(db, { now: () => now }), 'k', () => (now += 300));
    db.close();
  });

  it('adds the claim column to a table made before claims had ids, keeping its keys', async () => {
    const file = newFile();
    const old = new DatabaseSync(file);
    old.exec('CREATE TABLE sikaramp_webhook_keys (key TEXT PRIMARY KEY NOT NULL, expires_at INTEGER NOT NULL, done INTEGER NOT NULL DEFAULT 0)');
    old.prepare('INSERT INTO sikaramp_webhook_keys VALUES (?, ?, ?)').run('handled', 10_000, 1);
    old.prepare('INSERT INTO sikaramp_webhook_keys VALUES (?, ?, ?)').run('in-flight', 10_000, 0);
    old.close();
    let now = 1_000;
    const [a, b] = [new DatabaseSync(file), new DatabaseSync(file)];
    const store = new SqliteDedupeStore(a, { now: () => now });
    new SqliteDedupeStore(b, { now: () => now }); // a second process, starting on the table already changed
    expect(a.prepare("SELECT name FROM pragma_table_info('sikaramp_webhook_keys')").all().map((c) => c.name)).toEqual(['key', 'expires_at', 'done', 'claim']);
    expect(await store.claim('handled', 60)).toBe(false);
    expect(await store.claim('in-flight', 60)).toBe('pending');
    now = 10_000;
    expect(await store.claim('in-flight', 60)).toBe(true);
    await store.commit('in-flight', 60);
    expect(await store.claim('in-flight', 60)).toBe(false);
    // A process of the earlier version, still running, marks a key handled as it did, leaving the claim column.
    expect(await store.claim('mixed', 60, 'stale')).toBe(true);
    a.prepare('UPDATE sikaramp_webhook_keys SET expires_at = ?, done = 1 WHERE key = ?').run(now + 60_000, 'mixed');
    expect(await store.renew('mixed', 60, 'stale')).toBe(false);
    await store.release('mixed', 'stale');
    expect(await store.claim('mixed', 60)).toBe(false);
    a.close();
    b.close();
  });

  it('uses the table named, and refuses a name that is not an identifier before touching the database', () => {
    const db = new DatabaseSync(':memory:');
    new SqliteDedupeStore(db, { table: 'shop_webhook_keys' });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: 'shop_webhook_keys' }]);
    for (const table of ['keys; DROP TABLE orders', '1abc', '', 'a"b']) {
      expect(() => new SqliteDedupeStore(db, { table })).toThrow(RangeError);
    }
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()).toEqual({ n: 1 });
    db.close();
  });
});

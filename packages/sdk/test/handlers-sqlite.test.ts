/**
 * SqliteTransactionOwners on Node's own SQLite: createRampHandlers' `status` still answers the
 * customer's transaction after the backend restarts, and on another process of the host that
 * opens the same file; owners expire after `ttlSeconds`. Against the standalone mock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient } from '../src/anchor/index.js';
import { createRampHandlers, SqliteTransactionOwners } from '../src/handlers/index.js';
import { customerInput, newWidget } from './helpers/clients.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';

const dir = mkdtempSync(join(tmpdir(), 'sikaramp-owners-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `owners-${++files}.db`);

describe('SqliteTransactionOwners', () => {
  it('answers the customer, and nothing for an unknown transaction or once ttlSeconds have passed', async () => {
    let now = Date.parse('2026-11-24T12:00:00Z');
    const owners = new SqliteTransactionOwners(new DatabaseSync(':memory:'), { ttlSeconds: 60, now: () => now });
    await owners.set('tx-1', 'cus_ama');
    expect(await owners.get('tx-1')).toBe('cus_ama');
    expect(await owners.get('tx-2')).toBeUndefined();
    now += 59_999;
    expect(await owners.get('tx-1')).toBe('cus_ama');
    now += 1;
    expect(await owners.get('tx-1')).toBeUndefined();
  });

  it('keeps owners 7 days by default, and sweeps expired rows when a handle opens the file', async () => {
    const file = newFile();
    let now = Date.parse('2026-11-24T12:00:00Z');
    const first = new DatabaseSync(file);
    await new SqliteTransactionOwners(first, { now: () => now }).set('tx-old', 'cus_ama');
    first.close();
    now += 7 * 24 * 3600 * 1000 - 1;
    const second = new DatabaseSync(file);
    expect(await new SqliteTransactionOwners(second, { now: () => now }).get('tx-old')).toBe('cus_ama');
    now += 1;
    new SqliteTransactionOwners(second, { now: () => now });
    expect(second.prepare('SELECT COUNT(*) AS n FROM sikaramp_transaction_owners').get()).toEqual({ n: 0 });
    second.close();
  });

  it('refuses a table name that is not an identifier and a ttlSeconds that is not a whole number, creating nothing', () => {
    const db = new DatabaseSync(':memory:');
    expect(() => new SqliteTransactionOwners(db, { table: 'owners; DROP TABLE x' })).toThrow(RangeError);
    for (const ttlSeconds of [0, -5, 2.5, Number.NaN]) expect(() => new SqliteTransactionOwners(db, { ttlSeconds })).toThrow(RangeError);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([]);
  });
});

describe('createRampHandlers with SqliteTransactionOwners, standalone mock', () => {
  let env: MockEnv;
  let shop: Awaited<ReturnType<typeof newWidget>>;
  const users = new Map<string, string>();
  const signer = Keypair.random();

  /** One process of the merchant's backend on `file`. */
  function backend(file: string) {
    const db = new DatabaseSync(file);
    const now = () => env.backend.clock.now();
    const handlers = createRampHandlers({
      widget: shop.widget,
      anchor: new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer, now }),
      publicKey: shop.publicKey,
      authorize: (request) => users.get(request.headers.get('cookie') ?? ''),
      owners: new SqliteTransactionOwners(db),
    });
    const post = (body: unknown) =>
      handlers.session(new Request('https://shop.example/api/ramp/session', { method: 'POST', headers: { cookie: 'ama', 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    const status = (id: string, cookie = 'ama') => handlers.status(new Request(`https://shop.example/api/ramp/status?id=${id}`, { headers: { cookie } }));
    return { post, status, stop: () => db.close() };
  }

  beforeAll(async () => {
    env = await startStandalone({ seed: 22 });
    shop = await newWidget(env);
    users.set('ama', (await shop.widget.customers.create(customerInput())).id);
    users.set('kofi', (await shop.widget.customers.create(customerInput())).id);
  });
  afterAll(() => env?.close());

  it('answers the status after a restart, and on a second process of the same file, to its customer only', async () => {
    const file = newFile();
    const before = backend(file);
    const { id } = (await (await before.post({ flow: 'sell', amount: 9 })).json()) as { id: string };
    before.stop();

    const after = backend(file);
    const other = backend(file);
    for (const process of [after, other]) {
      expect(await (await process.status(id)).json()).toMatchObject({ transaction: { id, kind: 'withdrawal' } });
      expect((await process.status(id, 'kofi')).status).toBe(404);
    }
    after.stop();
    other.stop();
  });
});

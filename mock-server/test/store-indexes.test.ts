/**
 * The store's indexes (keys by hash, sessions by gateway reference, transactions by session,
 * events by transaction and status) answer as the scans they replaced: a payment among many
 * is found by either reference and synchronized alone, and the Map keeps its index through
 * every write; a plain copy of the store (structuredClone) is scanned instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBy, IndexedMap } from '../src/state/indexed-map.js';
import { call, startInProcess, type MockEnv } from './helpers/env.js';
import { auth, complete, createKey, createPayment, PAYMENTS } from './helpers/checkout.js';

describe('payments among many (in-process)', () => {
  let env: MockEnv;
  let key: string;
  const made: { reference: string; session_id: string }[] = [];
  beforeAll(async () => {
    env = await startInProcess({ seed: 17 });
    ({ key } = await createKey(env));
    for (let i = 0; i < 300; i++) made.push(await createPayment(env, key, { amount: 1_000 + i }));
  });
  afterAll(() => env.close());

  it('finds each payment by either reference, with its own amount and status', async () => {
    const paid = made[150]!;
    expect((await complete(env, paid.reference, 'completed')).status).toBe(200);
    for (const i of [0, 150, 299]) {
      const { reference, session_id } = made[i]!;
      const byId = await call(env, 'GET', `${PAYMENTS}/${session_id}`);
      const byReference = await call(env, 'GET', `${PAYMENTS}/${reference}`);
      expect(byId.status).toBe(200);
      expect(byReference.body).toEqual(byId.body);
      expect(byId.body.data).toMatchObject({ id: session_id, reference, amount: 1_000 + i, status: i === 150 ? 'completed' : 'pending' });
    }
    // Only the verified payments' transactions were synchronized.
    const synced: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { reference: string; synced_at: string | null }[]; next_cursor: string | null } } = await call(
        env,
        'GET',
        `/api/v1/developer/transactions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { headers: auth(key) },
      );
      synced.push(...page.body.data.filter((t) => t.synced_at !== null).map((t) => t.reference));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(synced.sort()).toEqual([made[0]!, made[150]!, made[299]!].map((p) => p.reference).sort());
  });

  it('answers the same from a structuredClone of the store, whose Maps are plain', async () => {
    const { reference, session_id } = made[42]!;
    const before = await call(env, 'GET', `${PAYMENTS}/${reference}`);
    env.backend.context.store = structuredClone(env.backend.store);
    expect(env.backend.store.checkout.sessions).not.toBeInstanceOf(IndexedMap);
    const after = await call(env, 'GET', `${PAYMENTS}/${reference}`);
    expect(after.body).toEqual(before.body);
    expect((await call(env, 'GET', `${PAYMENTS}/${session_id}`)).body.data.reference).toBe(reference);
    // A malformed field is the gateway's VALIDATION_ERROR, which the checkout route answers 502 (002 section 7).
    expect((await call(env, 'POST', PAYMENTS, { body: { type: 'checkout' }, headers: auth(key) })).status).toBe(502);
  });
});

describe('IndexedMap', () => {
  const byName = (r: { name: string }) => r.name;

  it('keeps its index through set, replace, delete and clear', () => {
    const map = new IndexedMap(byName);
    const ama = { name: 'ama' };
    map.set('1', ama).set('2', { name: 'kofi' });
    expect(findBy(map, byName, 'ama')).toBe(ama);
    const renamed = { name: 'ama-2' };
    map.set('1', renamed);
    expect(findBy(map, byName, 'ama')).toBeUndefined();
    expect(findBy(map, byName, 'ama-2')).toBe(renamed);
    expect(map.delete('2')).toBe(true);
    expect(findBy(map, byName, 'kofi')).toBeUndefined();
    map.clear();
    expect(findBy(map, byName, 'ama-2')).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it('iterates, serializes and clones as a plain Map', () => {
    const map = new IndexedMap(byName).set('1', { name: 'ama' });
    expect([...map.entries()]).toEqual([['1', { name: 'ama' }]]);
    const copy = structuredClone(map);
    expect(copy).toBeInstanceOf(Map);
    expect(findBy(copy, byName, 'ama')).toEqual({ name: 'ama' });
  });
});

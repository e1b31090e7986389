import { describe, expect, it } from 'vitest';
import { createDeduplicator, DedupeLeaseError, MemoryDedupeStore, webhookEventKey, type DedupeStore } from '../src/webhooks/dedupe.js';
import { outlivesItsLease, sleep, staleClaimChangesNothing } from './helpers/lease.js';

describe('webhook de-duplication', () => {
  it('runs the handler once per event id, even for deliveries that arrive together', async () => {
    const dedupe = createDeduplicator();
    let runs = 0;
    const handler = async () => {
      runs++;
      await new Promise((r) => setImmediate(r));
      return 'fulfilled';
    };
    const results = await Promise.all([dedupe.once('evt_1', handler), dedupe.once('evt_1', handler), dedupe.once('evt_1', handler)]);
    expect(runs).toBe(1);
    expect(results.filter((r) => !r.duplicate)).toEqual([{ duplicate: false, result: 'fulfilled' }]);
    // Those that came while it ran are pending: answered non-2xx, the service retries them in case the run fails.
    expect(results.filter((r) => r.duplicate)).toEqual([
      { duplicate: true, pending: true },
      { duplicate: true, pending: true },
    ]);
    expect(await dedupe.once('evt_1', handler)).toEqual({ duplicate: true, pending: false });
    expect(await dedupe.once('evt_2', handler)).toEqual({ duplicate: false, result: 'fulfilled' });
    expect(runs).toBe(2);
  });

  it('runs a redelivery again when the first handling failed', async () => {
    const dedupe = createDeduplicator();
    await expect(dedupe.once('evt_1', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await dedupe.once('evt_1', () => 'ok')).toEqual({ duplicate: false, result: 'ok' });
  });

  it('forgets a key after its time to live', async () => {
    let now = 0;
    const dedupe = createDeduplicator({ store: new MemoryDedupeStore({ now: () => now }), ttlSeconds: 60 });
    await dedupe.once('evt_1', () => 1);
    now = 59_999;
    expect(await dedupe.once('evt_1', () => 2)).toEqual({ duplicate: true, pending: false });
    now = 60_000;
    expect(await dedupe.once('evt_1', () => 3)).toEqual({ duplicate: false, result: 3 });
  });

  it('keeps at most maxEntries keys in memory, dropping the oldest', async () => {
    const store = new MemoryDedupeStore({ maxEntries: 2 });
    expect([await store.claim('a', 60), await store.claim('b', 60), await store.claim('c', 60)]).toEqual([true, true, true]);
    expect(await store.claim('a', 60)).toBe(true);
    expect(await store.claim('c', 60)).toBe('pending');
    await store.commit('c', 60);
    expect(await store.claim('c', 60)).toBe(false);
  });

  it('uses a store of your own, such as one backed by Redis or a database', async () => {
    const calls: string[] = [];
    const table = new Set<string>();
    const store: DedupeStore = {
      async claim(key, ttl) {
        calls.push(`claim ${key} ${ttl}`);
        if (table.has(key)) return false;
        table.add(key);
        return true;
      },
      async release(key) {
        calls.push(`release ${key}`);
        table.delete(key);
      },
    };
    const dedupe = createDeduplicator({ store, ttlSeconds: 3_600 });
    await dedupe.once('evt_9', () => 'done');
    await dedupe.once('evt_9', () => 'again');
    expect(calls).toEqual(['claim evt_9 3600', 'claim evt_9 3600']);
  });

  it('keys events by checkout event id, by order and event, by payment reference and event', async () => {
    expect(webhookEventKey({ id: 'evt_1', type: 'payment.succeeded' } as never)).toBe('checkout:evt_1');
    expect(webhookEventKey({ event: 'order.completed', order_id: 'ord_1' } as never)).toBe('order:ord_1:order.completed');
    expect(webhookEventKey({ event: 'payment.failed', data: { reference: 'PAY-1' } } as never)).toBe('payment:PAY-1:payment.failed');
    const dedupe = createDeduplicator();
    const event = { event: 'order.completed', order_id: 'ord_1' } as never;
    expect((await dedupe.once(event, () => 1)).duplicate).toBe(false);
    expect((await dedupe.once(event, () => 1)).duplicate).toBe(true);
  });
});

describe('a handler that runs longer than its lease', () => {
  it('keeps its claim: the redelivery after the lease is pending, the handler runs once, its commit holds', async () => {
    const store = new MemoryDedupeStore();
    await outlivesItsLease(store, store, 'order:ord_slow:order.completed');
  });

  it("lets a stale claim's release, renewal and commit change nothing once another claim took the key", async () => {
    let now = 0;
    await staleClaimChangesNothing(new MemoryDedupeStore({ now: () => now }), 'k', () => (now += 300));
  });

  it('is told when its lease was lost (the process stalled past it): onLeaseError, the signal aborts, its release leaves the new claim', async () => {
    let now = 0;
    const store = new MemoryDedupeStore({ now: () => now });
    const errors: DedupeLeaseError[] = [];
    const dedupe = createDeduplicator({ store, leaseSeconds: 1, onLeaseError: (e) => void errors.push(e) });
    let signal!: AbortSignal;
    let secondDone!: () => void;
    const stalled = dedupe.once('evt_1', async (s) => {
      signal = s;
      // A cooperative handler checks the signal before its effect, and gives up.
      await new Promise((resolve) => s.addEventListener('abort', resolve));
      throw s.reason;
    });
    now += 2_000; // the process stalled: no renewal ran, the lease ran out, the retry claims it
    const second = dedupe.once('evt_1', () => new Promise<string>((resolve) => (secondDone = () => resolve('second'))));
    await expect(stalled).rejects.toBeInstanceOf(DedupeLeaseError);
    expect(errors).toEqual([expect.objectContaining({ name: 'DedupeLeaseError', reason: 'lost', key: 'evt_1' })]);
    expect(signal.aborted).toBe(true);
    expect(await dedupe.once('evt_1', () => 'third')).toEqual({ duplicate: true, pending: true });
    secondDone();
    expect(await second).toEqual({ duplicate: false, result: 'second' });
    expect(await dedupe.once('evt_1', () => 'third')).toEqual({ duplicate: true, pending: false });
  });

  it('reports a renewal the store failed, and goes on renewing', async () => {
    const inner = new MemoryDedupeStore();
    let renewals = 0;
    const store: DedupeStore = {
      claim: (key, ttl, id) => inner.claim(key, ttl, id),
      release: (key, id) => inner.release(key, id),
      commit: (key, ttl, id) => inner.commit(key, ttl, id),
      renew: (key, lease, id) => (++renewals === 1 ? Promise.reject(new Error('database down')) : inner.renew(key, lease, id)),
    };
    const errors: DedupeLeaseError[] = [];
    const dedupe = createDeduplicator({ store, leaseSeconds: 0.3, onLeaseError: (e) => void errors.push(e) });
    expect(await dedupe.once('evt_1', () => sleep(400).then(() => 'done'))).toEqual({ duplicate: false, result: 'done' });
    expect(renewals).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([expect.objectContaining({ reason: 'failed', message: 'Renewing the lease on evt_1 failed: database down' })]);
    expect(await inner.claim('evt_1', 60)).toBe(false);
  });

  it('runs twice with a store of your own that has commit but no renew (set leaseSeconds above your slowest handler)', async () => {
    let now = 0;
    const inner = new MemoryDedupeStore({ now: () => now });
    const store: DedupeStore = { claim: (k, t) => inner.claim(k, t), release: (k) => inner.release(k), commit: (k, t) => inner.commit(k, t) };
    const dedupe = createDeduplicator({ store, leaseSeconds: 1 });
    let runs = 0;
    let done!: () => void;
    const slow = dedupe.once('evt_1', () => (runs++, new Promise<void>((resolve) => (done = resolve))));
    now += 1_000;
    expect(await dedupe.once('evt_1', () => void runs++)).toEqual({ duplicate: false, result: undefined });
    done();
    await slow;
    expect(runs).toBe(2);
  });
});

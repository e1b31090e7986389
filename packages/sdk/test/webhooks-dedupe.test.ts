import { describe, expect, it } from 'vitest';
import { createDeduplicator, MemoryDedupeStore, webhookEventKey, type DedupeStore } from '../src/webhooks/dedupe.js';

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

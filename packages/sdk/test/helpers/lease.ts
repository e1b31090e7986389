/**
 * What every de-duplication store must do for a handler that runs longer than its lease, in
 * real time (a 1 s lease, renewed every third of it): the redelivery that arrives after the
 * lease would have run out is still pending, the handler runs once, and its commit holds.
 * The stores' test files run it against the memory store, a SQLite file and a real Redis.
 */
import { expect } from 'vitest';
import { createDeduplicator, type DedupeStore } from '../../src/webhooks/dedupe.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `first` runs a handler that takes 1.6 s under a 1 s lease; `second` (another process's store
 * on the same keys, or the same store) gets the event at 1.3 s, and again after it was handled.
 */
export async function outlivesItsLease(first: DedupeStore, second: DedupeStore, key: string): Promise<void> {
  const leaseErrors: unknown[] = [];
  const options = { leaseSeconds: 1, onLeaseError: (error: unknown) => void leaseErrors.push(error) };
  let runs = 0;
  const slow = createDeduplicator({ store: first, ...options }).once(key, async () => {
    runs++;
    await sleep(1_600);
    return 'fulfilled';
  });
  const retry = createDeduplicator({ store: second, ...options });
  await sleep(1_300);
  expect(await retry.once(key, () => runs++)).toEqual({ duplicate: true, pending: true });
  expect(await slow).toEqual({ duplicate: false, result: 'fulfilled' });
  expect(await retry.once(key, () => runs++)).toEqual({ duplicate: true, pending: false });
  expect(runs).toBe(1);
  expect(leaseErrors).toEqual([]);
}

/**
 * Claim `a` whose lease ran out (`expire` waits it out) and claim `b` that took the key since:
 * `a`'s release, renewal and commit change nothing; `b`'s renewal and commit hold.
 */
export async function staleClaimChangesNothing(store: DedupeStore, key: string, expire: () => unknown): Promise<void> {
  expect(await store.claim(key, 0.2, 'a')).toBe(true);
  await expire();
  expect(await store.claim(key, 60, 'b')).toBe(true);
  await store.release(key, 'a');
  expect(await store.claim(key, 60, 'c')).toBe('pending');
  expect(await store.renew!(key, 60, 'a')).toBe(false);
  await store.commit!(key, 3_600, 'a');
  expect(await store.claim(key, 60, 'c')).toBe('pending');
  expect(await store.renew!(key, 60, 'b')).toBe(true);
  await store.commit!(key, 3_600, 'b');
  await store.release(key, 'b');
  expect(await store.claim(key, 60, 'c')).toBe(false);
}

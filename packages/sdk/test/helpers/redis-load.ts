/**
 * The load both Redis cluster tests (this package's and merchant-express's) put on a shop:
 * the mock fires `events` checkout payment.succeeded webhooks for `reference`, `concurrency`
 * at a time, and redelivers `duplicates` of them, half while the first delivery is still in
 * flight and half after the answers. Redis's stats are reset first and its ops/s sampled.
 */
import type { MockBackend } from '@sikaramp/mock-server';

/** What of a node-redis client the load reads. */
export interface RedisStats {
  configResetStat(): Promise<unknown>;
  info(section: string): Promise<string>;
}

export interface Load {
  reference: string;
  events: number;
  duplicates: number;
  concurrency: number;
}

/** Runs `task` for each item, `limit` at a time. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<unknown>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
    }),
  );
}

export async function deliverLoad(backend: MockBackend, client: RedisStats, { reference, events, duplicates, concurrency }: Load) {
  const { webhooks } = backend.control;
  await client.configResetStat();
  let peakOps = 0;
  const sampler = setInterval(() => {
    void client.info('stats').then((s) => (peakOps = Math.max(peakOps, Number(/instantaneous_ops_per_sec:(\d+)/.exec(s)?.[1] ?? 0))));
  }, 100);
  const started = performance.now();

  // Every fourth event is delivered again while its first delivery is still in flight.
  const concurrent = new Set(Array.from({ length: duplicates / 2 }, (_, i) => i * 4));
  await pool([...Array(events).keys()], concurrency, async (i) => {
    const fired = webhooks.fire({ kind: 'checkout', event: 'payment.succeeded', id: reference });
    // fire queues its delivery before it first waits: the newest one is this event's.
    const delivery = [...backend.store.deliveries.values()].at(-1)!;
    await Promise.all([fired, concurrent.has(i) ? webhooks.redeliver(delivery.id) : undefined]);
  });
  // The other half of the redeliveries come after the first ones were answered.
  const deliveries = webhooks.list({ event: 'payment.succeeded' });
  await pool(deliveries.filter((_, i) => i % 4 === 2).slice(0, duplicates / 2), concurrency, (d) => webhooks.redeliver(d.id));
  await webhooks.settle();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { deliveries, seconds, peakOps };
}

/** Calls of each Redis command since the stats were reset (INFO commandstats). */
export async function commandCalls(client: RedisStats): Promise<Record<string, number>> {
  return Object.fromEntries([...(await client.info('commandstats')).matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)].map(([, name, calls]) => [name!, Number(calls)]));
}

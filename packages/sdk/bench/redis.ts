/**
 * What de-duplicating one webhook costs, store by store: `once` with a new event key (a claim,
 * then a commit) in memory, in a SQLite file, and in a real redis-server on 127.0.0.1 through
 * node-redis and ioredis. The CPU column is this process's only: Redis's own work is not in it.
 * `node bench/redis.ts` runs it alone (after `pnpm build`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { fromIoredis, fromNodeRedis, RedisDedupeStore } from '../dist/redis/index.js';
import { createDeduplicator, MemoryDedupeStore, type DedupeStore } from '../dist/webhooks/dedupe.js';
import { SqliteDedupeStore } from '../dist/webhooks/sqlite.js';
import { startRedis } from '../test/helpers/redis.ts';
import { compare, fmt, ratio } from './measure.ts';

export async function benchRedis() {
  const server = await startRedis();
  const nodeRedis = createClient({ url: server.url });
  await nodeRedis.connect();
  const ioredis = new Redis(server.url);
  const dir = mkdtempSync(join(tmpdir(), 'sikaramp-bench-'));
  const sqlite = new DatabaseSync(join(dir, 'keys.db'));
  sqlite.exec('PRAGMA journal_mode = WAL');
  try {
    let n = 0;
    const contender = (name: string, store: DedupeStore) => {
      const dedupe = createDeduplicator({ store });
      return { name, run: () => dedupe.once(`checkout:evt_${++n}`, () => undefined) };
    };
    const contenders = [
      contender('MemoryDedupeStore (one process)', new MemoryDedupeStore()),
      contender('SqliteDedupeStore (node:sqlite file, WAL)', new SqliteDedupeStore(sqlite)),
      contender('RedisDedupeStore, node-redis', new RedisDedupeStore(fromNodeRedis(nodeRedis))),
      contender('RedisDedupeStore, ioredis', new RedisDedupeStore(fromIoredis(ioredis))),
    ];
    const sequential = await compare(contenders, { ms: 500, rounds: 3 });
    // Deliveries arrive several at a time: a client pipelines them on its one connection.
    const concurrent = await compare(contenders, { ms: 500, rounds: 3, concurrency: 32 });
    const [memory, , redis] = sequential;
    return {
      rows: contenders.map((c, i) => [
        c.name,
        fmt(sequential[i]!.opsPerSecond),
        `${(1000 / sequential[i]!.opsPerSecond).toFixed(3)} ms`,
        `${sequential[i]!.cpuMicros.toFixed(1)} µs`,
        fmt(concurrent[i]!.opsPerSecond),
      ]),
      summary: [
        `RedisDedupeStore (node-redis) / memory: ${ratio(memory!.opsPerSecond, redis!.opsPerSecond)} slower one at a time; ` +
          `two round trips to Redis per webhook (claim, commit), ${(1000 / redis!.opsPerSecond).toFixed(3)} ms, against a webhook's own HTTP exchange`,
      ],
    };
  } finally {
    await nodeRedis.close();
    ioredis.disconnect();
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
    await server.stop();
  }
}

export const REDIS_HEAD = ['store: once() with a new key', 'webhooks/s', 'mean latency', 'CPU per webhook (this process)', 'webhooks/s, 32 in flight'];

if (import.meta.main) {
  const { rows, summary } = await benchRedis();
  console.log([REDIS_HEAD, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n'));
  console.log(`\n${summary.join('\n')}`);
}

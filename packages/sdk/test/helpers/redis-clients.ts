/**
 * node-redis and ioredis clients as the Redis stores take them, for tests that stop Redis on
 * purpose: they retry every 50 ms (ioredis queues without limit) and swallow connection errors.
 * Each client's close is pushed to `closers`, for the test file's afterAll.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import { fromIoredis, fromNodeRedis, type RedisScriptRunner } from '../../src/redis/index.js';
import { startRedis, type RedisServer } from './redis.js';

export function redisRunners(url: () => string, closers: (() => Promise<unknown>)[]) {
  return {
    async nodeRedis(options: { disableOfflineQueue?: boolean } = {}): Promise<RedisScriptRunner> {
      const client = createClient({ url: url(), ...options, socket: { reconnectStrategy: () => 50 } });
      client.on('error', () => undefined);
      await client.connect();
      closers.push(() => client.close());
      return fromNodeRedis(client);
    },
    async ioredis(): Promise<RedisScriptRunner> {
      const client = new Redis(url(), { retryStrategy: () => 50, maxRetriesPerRequest: null });
      client.on('error', () => undefined);
      closers.push(async () => client.disconnect());
      return fromIoredis(client);
    },
  };
}

/**
 * A test file's Redis: a redis-server started before its tests and stopped after them, with the
 * clients it opened; `redis` is the server (its `stop` and `start` let a test take it away),
 * `fresh` a key no other test uses.
 */
export function redisSuite() {
  let server: RedisServer | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const close of closers) await close().catch(() => undefined);
    await server?.stop();
  });
  let n = 0;
  return {
    get redis(): RedisServer {
      return server!;
    },
    /** Closes run after the file's tests: push a client the test opens itself. */
    closers,
    ...redisRunners(() => server!.url, closers),
    fresh: (name: string) => `${name}-${++n}-${Date.now()}`,
  };
}

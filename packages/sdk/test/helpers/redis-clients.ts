/**
 * node-redis and ioredis clients as the Redis stores take them, for tests that stop Redis on
 * purpose: they retry every 50 ms (ioredis queues without limit) and swallow connection errors.
 * Each client's close is pushed to `closers`, for the test file's afterAll.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { fromIoredis, fromNodeRedis, type RedisScriptRunner } from '../../src/redis/index.js';

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

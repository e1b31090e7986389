/**
 * @sikaramp/sdk/redis: the webhook de-duplication store, the token cache and the ramp
 * handlers' transaction owners on Redis, for a merchant running several processes or hosts.
 * Takes your own node-redis or ioredis client (neither is a dependency of the SDK); each
 * operation is one atomic Lua script.
 *
 * ```ts
 * import { createClient } from 'redis';
 * import { createWebhookHandler } from '@sikaramp/sdk/handlers';
 * import { fromNodeRedis, RedisDedupeStore } from '@sikaramp/sdk/redis';
 * const redis = fromNodeRedis(await createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true }).connect());
 * const handler = createWebhookHandler({ secret, store: new RedisDedupeStore(redis), onEvent });
 * ```
 */
export {
  fromIoredis,
  fromNodeRedis,
  RedisStoreError,
  type IoredisClientLike,
  type NodeRedisClientLike,
  type RedisScriptRunner,
  type RedisStoreErrorReason,
  type RedisStoreOptions,
} from './client.js';
export { RedisDedupeStore } from './dedupe.js';
export { RedisTransactionOwners, type RedisTransactionOwnersOptions } from './owners.js';
export { RedisTokenCache, type RedisTokenCacheOptions } from './token-cache.js';

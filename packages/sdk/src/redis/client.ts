/**
 * The one thing the Redis stores ask of a client: run a Lua script, which Redis runs
 * atomically. The merchant passes the client they already have, so that the SDK depends on
 * none: node-redis through {@link fromNodeRedis}, ioredis through {@link fromIoredis}, any
 * other client by writing the one `eval` itself.
 */
import { SikarampError } from '../core/errors.js';

/** Runs `script` with `keys` as KEYS and `args` as ARGV and resolves to its reply. */
export interface RedisScriptRunner {
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

/** The part of a node-redis client (`redis` v4 and later, connected) the adapter calls. */
export interface NodeRedisClientLike {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** The part of an ioredis client the adapter calls. */
export interface IoredisClientLike {
  eval(script: string, numkeys: number, ...keysAndArgs: string[]): Promise<unknown>;
}

/** node-redis: `fromNodeRedis(await createClient({ url }).connect())`. */
export function fromNodeRedis(client: NodeRedisClientLike): RedisScriptRunner {
  return { eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) };
}

/** ioredis: `fromIoredis(new Redis(url))`. */
export function fromIoredis(client: IoredisClientLike): RedisScriptRunner {
  return { eval: (script, keys, args) => client.eval(script, keys.length, ...keys, ...args) };
}

/** Why a Redis store call failed: no answer in time, or an error from the client (connection refused, closed, a script error). */
export type RedisStoreErrorReason = 'timeout' | 'failed';

/**
 * Redis did not do what a store asked. Nothing is known to be recorded: the webhook handler
 * answers 500 and the service delivers again.
 */
export class RedisStoreError extends SikarampError {
  override name = 'RedisStoreError';
  readonly reason: RedisStoreErrorReason;
  constructor(reason: RedisStoreErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** Options of both Redis stores. */
export interface RedisStoreOptions {
  /** Prepended to every key the store writes. Default `sikaramp:`. */
  prefix?: string;
  /**
   * Longest wait for one Redis call, ms; then RedisStoreError `timeout`. Default 2000. A client
   * that queues commands while it reconnects would otherwise hold the webhook until it times out.
   */
  timeoutMs?: number;
}

const DEFAULT_PREFIX = 'sikaramp:';
const DEFAULT_TIMEOUT_MS = 2000;

/** What a store runs its scripts with: one key, under the store's prefix and `namespace`, each call bounded by `timeoutMs`. */
export type KeyedScript = (script: string, key: string, ...args: string[]) => Promise<unknown>;

/** The {@link KeyedScript} of a store whose keys are `<prefix><namespace><key>`. */
export function keyedScript(redis: RedisScriptRunner, options: RedisStoreOptions, namespace: string): KeyedScript {
  const prefix = `${options.prefix ?? DEFAULT_PREFIX}${namespace}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return (script, key, ...args) => runScript(redis, timeoutMs, script, [prefix + key], args);
}

/** Runs a script through `redis`, bounded by `timeoutMs`; every failure becomes a RedisStoreError. */
async function runScript(redis: RedisScriptRunner, timeoutMs: number, script: string, keys: string[], args: string[]): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reply = (async () => redis.eval(script, keys, args))();
  // A late failure after the timeout has nobody waiting for it.
  reply.catch(() => undefined);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisStoreError('timeout', `Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([reply, timeout]);
  } catch (cause) {
    if (cause instanceof RedisStoreError) throw cause;
    throw new RedisStoreError('failed', `Redis failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * RedisTransactionOwners against a real redis-server on 127.0.0.1, through node-redis and
 * ioredis: what it records and for how long, and, behind createRampHandlers against the
 * standalone mock, that two handler instances (two processes behind a load balancer) answer
 * each other's transactions; that a Redis which fails is a RedisStoreError and a 500, never a
 * 404 that would tell the widget the transaction does not exist; and that a Redis restarted
 * without persistence forgets the owners (404), as the scaling guide says.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient } from '../src/anchor/index.js';
import { createRampHandlers } from '../src/handlers/index.js';
import { fromIoredis, RedisStoreError, RedisTokenCache, RedisTransactionOwners, type RedisScriptRunner } from '../src/redis/index.js';
import { customerInput, newWidget } from './helpers/clients.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';
import { redisSuite } from './helpers/redis-clients.js';
import { freePort } from './helpers/redis.js';

const suite = redisSuite();
const { nodeRedis, ioredis, fresh, closers } = suite;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each([
  ['node-redis', nodeRedis],
  ['ioredis', ioredis],
])('RedisTransactionOwners through %s', (_name, connect) => {
  let runner: RedisScriptRunner;
  beforeAll(async () => {
    runner = await connect();
  });

  it('answers the customer recorded by another instance, and nothing for an unknown transaction', async () => {
    const tx = fresh('tx');
    await new RedisTransactionOwners(runner).set(tx, 'cus_ama');
    expect(await new RedisTransactionOwners(runner).get(tx)).toBe('cus_ama');
    expect(await new RedisTransactionOwners(runner).get(fresh('tx'))).toBeUndefined();
  });

  it('keeps an owner 7 days by default, under <prefix>owner:<id>', async () => {
    const tx = fresh('tx');
    await new RedisTransactionOwners(runner, { prefix: 'shop:' }).set(tx, 'cus_ama');
    const client = createClient({ url: suite.redis.url });
    await client.connect();
    try {
      expect(await client.get(`shop:owner:${tx}`)).toBe('cus_ama');
      const ttl = await client.ttl(`shop:owner:${tx}`);
      expect(ttl).toBeGreaterThan(7 * 24 * 3600 - 5);
      expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600);
    } finally {
      await client.close();
    }
    // Another prefix is another shop: it does not see this one's owners.
    expect(await new RedisTransactionOwners(runner).get(tx)).toBeUndefined();
  });

  it('forgets an owner after ttlSeconds', async () => {
    const owners = new RedisTransactionOwners(runner, { ttlSeconds: 1 });
    const tx = fresh('tx');
    await owners.set(tx, 'cus_ama');
    expect(await owners.get(tx)).toBe('cus_ama');
    await sleep(1_100);
    expect(await owners.get(tx)).toBeUndefined();
  });
});

describe('RedisTransactionOwners with no Redis listening', () => {
  it('rejects with RedisStoreError: failed from a client that does not queue, timeout from one that does', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const refusing = new Redis(url, { enableOfflineQueue: false, retryStrategy: () => 50 });
    const queueing = new Redis(url, { retryStrategy: () => 50, maxRetriesPerRequest: null });
    for (const client of [refusing, queueing]) {
      client.on('error', () => undefined);
      closers.push(async () => client.disconnect());
    }
    const failed = await new RedisTransactionOwners(fromIoredis(refusing)).get('tx').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RedisStoreError);
    expect((failed as RedisStoreError).reason).toBe('failed');
    const started = Date.now();
    const late = await new RedisTransactionOwners(fromIoredis(queueing), { timeoutMs: 200 }).set('tx', 'cus_ama').catch((error: unknown) => error);
    expect(late).toBeInstanceOf(RedisStoreError);
    expect((late as RedisStoreError).reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('RedisTransactionOwners options', () => {
  it('refuses a ttlSeconds that is not a whole number of seconds, 1 or more', () => {
    const runner: RedisScriptRunner = { eval: async () => null };
    for (const ttlSeconds of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new RedisTransactionOwners(runner, { ttlSeconds })).toThrow(RangeError);
    }
  });
});

describe('createRampHandlers on two instances sharing RedisTransactionOwners, standalone mock', () => {
  let env: MockEnv;
  const users = new Map<string, string>();
  const errors: unknown[] = [];
  let instances: ReturnType<typeof createRampHandlers>[];
  const wallet = Keypair.random().publicKey();
  const signer = Keypair.random();

  const post = (handlers: (typeof instances)[number], body: unknown, cookie = 'ama') =>
    handlers.session(
      new Request('https://shop.example/api/ramp/session', { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    );
  const status = (handlers: (typeof instances)[number], id: string, cookie = 'ama') =>
    handlers.status(new Request(`https://shop.example/api/ramp/status?id=${encodeURIComponent(id)}`, { headers: { cookie } }));

  beforeAll(async () => {
    env = await startStandalone({ seed: 21 });
    const shop = await newWidget(env);
    users.set('ama', (await shop.widget.customers.create(customerInput())).id);
    users.set('kofi', (await shop.widget.customers.create(customerInput())).id);
    const now = () => env.backend.clock.now();
    // As two processes would: each its own client, anchor client and stores, one Redis.
    instances = await Promise.all(
      [nodeRedis, ioredis].map(async (connect) => {
        const runner = await connect();
        return createRampHandlers({
          widget: shop.widget,
          anchor: new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer, now, tokenStore: new RedisTokenCache(runner, { now }) }),
          publicKey: shop.publicKey,
          authorize: (request) => users.get(request.headers.get('cookie') ?? ''),
          owners: new RedisTransactionOwners(runner, { timeoutMs: 300 }),
          onError: (error) => void errors.push(error),
        });
      }),
    );
  });
  afterAll(() => env?.close());

  it('answers the status on the instance that did not start the transaction, to its customer only', async () => {
    const [a, b] = instances as [(typeof instances)[number], (typeof instances)[number]];
    const buy = (await (await post(a, { flow: 'buy', amount: 100, destination: wallet })).json()) as { id: string };
    const sell = (await (await post(b, { flow: 'sell', amount: 5 })).json()) as { id: string };
    expect(await (await status(b, buy.id)).json()).toMatchObject({ transaction: { id: buy.id, kind: 'deposit' } });
    expect(await (await status(a, sell.id)).json()).toMatchObject({ transaction: { id: sell.id, kind: 'withdrawal' } });
    expect((await status(b, buy.id, 'kofi')).status).toBe(404);
    expect(errors).toEqual([]);
  });

  it('answers 500 while Redis is down, never 404, and reports the RedisStoreError; a Redis restarted empty forgets the owners', async () => {
    const [a, b] = instances as [(typeof instances)[number], (typeof instances)[number]];
    const { id } = (await (await post(a, { flow: 'sell', amount: 7 })).json()) as { id: string };
    expect((await status(b, id)).status).toBe(200);
    await suite.redis.stop();
    try {
      for (const handlers of instances) {
        const res = await status(handlers, id);
        expect(res.status).toBe(500);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('internal_error');
      }
      expect(errors).toHaveLength(2);
      for (const error of errors) expect(error).toBeInstanceOf(RedisStoreError);
    } finally {
      await suite.redis.start();
    }
    // Without persistence Redis came back empty: the owner is gone, so is the cached token.
    let res = await status(b, id);
    for (let i = 0; i < 40 && res.status === 500; i++) res = await sleep(50).then(() => status(b, id));
    expect(res.status).toBe(404);
  });
});

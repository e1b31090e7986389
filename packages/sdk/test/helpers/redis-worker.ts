/**
 * One merchant process for the Redis tests, run by `forkWorkers` (bundled from source, forked
 * with an IPC channel): a webhook endpoint on 127.0.0.1 backed by RedisDedupeStore, and an
 * AnchorClient whose SEP-10 token lives in RedisTokenCache. The parent drives it with messages
 * and hears back what its handler ran and how many sign-ins it made. With `cluster`, it is the
 * node:cluster primary of that many such workers on one port, relaying messages both ways.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { Keypair, TransactionBuilder } from '@stellar/stellar-sdk';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { AnchorClient } from '../../src/anchor/index.js';
import { createWebhookHandler } from '../../src/handlers/index.js';
import { fromIoredis, fromNodeRedis, RedisDedupeStore, RedisTokenCache, type RedisScriptRunner } from '../../src/redis/index.js';
import type { WebhookEvent } from '../../src/webhooks/index.js';

export interface WorkerConfig {
  redisUrl: string;
  client: 'node-redis' | 'ioredis';
  secret: string;
  anchorUrl: string;
  /** The Stellar secret all workers sign in with: one account, so one shared token. */
  stellarSecret: string;
  lockMs: number;
  /** How long onEvent takes, ms. */
  handlerMs: number;
  /** Order (and ramp payment) webhooks, or checkout's. Default order. */
  kind?: 'order' | 'checkout';
  /** Where to listen. Default 0: any free port (in a cluster, one for all workers). */
  port?: number;
  /** Run as the node:cluster primary of this many workers. */
  cluster?: number;
}

/** Parent → worker. */
export type WorkerCommand =
  | { cmd: 'auth'; id: number; offset: number; hang?: boolean }
  | { cmd: 'fail'; on: boolean };

/** Worker → parent. */
export type WorkerMessage =
  | { type: 'ready'; port: number }
  | { type: 'ran'; key: string; failed: boolean; pid: number }
  | { type: 'signing' }
  | { type: 'token'; id: number; token: string; signIns: number }
  | { type: 'error'; id: number; message: string };

const config = JSON.parse(process.env.SIKARAMP_WORKER!) as WorkerConfig;
const send = (message: WorkerMessage) => process.send!(message);

if (config.cluster && cluster.isPrimary) {
  const workers = Array.from({ length: config.cluster }, () => cluster.fork());
  let ready = 0;
  for (const worker of workers) {
    worker.on('message', (message: WorkerMessage) => {
      if (message.type !== 'ready') send(message);
      else if (++ready === workers.length) send(message);
    });
  }
  process.on('message', (command: WorkerCommand) => workers.forEach((worker) => worker.send(command)));
  process.on('SIGTERM', () => {
    for (const worker of workers) worker.kill();
    process.exit(0);
  });
} else await serve();

/** A worker: the webhook endpoint and the anchor client, on one Redis. */
async function serve() {
  const redis = await connect();
  let failing = false;
  let offset = 0;
  let hang = false;
  let signIns = 0;
  const now = () => Date.now() + offset;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const fulfil = async (key: string) => {
    await sleep(config.handlerMs);
    send({ type: 'ran', key, failed: failing, pid: process.pid });
    if (failing) throw new Error('the shop database is down');
  };
  const common = { secret: config.secret, store: new RedisDedupeStore(redis), onError: () => undefined };
  const handler =
    config.kind === 'checkout'
      ? createWebhookHandler({ ...common, kind: 'checkout', onEvent: (event) => fulfil(event.id) })
      : createWebhookHandler({ ...common, onEvent: (event: WebhookEvent) => fulfil('order_id' in event ? event.order_id : event.data.reference) });

  const keypair = Keypair.fromSecret(config.stellarSecret);
  const anchor = new AnchorClient({
    anchorUrl: config.anchorUrl,
    account: keypair.publicKey(),
    // Hangs when told to, so that the parent can kill this process while it holds the lock.
    signer: async (xdr, passphrase) => {
      if (hang) {
        send({ type: 'signing' });
        await new Promise(() => undefined);
      }
      const tx = TransactionBuilder.fromXDR(xdr, passphrase);
      tx.sign(keypair);
      return tx.toXDR();
    },
    tokenStore: new RedisTokenCache(redis, { lockMs: config.lockMs, pollMs: 20, now }),
    // A secret every process of this shop holds: a signer function has none to key the shared token.
    tokenCacheKey: config.secret,
    now,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/auth') && response.ok) signIns++;
      return response;
    },
  });

  process.on('message', (command: WorkerCommand) => {
    if (command.cmd === 'fail') failing = command.on;
    if (command.cmd !== 'auth') return;
    offset = command.offset;
    hang = command.hang ?? false;
    anchor.authenticate().then(
      (token) => send({ type: 'token', id: command.id, token, signIns }),
      (error: unknown) => send({ type: 'error', id: command.id, message: String(error) }),
    );
  });

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const response = await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) }));
    res.writeHead(response.status, { 'content-type': 'application/json' }).end(await response.text());
  });
  server.listen(config.port ?? 0, '127.0.0.1', () => send({ type: 'ready', port: (server.address() as { port: number }).port }));
}

async function connect(): Promise<RedisScriptRunner> {
  if (config.client === 'ioredis') return fromIoredis(new Redis(config.redisUrl));
  return fromNodeRedis(await createClient({ url: config.redisUrl }).connect());
}

/**
 * The shop as src/cluster.ts runs it, for the tests of several processes: seeded on the given
 * mock as the demo seeds it, CLUSTER_PORTS=each so that the test, as the load balancer, picks
 * the process of each request. No SIKARAMP_STELLAR_SECRET: src/cluster.ts gives its workers
 * one account.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { MockServer } from '@sikaramp/mock-server';
import type { Config } from '../src/config.ts';
import { seedMock } from '../src/seed.ts';
import { tempDatabase } from './helpers.ts';

export interface ClusterShop {
  config: Config;
  /** Each worker's own address, `http://127.0.0.1:<PORT + i>`. */
  workers: string[];
  /** What the primary and its workers printed. */
  output(): string;
  stop(): Promise<void>;
}

/** A port whose next `count - 1` ports are free too, on 127.0.0.1. */
async function freePorts(count: number): Promise<number> {
  const listen = (port: number) =>
    new Promise<ReturnType<typeof createServer> | undefined>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(undefined));
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  for (;;) {
    const first = (await listen(0))!;
    const port = (first.address() as { port: number }).port;
    const rest = [];
    for (let i = 1; i < count; i++) rest.push(await listen(port + i));
    await Promise.all([first, ...rest].map((s) => s && new Promise((resolve) => s.close(resolve))));
    if (rest.every(Boolean)) return port;
  }
}

/** src/cluster.ts with the seeded `config` in its environment, `env` on top; REDIS_URL only from `env`. */
export function spawnCluster(config: Config, env: Record<string, string>): ChildProcess {
  const { REDIS_URL: _ignored, ...inherited } = process.env;
  return spawn(process.execPath, ['--experimental-strip-types', '--experimental-sqlite', 'src/cluster.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited,
      PUBLIC_URL: config.publicUrl,
      DATABASE_PATH: config.databasePath,
      SIKARAMP_BASE_URL: config.baseUrl,
      SIKARAMP_ANCHOR_URL: config.anchorUrl,
      SIKARAMP_PUBLIC_KEY: config.publicKey,
      SIKARAMP_SECRET_KEY: config.secretKey,
      SIKARAMP_WEBHOOK_SECRET: config.webhookSecret,
      SIKARAMP_CUSTOMER_ID: config.customer.id,
      SIKARAMP_CHECKOUT_API_KEY: config.checkoutApiKey,
      SIKARAMP_CHECKOUT_WEBHOOK_SECRET: config.checkoutWebhookSecret,
      SIKARAMP_RAMP_PHONE: config.customer.phone,
      ...env,
    },
  });
}

export async function startClusterShop(mock: MockServer, { count, redisUrl }: { count: number; redisUrl?: string }): Promise<ClusterShop> {
  const port = await freePorts(count);
  const { config } = await seedMock({ mockUrl: mock.url, publicUrl: `http://127.0.0.1:${port}`, port, databasePath: tempDatabase() });
  const workers = Array.from({ length: count }, (_, i) => `http://127.0.0.1:${port + i}`);
  const shop = spawnCluster(config, {
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    PORT: String(port),
    CLUSTER_WORKERS: String(count),
    CLUSTER_PORTS: 'each',
  });
  let output = '';
  shop.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  shop.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const stop = async () => {
    if (shop.exitCode !== null) return;
    const exited = new Promise((resolve) => shop.once('exit', resolve));
    shop.kill('SIGTERM');
    await exited;
  };
  const up = (url: string) => fetch(`${url}/`).then((r) => r.ok, () => false);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && shop.exitCode === null && !(await Promise.all(workers.map(up))).every(Boolean)) await new Promise((r) => setTimeout(r, 100));
  if (!(await Promise.all(workers.map(up))).every(Boolean)) {
    await stop();
    throw new Error(`the shop did not start:\n${output}`);
  }
  return { config, workers, output: () => output, stop };
}

/** What the shop's page sends to `session-url`, through `worker`; throws unless 200. */
export async function startTransaction(shop: ClusterShop, worker: number, body: unknown): Promise<{ url: string; id: string }> {
  const res = await fetch(`${shop.workers[worker]}/api/ramp/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: shop.config.publicUrl },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`session-url on worker ${worker}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { url: string; id: string };
}

/** `status-url` through `worker`. */
export async function readStatus(shop: ClusterShop, worker: number, id: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${shop.workers[worker]}/api/ramp/status?id=${encodeURIComponent(id)}`);
  return { status: res.status, body: await res.json() };
}

/** The SEP-10 challenges the mock anchor exchanged for a token: one per sign-in. */
export const signIns = (mock: MockServer) => mock.backend.store.anchor.usedChallenges.size;

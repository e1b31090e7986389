/**
 * The shop as several processes on one host (node:cluster): the primary forks CLUSTER_WORKERS
 * workers (default one per core), each running the same app on the same PORT, and the primary
 * spreads the connections among them; with CLUSTER_PORTS=each, worker i listens alone on
 * PORT + i instead, for a load balancer of your own in front (nginx upstreams). With REDIS_URL
 * they share the handled webhook keys, the widget transactions' owners and the anchor's SEP-10
 * token in Redis, with each other and with processes on other hosts; without it the keys and
 * owners are in the SQLite file, which processes of one host share, and each process signs in
 * to the anchor itself. The orders stay in the SQLite file.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 CLUSTER_WORKERS=4 node --experimental-strip-types --experimental-sqlite src/cluster.ts
 */
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { loadConfig } from './config.ts';
import { startShop } from './server.ts';

// Read in every process: a missing variable stops the primary before it forks anything.
const config = loadConfig();

if (cluster.isPrimary) {
  const count = Number(process.env.CLUSTER_WORKERS ?? availableParallelism());
  if (!Number.isInteger(count) || count < 1) throw new Error('CLUSTER_WORKERS must be a whole number of processes, 1 or more.');
  const each = process.env.CLUSTER_PORTS === 'each';
  if (!each && (process.env.CLUSTER_PORTS ?? 'shared') !== 'shared') throw new Error('CLUSTER_PORTS must be shared (the default) or each.');
  // Every worker signs in to the anchor as one account (config.ts makes a new one per process
  // without SIKARAMP_STELLAR_SECRET): the anchor shows a transaction to the SEP-10 account that
  // started it, and the shared token is that account's. And all answer for one PUBLIC_URL.
  const shared = { SIKARAMP_STELLAR_SECRET: config.stellarAccount.secret(), PUBLIC_URL: config.publicUrl };
  /** Which slot (port offset) each worker fills, so that a replacement takes its port. */
  const slots = new Map<number, number>();
  const fork = (slot: number) => slots.set(cluster.fork(each ? { ...shared, PORT: String(config.port + slot) } : shared).id, slot);
  for (let i = 0; i < count; i++) fork(i);
  // A worker that dies is replaced; one stopped on purpose (SIGTERM to the primary) is not.
  let stopping = false;
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    fork(slots.get(worker.id)!);
    slots.delete(worker.id);
  });
  process.on('SIGTERM', () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
  });
  const ports = each ? `ports ${config.port} to ${config.port + count - 1}` : `port ${config.port}`;
  const state = process.env.REDIS_URL
    ? 'webhook keys, transaction owners and the anchor token in Redis'
    : 'webhook keys and transaction owners in the SQLite file, an anchor token per process';
  console.log(`Kofi Shop on ${config.publicUrl}: ${count} processes on ${ports}; ${state}`);
} else {
  await startShop(config);
}

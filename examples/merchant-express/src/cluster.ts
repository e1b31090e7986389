/**
 * The shop as several processes on one host (node:cluster): the primary forks CLUSTER_WORKERS
 * workers (default one per core), each running the same app on the same PORT, and the
 * operating system spreads the connections among them. With REDIS_URL they share the handled
 * webhook keys in Redis, with each other and with processes on other hosts; the orders stay in
 * the SQLite file, which processes of one host share.
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
  for (let i = 0; i < count; i++) cluster.fork();
  // A worker that dies is replaced; one stopped on purpose (SIGTERM to the primary) is not.
  let stopping = false;
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
  process.on('SIGTERM', () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
  });
  console.log(`Kofi Shop on ${config.publicUrl}: ${count} processes, webhook keys in ${process.env.REDIS_URL ? 'Redis' : 'the SQLite file'}`);
} else {
  await startShop(config);
}

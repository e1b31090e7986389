/**
 * A real redis-server (Debian's, installed by scripts/redis.sh) on a free port of 127.0.0.1,
 * without persistence, started for a test file and stopped after it. `stop` and `start` again
 * keep the port, for tests of a Redis that goes away mid-way (it comes back empty).
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { WorkerCommand, WorkerConfig, WorkerMessage } from './redis-worker.js';

export interface RedisServer {
  port: number;
  url: string;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

const BIN = process.env.REDIS_SERVER_PATH ?? 'redis-server';

/** A port nothing listens on now, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function launch(port: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning', '--logfile', ''];
  const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start on ${port} within 10 s:\n${output}`));
    }, 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${BIN} could not start (run scripts/redis.sh): ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
    // At log level warning nothing is printed, so wait until the port answers PING.
    const ping = async () => {
      if (child.exitCode !== null) return;
      if (await answersPing(port)) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(child);
      } else setTimeout(ping, 20);
    };
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    void ping();
  });
}

async function answersPing(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  return new Promise((resolve) => {
    socket.once('error', () => resolve(false));
    socket.once('data', (c: Buffer) => {
      socket.destroy();
      resolve(c.toString().startsWith('+PONG'));
    });
    socket.write('PING\r\n');
  });
}

export async function startRedis(): Promise<RedisServer> {
  let port = await freePort();
  let child: ChildProcess | undefined;
  // The free port may be taken between the probe and the start: try another.
  for (let attempt = 0; child === undefined; attempt++) {
    try {
      child = await launch(port);
    } catch (error) {
      if (attempt === 2) throw error;
      port = await freePort();
    }
  }
  // A test process that dies leaves no server behind.
  process.once('exit', () => child?.kill('SIGKILL'));
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const running = child;
      child = undefined;
      if (running === undefined || running.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.kill('SIGTERM');
      await exited;
    },
    async start() {
      if (child === undefined) child = await launch(port);
    },
  };
  return server;
}

/** A merchant process running test/helpers/redis-worker.ts. */
export interface Worker {
  port: number;
  url: string;
  messages: WorkerMessage[];
  send(command: WorkerCommand): void;
  /** Resolves with the first message (already received or to come) that `match` accepts. */
  next<T extends WorkerMessage>(match: (message: WorkerMessage) => message is T, timeoutMs?: number): Promise<T>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const WORKER_BUNDLE = fileURLToPath(new URL('../../node_modules/.cache/sikaramp-redis-test/worker.mjs', import.meta.url));
let bundled: Promise<unknown> | undefined;

/**
 * Forks `count` worker processes. The worker is bundled from source with esbuild (as tsup
 * builds dist/), its packages left external so that they resolve from this package.
 */
export async function forkWorkers(count: number, config: WorkerConfig): Promise<Worker[]> {
  bundled ??= build({
    entryPoints: [fileURLToPath(new URL('./redis-worker.ts', import.meta.url))],
    outfile: WORKER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    logLevel: 'silent',
  });
  await bundled;
  return Promise.all(Array.from({ length: count }, () => forkWorker(config)));
}

async function forkWorker(config: WorkerConfig): Promise<Worker> {
  const child = fork(WORKER_BUNDLE, { env: { ...process.env, SIKARAMP_WORKER: JSON.stringify(config) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  process.once('exit', () => child.kill('SIGKILL'));
  const messages: WorkerMessage[] = [];
  const waiters = new Set<() => void>();
  child.on('message', (message: WorkerMessage) => {
    messages.push(message);
    for (const wake of waiters) wake();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next: Worker['next'] = (match, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      let seen = 0;
      const check = () => {
        for (; seen < messages.length; seen++) {
          const message = messages[seen]!;
          if (match(message)) {
            messages.splice(seen, 1);
            cleanup();
            return resolve(message);
          }
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`worker ${child.pid}: no such message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      void exited.then(() => {
        if (!waiters.has(check)) return;
        cleanup();
        reject(new Error(`worker ${child.pid} exited`));
      });
      check();
    });
  const ready = await next((m): m is Extract<WorkerMessage, { type: 'ready' }> => m.type === 'ready', 20_000);
  return {
    port: ready.port,
    url: `http://127.0.0.1:${ready.port}`,
    messages,
    send: (command) => child.send(command),
    next,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * A real redis-server (Debian's, installed by scripts/redis.sh) on a free port of 127.0.0.1,
 * without persistence, started for a test file and stopped after it. `stop` and `start` again
 * keep the port, for tests of a Redis that goes away mid-way (it comes back empty).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';

export interface RedisServer {
  port: number;
  url: string;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

const BIN = process.env.REDIS_SERVER_PATH ?? 'redis-server';

async function freePort(): Promise<number> {
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

/**
 * The `sikaramp-mock` binary as a merchant runs it: a real process, real signals, real HTTP.
 *
 * The CLI is bundled from source with esbuild (what tsup does for dist/) into
 * node_modules/.cache, so that the test needs no prior `pnpm build` and never runs a stale
 * dist/; dependencies stay external and resolve from this package, as they do when installed.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = `${root}node_modules/.cache/sikaramp-cli-test/cli.mjs`;

interface Running {
  proc: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcessWithoutNullStreams>();

function run(args: string[]) {
  const proc = spawn(process.execPath, [bundle, ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
  children.add(proc);
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => {
      children.delete(proc);
      resolve({ code, signal });
    }),
  );
  return { proc, exit, stdout: () => stdout, stderr: () => stderr };
}

/** Starts the CLI and waits for the URL it prints. */
async function startCli(args: string[]): Promise<Running> {
  const child = run(args);
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = child.stdout().match(/listening on (http:\/\/\S+)/);
      if (match) resolve(match[1]!);
    };
    child.proc.stdout.on('data', check);
    void child.exit.then(({ code }) => reject(new Error(`exited with ${code}: ${child.stderr()}`)));
  });
  return { ...child, url };
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  await build({
    entryPoints: [`${root}src/cli.ts`],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    logLevel: 'silent',
  });
});
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

describe('sikaramp-mock CLI', () => {
  it('prints its base URLs, serves every surface on one port, and stops cleanly on SIGTERM', async () => {
    const cli = await startCli(['--port', '0', '--clock', 'manual', '--seed', '9']);
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const out = cli.stdout();
    expect(out).toContain(`listening on ${cli.url} (clock: manual, seed: 9)`);
    for (const line of [`${cli.url}/api/v1/...`, `${cli.url}/anchor`, `${cli.url}/.well-known/stellar.toml`, `${cli.url}/interactive`, `${cli.url}/_mock`]) {
      expect(out).toContain(line);
    }

    const clock = (await (await fetch(`${cli.url}/_mock/clock`)).json()) as { now: string; kind: string };
    expect(clock).toEqual({ now: '2026-01-01T00:00:00.000Z', kind: 'manual' });
    const reg = await post(`${cli.url}/api/v1/merchant/register`, {
      name: 'CLI Shop',
      legal_name: 'CLI Shop Ltd',
      email: 'cli@example.com',
      password: 'cli password',
    });
    expect(reg.status).toBe(201);
    expect(reg.body.data.status).toBe('pending');

    cli.proc.kill('SIGTERM');
    expect(await cli.exit).toEqual({ code: 0, signal: null });
    expect(cli.stdout()).toContain('sikaramp-mock: stopped');
    await expect(fetch(`${cli.url}/_mock/clock`)).rejects.toThrow();
  });

  it('stops cleanly on SIGINT', async () => {
    const cli = await startCli(['--port', '0', '--host', '127.0.0.1']);
    expect(cli.stdout()).toContain('(clock: real)');
    cli.proc.kill('SIGINT');
    expect(await cli.exit).toEqual({ code: 0, signal: null });
  });

  it('gives the same ids and keys in two processes started with the same --seed', async () => {
    const results = [];
    for (let i = 0; i < 2; i++) {
      const cli = await startCli(['--port', '0', '--clock', 'manual', '--seed', '123']);
      const reg = await post(`${cli.url}/api/v1/merchant/register`, {
        name: 'Seed',
        legal_name: 'Seed Ltd',
        email: 'seed@example.com',
        password: 'seed password',
      });
      const login = await post(`${cli.url}/api/v1/merchant/login`, { email: 'seed@example.com', password: 'seed password' });
      const key = await fetch(`${cli.url}/api/v1/merchant/apikeys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${login.body.data.access_token}` },
        body: JSON.stringify({ key_type: 'secret', domains: [] }),
      }).then((r) => r.json() as Promise<any>);
      results.push({ merchant: reg.body.data, token: login.body.data.access_token, key: key.data });
      cli.proc.kill('SIGTERM');
      await cli.exit;
    }
    expect(results[1]).toEqual(results[0]);
  });

  it('says when the port is taken, and exits 2', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const child = run(['--port', String(port)]);
      expect((await child.exit).code).toBe(2);
      expect(child.stderr()).toContain(`port ${port} is in use`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it.each([
    [['--port', '70000'], '--port must be 0..65535'],
    [['--clock', 'fast'], '--clock must be real or manual'],
    [['--seed', 'abc'], '--seed must be an integer'],
    [['--network', 'mainnet'], '--network must be testnet or public'],
    [['--bogus'], "Unknown option '--bogus'"],
  ])('refuses %j with a message and the usage, exit code 2', async (args, message) => {
    const child = run(args);
    expect((await child.exit).code).toBe(2);
    expect(child.stderr()).toContain(message);
    expect(child.stderr()).toContain('usage: sikaramp-mock');
  });

  it('prints the usage for --help and exits 0', async () => {
    const child = run(['--help']);
    expect((await child.exit).code).toBe(0);
    expect(child.stdout()).toMatch(/^usage: sikaramp-mock \[--port 4010\]/);
  });
});

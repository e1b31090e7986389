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

function run(args: string[], env: Record<string, string> = {}) {
  const proc = spawn(process.execPath, [bundle, ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1', ...env } });
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
async function startCli(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = run(args, env);
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
    // The banner points at the dashboard, and it is there.
    expect(out).toMatch(new RegExp(`dashboard +${cli.url}/_mock/ `));
    expect((await fetch(`${cli.url}/_mock/`)).headers.get('content-type')).toContain('text/html');

    // A seeded manual clock starts at the wall clock's minute, where wallets accept SEP-10 time bounds.
    const clock = (await (await fetch(`${cli.url}/_mock/clock`)).json()) as { now: string; kind: string };
    expect(clock.kind).toBe('manual');
    expect(Date.now() - Date.parse(clock.now)).toBeLessThan(120_000);
    expect(clock.now).toMatch(/:00\.000Z$/);
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

  it('gives the same ids and times, and fresh keys and tokens, in two processes started with the same --seed and --start', async () => {
    const results = [];
    for (let i = 0; i < 2; i++) {
      const cli = await startCli(['--port', '0', '--clock', 'manual', '--seed', '123', '--start', '2026-01-01T00:00:00Z']);
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
    const [a, b] = results as [any, any];
    expect(b.merchant.id).toBe(a.merchant.id);
    expect(b.key.id).toBe(a.key.id);
    expect(b.merchant.created_at).toBe('2026-01-01T00:00:00.000000000Z');
    expect(b.merchant.created_at).toBe(a.merchant.created_at);
    expect(b.merchant.stellar_public_key).not.toBe(a.merchant.stellar_public_key);
    expect(b.token).not.toBe(a.token);
    expect(b.key.key).not.toBe(a.key.key);
  });

  it('masks tokens and keys in the request URLs --log prints', async () => {
    const cli = await startCli(['--port', '0', '--log']);
    const token = 'c0ffee'.repeat(8);
    await fetch(`${cli.url}/interactive?token=${token}&lang=en`);
    await fetch(`${cli.url}/anchor/transaction?id=abc&session_token=s3cr3t-session&api_key=sika_secret_x`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    cli.proc.kill('SIGTERM');
    await cli.exit;
    const out = cli.stdout();
    expect(out).toContain('GET /interactive?token=***&lang=en ->');
    expect(out).toContain('GET /anchor/transaction?id=abc&session_token=***&api_key=*** ->');
    expect(out).not.toContain(token);
    expect(out).not.toContain('s3cr3t-session');
  });

  it('closes /_mock with --control-token, and opens it to a browser origin named with --control-origin', async () => {
    const token = 'ctl-'.padEnd(32, 'x');
    const cli = await startCli(['--port', '0', '--control-token', token, '--control-origin', 'http://dash.localhost:5173']);
    expect((await fetch(`${cli.url}/_mock/clock`)).status).toBe(401);
    expect((await fetch(`${cli.url}/_mock/clock`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${cli.url}/_mock/clock`, { headers: { 'x-mock-control-token': token } })).status).toBe(200);
    const named = await fetch(`${cli.url}/_mock/clock`, { headers: { origin: 'http://dash.localhost:5173', 'x-mock-control-token': token } });
    expect(named.status).toBe(200);
    expect(named.headers.get('access-control-allow-origin')).toBe('http://dash.localhost:5173');
    expect((await fetch(`${cli.url}/_mock/clock`, { headers: { origin: 'https://evil.example', 'x-mock-control-token': token } })).status).toBe(403);
    cli.proc.kill('SIGTERM');
    await cli.exit;
  });

  it('takes the control token from SIKARAMP_MOCK_CONTROL_TOKEN, out of the process list', async () => {
    const token = 'env-'.padEnd(24, 'y');
    const cli = await startCli(['--port', '0'], { SIKARAMP_MOCK_CONTROL_TOKEN: token });
    expect(cli.stdout()).toContain('needs the control token');
    expect((await fetch(`${cli.url}/_mock/clock`)).status).toBe(401);
    expect((await fetch(`${cli.url}/_mock/clock`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    cli.proc.kill('SIGTERM');
    await cli.exit;
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
    [['--start', 'yesterday'], '--start must be an ISO 8601 time'],
    [['--cors-origin', 'not a url'], 'not an origin: not a url'],
    [['--control-token', 'short'], '--control-token must be at least 16 characters'],
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

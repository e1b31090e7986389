/**
 * A merchant's project made from our tarballs: `pnpm pack` each published package, then
 * `pnpm install` the tarballs into a fresh folder under the OS temp folder, outside the
 * workspace, so that nothing resolves through the workspace's own links.
 *
 * No network: the tarballs' registry dependencies (ky, zod, msw, lit, @stellar/*) are
 * overridden with `link:` to the copies the workspace installed from its lockfile, and pnpm
 * runs `--offline` with an empty cache folder of its own. A plain `pnpm install --offline`
 * would need pnpm's metadata cache, which `pnpm install --frozen-lockfile` on a fresh CI
 * machine never writes; links need nothing but the workspace's node_modules.
 */
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** The published packages and their folders in the workspace. */
export const PACKAGES = {
  '@sikaramp/sdk': 'packages/sdk',
  '@sikaramp/widget': 'packages/widget',
  '@sikaramp/mock-server': 'mock-server',
} as const;
export type PackageName = keyof typeof PACKAGES;

export interface Manifest {
  name: string;
  version: string;
  exports: Record<string, unknown>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export interface Tarball {
  /** Absolute path of the `.tgz`. */
  file: string;
  /** Paths inside the tarball, as `pnpm pack --json` lists them. */
  files: string[];
  /** The package.json that went into the tarball (workspace: ranges already rewritten by pnpm). */
  manifest: Manifest;
}

export interface Consumer {
  /** The project folder, outside the workspace. */
  dir: string;
  /** The tarball a package was installed from; throws for a package not installed. */
  tarball(name: PackageName): Tarball;
  /** Runs fixtures/<name> (copied into the project) with this Node; resolves with the JSON it prints last. */
  run<T>(fixture: string): Promise<T>;
  remove(): Promise<void>;
}

/** Every file an `exports` map or `bin` points at. */
function targets(manifest: Manifest): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') found.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(manifest.exports);
  walk(manifest.bin);
  return found;
}

/** Refuses to pack a package whose build is missing, with what to do about it. */
export async function assertBuilt(name: PackageName): Promise<void> {
  const folder = PACKAGES[name];
  const manifest = JSON.parse(await readFile(join(ROOT, folder, 'package.json'), 'utf8')) as Manifest;
  const missing = targets(manifest).filter((target) => !existsSync(join(ROOT, folder, target)));
  if (missing.length > 0) {
    throw new Error(
      `${name} is not built: ${join(folder, missing[0]!)}${missing.length > 1 ? ` and ${missing.length - 1} more files` : ''} missing. ` +
        'Run `pnpm build` at the workspace root first (scripts/test.sh builds before it tests).',
    );
  }
}

/** `pnpm pack`s a published package into `destination`. */
export async function pack(name: PackageName, destination: string): Promise<Tarball> {
  const { stdout } = await exec('pnpm', ['pack', '--json', '--pack-destination', destination], {
    cwd: join(ROOT, PACKAGES[name]),
    env: nodeOnPath(),
  });
  const packed = JSON.parse(stdout) as { filename: string; files: { path: string }[] };
  const { stdout: manifest } = await exec('tar', ['-xzOf', packed.filename, 'package/package.json']);
  return {
    file: packed.filename,
    files: packed.files.map((f) => f.path),
    manifest: JSON.parse(manifest) as Manifest,
  };
}

/** The folder the workspace installed `dependency` into for `folder`'s package. */
function installedCopy(folder: string, dependency: string): string {
  const link = join(ROOT, folder, 'node_modules', dependency);
  if (!existsSync(link)) throw new Error(`${dependency} is not installed in ${folder}: run \`pnpm install\` at the workspace root`);
  return realpathSync(link);
}

export interface ConsumerOptions {
  /** The packages to pack and install. Default: all three. */
  packages?: PackageName[];
  /** Registry packages the project itself depends on, as a merchant who also imports @stellar/stellar-sdk. */
  direct?: { name: string; from: PackageName }[];
}

/** Packs published packages and installs them into a new project. */
export async function createConsumer({ packages, direct = [] }: ConsumerOptions = {}): Promise<Consumer> {
  const names = packages ?? (Object.keys(PACKAGES) as PackageName[]);
  await Promise.all(names.map(assertBuilt));
  const dir = await mkdtemp(join(tmpdir(), 'sikaramp-consumer-'));
  if (!relative(ROOT, dir).startsWith('..')) throw new Error(`${dir} is inside the workspace; set TMPDIR to a folder outside it`);
  try {
    await mkdir(join(dir, 'tarballs'));
    const packed = await Promise.all(names.map((name) => pack(name, join(dir, 'tarballs'))));
    const tarballs = new Map(names.map((name, i) => [name, packed[i]!]));
    const tarball = (name: PackageName): Tarball => {
      const found = tarballs.get(name);
      if (!found) throw new Error(`${name} was not packed for this project`);
      return found;
    };

    const overrides: Record<string, string> = {};
    for (const name of names) {
      for (const dependency of Object.keys(tarball(name).manifest.dependencies ?? {})) {
        overrides[dependency] =
          dependency in PACKAGES
            ? `file:${tarball(dependency as PackageName).file}`
            : `link:${installedCopy(PACKAGES[name], dependency)}`;
      }
    }
    const dependencies: Record<string, string> = Object.fromEntries(names.map((name) => [name, `file:${tarball(name).file}`]));
    // A required peer (msw for the mock server) is the merchant's own dependency; optional ones come through `direct`.
    for (const name of names) {
      const { peerDependencies = {}, peerDependenciesMeta = {} } = tarball(name).manifest;
      for (const peer of Object.keys(peerDependencies).filter((peer) => !peerDependenciesMeta[peer]?.optional)) {
        dependencies[peer] = `link:${installedCopy(PACKAGES[name], peer)}`;
      }
    }
    for (const { name, from } of direct) dependencies[name] = `link:${installedCopy(PACKAGES[from], name)}`;
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'sikaramp-consumer', private: true, dependencies, pnpm: { overrides } }, null, 2),
    );
    await exec(
      'pnpm',
      // No lockfile to freeze (CI=true would ask for one); no hoisting, so undeclared imports fail.
      ['install', '--offline', '--no-frozen-lockfile', '--ignore-scripts', '--config.hoist=false', `--config.cache-dir=${join(dir, '.pnpm-cache')}`, '--reporter=append-only'],
      { cwd: dir, env: nodeOnPath() },
    ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`pnpm install of the tarballs failed:\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
    });

    await cp(FIXTURES, dir, { recursive: true });
    return {
      dir,
      tarball,
      async run<T>(fixture: string): Promise<T> {
        const { stdout } = await exec(process.execPath, [fixture], { cwd: dir, timeout: 30_000, env: nodeOnPath() }).catch(
          (error: { stdout?: string; stderr?: string; message: string }) => {
            throw new Error(`node ${fixture} failed in ${dir}:\n${error.stderr || error.message}`);
          },
        );
        return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
      },
      remove: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** An environment whose `node` is the one running the tests (bin shims call `node` from PATH). */
export function nodeOnPath(): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
}

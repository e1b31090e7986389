/**
 * What `npm install` of our tarballs puts into an empty project, and how much of it there is.
 *
 * The test installs against a registry on 127.0.0.1 that serves the packages the workspace
 * installed from its lockfile (pnpm's virtual store holds each one's published files), so npm
 * resolves and lays out node_modules exactly as from npmjs.org, without the network. The bench
 * (bench-install.ts) installs from the real registry instead, stripe beside ours.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import { nodeOnPath, ROOT } from './consumer.ts';

const exec = promisify(execFile);

interface StoredPackage {
  manifest: Record<string, unknown> & { name: string; version: string };
  dir: string;
}

/** The fields of a manifest npm reads from a packument to resolve and lay out a version. */
const PACKUMENT_FIELDS = ['name', 'version', 'dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bin', 'engines', 'os', 'cpu', 'libc'];

/** Every package in the workspace's pnpm virtual store, by name and version. */
function storedPackages(): Map<string, Map<string, StoredPackage>> {
  const store = join(ROOT, 'node_modules', '.pnpm');
  const found = new Map<string, Map<string, StoredPackage>>();
  for (const entry of readdirSync(store)) {
    const modules = join(store, entry, 'node_modules');
    if (!existsSync(modules)) continue;
    // `@scope+name@version_peers`: the entry's own package sits in its node_modules beside links to its dependencies.
    const name = entry.slice(0, entry.indexOf('@', 1)).replace('+', '/');
    const dir = join(modules, name);
    if (!existsSync(join(dir, 'package.json'))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as StoredPackage['manifest'];
    if (manifest.name !== name) continue;
    if (!found.has(name)) found.set(name, new Map());
    found.get(name)!.set(manifest.version, { manifest, dir });
  }
  return found;
}

/** The regular files under `dir`, as paths relative to it with `/` separators. */
async function filesUnder(dir: string, root = dir): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path, root)));
    else if (entry.isFile()) found.push(relative(root, path).split(sep).join('/'));
  }
  return found.toSorted();
}

/**
 * A package folder as an npm tarball (ustar, every file under `package/`), written here rather than
 * with tar(1): GNU and BSD tar take different options, and pnpm's store hard-links identical files,
 * which tar would record as links that npm does not extract.
 */
async function* tarEntries(dir: string): AsyncGenerator<Buffer> {
  for (const file of await filesUnder(dir)) {
    const path = `package/${file}`;
    // ustar keeps up to 100 bytes of name and 155 of prefix, split at a slash.
    const cut = path.length > 100 ? path.lastIndexOf('/', 155) : -1;
    const [prefix, name] = cut > 0 ? [path.slice(0, cut), path.slice(cut + 1)] : ['', path];
    if (Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155) throw new Error(`${path} is too long for a ustar entry`);
    const content = await readFile(join(dir, file));
    const { mode } = await lstat(join(dir, file));
    const header = Buffer.alloc(512);
    const field = (text: string, offset: number) => header.write(text, offset, 'utf8');
    const octal = (value: number, length: number, offset: number) => field(`${value.toString(8).padStart(length - 1, '0')}\0`, offset);
    field(name, 0);
    octal(mode & 0o777, 8, 100);
    octal(0, 8, 108);
    octal(0, 8, 116);
    octal(content.length, 12, 124);
    octal(0, 12, 136);
    field('        ', 148);
    field('0', 156);
    field('ustar\u000000', 257);
    field(prefix, 345);
    octal(header.reduce((sum, byte) => sum + byte, 0), 7, 148);
    yield header;
    yield content;
    if (content.length % 512) yield Buffer.alloc(512 - (content.length % 512));
  }
  yield Buffer.alloc(1024);
}

const byVersion = (a: string, b: string): number => {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  return x!.map((part, i) => part - y![i]!).find((difference) => difference !== 0) ?? 0;
};

export interface LocalRegistry {
  url: string;
  close(): Promise<void>;
}

/** An npm registry on 127.0.0.1 serving the workspace's installed packages. */
export async function startLocalRegistry(): Promise<LocalRegistry> {
  const packages = storedPackages();
  let url = '';
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname.slice(1));
    const tarball = /^-\/tarball\/(.+)\/(\d[^/]*)\.tgz$/.exec(path);
    if (tarball) {
      const found = packages.get(tarball[1]!)?.get(tarball[2]!);
      if (!found) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      Readable.from(tarEntries(found.dir)).pipe(createGzip({ level: 1 })).pipe(response);
      return;
    }
    const versions = packages.get(path);
    if (!versions) return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    const packument = {
      name: path,
      // npm takes `latest` when it satisfies a range, as npmjs.org's newest release would.
      'dist-tags': { latest: [...versions.keys()].filter((version) => !version.includes('-')).toSorted(byVersion).at(-1) },
      versions: Object.fromEntries(
        [...versions].map(([version, { manifest }]) => [
          version,
          {
            ...Object.fromEntries(PACKUMENT_FIELDS.filter((field) => field in manifest).map((field) => [field, manifest[field]])),
            dist: { tarball: `${url}/-/tarball/${encodeURIComponent(path)}/${version}.tgz` },
          },
        ]),
      ),
    };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the local registry has no port');
  url = `http://127.0.0.1:${address.port}`;
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface Weight {
  /** Bytes of the files under node_modules (npm's own bookkeeping left out). */
  bytes: number;
  /** Every installed package, nested ones included, by name. */
  packages: string[];
  /** Bytes under node_modules/@stellar. */
  stellarBytes: number;
  /** Seconds `npm install` took. */
  seconds: number;
}

async function sizeOf(path: string): Promise<number> {
  const stats = await lstat(path);
  if (!stats.isDirectory()) return stats.size;
  let total = 0;
  for (const entry of await readdir(path)) total += await sizeOf(join(path, entry));
  return total;
}

/** The packages in a node_modules folder, nested node_modules included. */
async function packagesIn(modules: string): Promise<string[]> {
  if (!existsSync(modules)) return [];
  const found: string[] = [];
  for (const entry of await readdir(modules)) {
    if (entry.startsWith('.')) continue;
    const names = entry.startsWith('@') ? (await readdir(join(modules, entry))).map((inner) => `${entry}/${inner}`) : [entry];
    for (const name of names) {
      found.push(name);
      found.push(...(await packagesIn(join(modules, name, 'node_modules'))));
    }
  }
  return found.toSorted();
}

export async function weigh(dir: string, seconds: number): Promise<Weight> {
  const modules = join(dir, 'node_modules');
  const ours = join(modules, '.package-lock.json');
  return {
    bytes: (await sizeOf(modules)) - (existsSync(ours) ? (await lstat(ours)).size : 0),
    packages: await packagesIn(modules),
    stellarBytes: existsSync(join(modules, '@stellar')) ? await sizeOf(join(modules, '@stellar')) : 0,
    seconds,
  };
}

/**
 * This Node on PATH, without what pnpm sets for the scripts it runs: npm_config_* (npm would read
 * them as its config) and NODE_PATH (pnpm's shims point it at the workspace's packages, where
 * `require` would find a peer the project lacks).
 */
function merchantEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(nodeOnPath()).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE_PATH'));
}

export interface NpmProject {
  dir: string;
  weight: Weight;
  /** Runs `node -e <code>` (as .mjs or .cjs) in the project; resolves with stdout, rejects with stderr. */
  run(code: string, format: 'esm' | 'cjs'): Promise<{ ok: boolean; output: string }>;
  remove(): Promise<void>;
}

/**
 * `npm install <specs>` into a new empty project outside the workspace, as a merchant would:
 * `specs` are tarball paths or registry names. `registry` defaults to the user's (npmjs.org).
 */
export async function npmInstall(specs: string[], { registry }: { registry?: string } = {}): Promise<NpmProject> {
  const dir = await mkdtemp(join(tmpdir(), 'sikaramp-npm-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'sikaramp-npm-consumer', private: true }, null, 2));
  const env = merchantEnv();
  const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...specs];
  if (registry) {
    // A cache of its own: a local registry's port changes every run.
    await mkdir(join(dir, '.npm-cache'));
    args.push(`--registry=${registry}`, `--cache=${join(dir, '.npm-cache')}`, `--userconfig=${join(dir, '.npmrc')}`);
    await writeFile(join(dir, '.npmrc'), '');
  }
  const started = performance.now();
  await exec('npm', args, { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 }).catch(async (error: { stdout?: string; stderr?: string; message: string }) => {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`npm install ${specs.join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
  });
  const weight = await weigh(dir, (performance.now() - started) / 1000);
  return {
    dir,
    weight,
    async run(code, format) {
      const file = join(dir, format === 'esm' ? 'probe.mjs' : 'probe.cjs');
      await writeFile(file, code);
      return exec(process.execPath, [file], { cwd: dir, env, timeout: 30_000 }).then(
        ({ stdout }) => ({ ok: true, output: stdout }),
        (error: { stderr?: string; message: string }) => ({ ok: false, output: error.stderr || error.message }),
      );
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export const MB = 1_000_000;

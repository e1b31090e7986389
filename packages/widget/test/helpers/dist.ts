/**
 * The widget as merchants get it: the built package (dist/), bundled for a page by esbuild the
 * way a merchant's bundler would (minified, code-split so that Freighter stays a lazy chunk).
 *
 * Tests use the build that `pnpm build` made (scripts/test.sh builds before testing). When
 * dist/ is missing or older than a source file, `ensureBuilt()` runs the package's tsup once,
 * under a lock directory, so parallel test files never build twice or read a half-written dist.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
export const DIST_ENTRY = join(PACKAGE_DIR, 'dist/index.js');
const LOCK = join(PACKAGE_DIR, '.build-lock');
const SOURCES = ['src', 'tsup.config.ts', 'custom-elements-manifest.config.mjs', 'package.json'];

function mtime(path: string): number {
  try {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return Math.max(0, ...readdirSync(path).map((name) => mtime(join(path, name))));
  } catch {
    return 0;
  }
}

/** What the build writes last (tsup's onSuccess): present and newer than every source. */
const OUTPUTS = [DIST_ENTRY, join(PACKAGE_DIR, 'dist/custom-elements.json'), join(PACKAGE_DIR, 'dist/jsx-react.d.ts')];
const fresh = () => Math.min(...OUTPUTS.map(mtime)) >= Math.max(...SOURCES.map((s) => mtime(join(PACKAGE_DIR, s))));

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Builds dist/ when it is missing or stale; a no-op after `pnpm build`. */
export function ensureBuilt(): void {
  for (let waited = 0; !fresh(); waited += 200) {
    try {
      mkdirSync(LOCK);
    } catch {
      // Another test file is building: wait for it (a lock older than 2 minutes is stale).
      if (waited > 120_000) rmSync(LOCK, { recursive: true, force: true });
      sleep(200);
      continue;
    }
    try {
      const tsup = createRequire(join(PACKAGE_DIR, 'package.json')).resolve('tsup/package.json');
      execFileSync(process.execPath, [join(tsup, '../dist/cli-default.js')], { cwd: PACKAGE_DIR, stdio: 'pipe' });
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

export interface PageBundle {
  /** Output files by name (`ramp-widget.js` is the entry). */
  files: Map<string, Uint8Array>;
  /** The entry and the chunks it imports statically: what every page downloads. */
  eager: string[];
  /** Chunks loaded only by a dynamic import (Freighter). */
  lazy: string[];
}

/**
 * Bundles the built package for a page that does `import '@sikaramp/widget'`: minified ESM,
 * split into chunks. Deterministic.
 */
export async function bundlePage(): Promise<PageBundle> {
  ensureBuilt();
  const result = await build({
    stdin: { contents: `import ${JSON.stringify(DIST_ENTRY)};`, resolveDir: PACKAGE_DIR, sourcefile: 'ramp-widget.js' },
    entryNames: 'ramp-widget',
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    legalComments: 'none',
    outdir: '/bundle',
    write: false,
    metafile: true,
  });
  const files = new Map(result.outputFiles.map((f) => [f.path.replace('/bundle/', ''), f.contents]));
  const name = (path: string) => path.replace(/^.*\//, '');
  const outputs = new Map(Object.entries(result.metafile.outputs).map(([path, output]) => [name(path), output]));
  const eager = new Set<string>();
  const visit = (file: string) => {
    if (eager.has(file)) return;
    eager.add(file);
    for (const i of outputs.get(file)!.imports) if (i.kind === 'import-statement') visit(name(i.path));
  };
  visit('ramp-widget.js');
  return { files, eager: [...eager], lazy: [...files.keys()].filter((f) => f.endsWith('.js') && !eager.has(f)) };
}

/** Bytes after gzip at level 9, summed over `names`. */
export function gzipSize(bundle: PageBundle, names: string[]): number {
  return names.reduce((sum, n) => sum + gzipSync(bundle.files.get(n)!, { level: 9 }).length, 0);
}

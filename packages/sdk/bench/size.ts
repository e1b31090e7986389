/** What each entry pulls into a merchant's bundle: esbuild bundle, minified, then gzip. */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Bundles a module text (e.g. `export { X } from '@sikaramp/sdk';`): minified and gzip -9 bytes, and the packages it pulls in. */
export async function bundleSize(contents: string) {
  const result = await build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  const packages = new Set(
    Object.keys(result.metafile.inputs)
      .map((i) => i.match(/.*node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1])
      .filter(Boolean),
  );
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length, packages: [...packages].sort() };
}

export async function benchSize() {
  const rows: string[][] = [];
  for (const entry of ['@sikaramp/sdk/webhooks', '@sikaramp/sdk']) {
    const { min, gzip, packages } = await bundleSize(`export * from '${entry}';`);
    rows.push([entry, `${(min / 1024).toFixed(1)} KiB`, `${(gzip / 1024).toFixed(1)} KiB`, packages.join(', ') || '(none)']);
  }
  return { rows };
}

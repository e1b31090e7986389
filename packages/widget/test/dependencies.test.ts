import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, PACKAGE_DIR } from './helpers/dist.js';

describe('dependencies of the built package', () => {
  it('imports at run time only packages its package.json lists in dependencies: Freighter is inside dist/freighter.js', async () => {
    ensureBuilt();
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
    // Both built files, each followed into its relative imports, every package import left out and listed.
    const { metafile } = await build({
      entryPoints: ['dist/index.js', 'dist/freighter.js'].map((file) => join(PACKAGE_DIR, file)),
      bundle: true,
      packages: 'external',
      format: 'esm',
      platform: 'browser',
      write: false,
      outdir: '/out',
      metafile: true,
      logLevel: 'silent',
    });
    const imported = new Set(
      Object.values(metafile.inputs)
        .flatMap((input) => input.imports)
        .filter((i) => i.external)
        .map((i) => i.path.replace(/^(@[^/]+\/[^/]+|[^@/][^/]*).*$/, '$1')),
    );
    expect([...imported].sort()).toEqual(Object.keys(manifest.dependencies).sort());
    expect(imported).not.toContain('@stellar/freighter-api');
  });
});

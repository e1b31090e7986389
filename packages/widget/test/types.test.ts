import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, PACKAGE_DIR } from './helpers/dist.js';

describe('types', () => {
  it("types the element, its properties and its events for a page's TypeScript", () => {
    ensureBuilt();
    // The fixture imports the package by name: TypeScript reads the published dist/index.d.ts.
    // Its @ts-expect-error lines fail the compile if a wrong value were accepted.
    const tsc = join(createRequire(join(PACKAGE_DIR, 'package.json')).resolve('typescript7/package.json'), '../bin/tsc');
    const args = ['--ignoreConfig', '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
    args.push('--target', 'es2022', '--lib', 'es2022,dom', '--types', '', 'test/fixtures/consumer.ts');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, ...args], { cwd: PACKAGE_DIR, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  });
});

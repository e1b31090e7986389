import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, PACKAGE_DIR } from './helpers/dist.js';

/** tsc on one fixture that imports the package by name, as a page's TypeScript would: its errors, or ''. */
function compile(fixture: string, options: string[] = []): string {
  ensureBuilt();
  const tsc = join(createRequire(join(PACKAGE_DIR, 'package.json')).resolve('typescript7/package.json'), '../bin/tsc');
  const args = ['--ignoreConfig', '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
  args.push('--target', 'es2022', '--lib', 'es2022,dom', '--types', '', ...options, fixture);
  try {
    execFileSync(process.execPath, [tsc, ...args], { cwd: PACKAGE_DIR, encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

describe('types', () => {
  // The fixtures import the package by name: TypeScript reads the published dist/index.d.ts.
  // Their @ts-expect-error lines fail the compile if a wrong value were accepted.
  it("types the element, its properties and its events for a page's TypeScript", () => {
    expect(compile('test/fixtures/consumer.ts')).toBe('');
  });

  it('types <ramp-widget> in JSX: attributes, callbacks, and a typed listener per event (onramp-…)', () => {
    expect(compile('test/fixtures/jsx.tsx', ['--jsx', 'preserve'])).toBe('');
  });

  it("puts them in React 19's JSX with dist/jsx-react.d.ts, against the real @types/react", () => {
    expect(compile('test/fixtures/jsx-react.tsx', ['--jsx', 'react-jsx'])).toBe('');
  });
});

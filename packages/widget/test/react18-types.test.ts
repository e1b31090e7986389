/**
 * The published React types on @types/react 18 (the @types/react-18 devDependency): the same
 * fixtures react-types.test.ts and types.test.ts compile against 19, with `react` and its
 * subpaths (the JSX runtime) mapped to 18 by a tsconfig's `paths`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, PACKAGE_DIR } from './helpers/dist.js';

/** tsc on fixtures that import the package by name, against @types/react 18: its errors, or ''. */
function compile(...fixtures: string[]): string {
  ensureBuilt();
  const tsc = join(createRequire(join(PACKAGE_DIR, 'package.json')).resolve('typescript7/package.json'), '../bin/tsc');
  const types = join(PACKAGE_DIR, 'node_modules/@types/react-18');
  const compilerOptions = {
    noEmit: true,
    strict: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    lib: ['es2022', 'dom'],
    types: [],
    jsx: 'react-jsx',
    paths: { react: [join(types, 'index.d.ts')], 'react/*': [join(types, '*.d.ts')] },
  };
  const dir = mkdtempSync(join(tmpdir(), 'react18-types-'));
  try {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: fixtures.map((f) => join(PACKAGE_DIR, f)) }));
    // --explainFiles: which @types/react each file came from, to check that no 19 slipped in.
    const out = execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--explainFiles'], { cwd: PACKAGE_DIR, encoding: 'utf8', stdio: 'pipe' });
    return out.includes('@types+react@19.') || !out.includes('@types+react@18.') ? 'not compiled against @types/react 18 alone' : '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('@sikaramp/widget/react and dist/jsx-react.d.ts on @types/react 18', () => {
  it('types the wrapper (props, onRamp… callbacks, ref) and refuses wrong ones, as on 19', () => {
    expect(compile('test/fixtures/frameworks/react-types.tsx')).toBe('');
  });

  it("puts <ramp-widget> in React 18's JSX with dist/jsx-react.d.ts", () => {
    expect(compile('test/fixtures/jsx-react.tsx')).toBe('');
  });
});

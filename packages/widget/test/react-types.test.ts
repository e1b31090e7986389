import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, PACKAGE_DIR } from './helpers/dist.js';

/** tsc on a React app's .tsx that imports @sikaramp/widget/react by name, as the app's TypeScript would: its errors, or ''. */
function compile(fixture: string): string {
  ensureBuilt();
  const tsc = join(createRequire(join(PACKAGE_DIR, 'package.json')).resolve('typescript7/package.json'), '../bin/tsc');
  const args = ['--ignoreConfig', '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
  args.push('--target', 'es2022', '--lib', 'es2022,dom', '--types', '', '--jsx', 'react-jsx', fixture);
  try {
    execFileSync(process.execPath, [tsc, ...args], { cwd: PACKAGE_DIR, encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

describe('@sikaramp/widget/react build', () => {
  it("is a client module ('use client') that imports the element from index.js rather than carrying a copy", () => {
    ensureBuilt();
    const code = readFileSync(join(PACKAGE_DIR, 'dist/react.js'), 'utf8');
    expect(code.split('\n')[0]).toBe('"use client";');
    expect(code).toMatch(/from "\.\/index\.js"/);
    expect(code).not.toContain('customElements.define');
    // @lit/react is inside, its notice with it; react is the app's.
    expect(code).toContain('Copyright 2018 Google LLC');
    expect(code).not.toMatch(/from "@lit\/react"/);
    expect(code).toMatch(/from "react"/);
  });
});

describe('@sikaramp/widget/react types', () => {
  it('types the props, the onRamp… callbacks with their event and the ref, and refuses wrong ones', () => {
    expect(compile('test/fixtures/frameworks/react-types.tsx')).toBe('');
  });
});

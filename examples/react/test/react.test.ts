/**
 * examples/react/src/BuyUsdc.tsx compiles: type-checked against the widget's own types (its
 * element, attributes and event map) with TypeScript, and turned into JavaScript with the
 * automatic JSX runtime. React itself is not installed: react.d.ts stands in for @types/react.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(HERE, '../..');
const SOURCE = readFileSync(join(HERE, 'src/BuyUsdc.tsx'), 'utf8');

/** tsc's diagnostics for a project, one per line; empty when it compiles. */
async function typecheck(tsconfig: string): Promise<string[]> {
  try {
    await promisify(execFile)(join(ROOT, 'node_modules/.bin/tsc'), ['-p', tsconfig, '--noEmit', '--pretty', 'false'], { cwd: ROOT });
    return [];
  } catch (error) {
    const { stdout } = error as { stdout?: string };
    if (!stdout) throw error;
    return stdout.trim().split('\n');
  }
}

describe('the React sample', () => {
  it('type-checks against the widget and compiles with the automatic JSX runtime', async () => {
    expect(await typecheck(join(HERE, 'tsconfig.json'))).toEqual([]);
    const { code } = await transform(SOURCE, { loader: 'tsx', jsx: 'automatic', format: 'esm' });
    expect(code).toContain('from "react/jsx-runtime"');
    expect(code).toMatch(/jsxs?\("ramp-widget", \{/);
  });

  it('fails to compile with a wrong attribute value or a misspelt event field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'react-sample-'));
    const broken = SOURCE.replace('flow="buy"', 'flow="swap"').replace('e.detail.transaction.id)', 'e.detail.txn.id)');
    writeFileSync(join(dir, 'BuyUsdc.tsx'), broken);
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(HERE, 'tsconfig.json'),
        compilerOptions: { types: [], paths: { '@sikaramp/widget': [join(ROOT, 'packages/widget/src/index.ts')] } },
        include: [join(dir, 'BuyUsdc.tsx'), join(HERE, 'react.d.ts')],
      }),
    );
    const errors = await typecheck(join(dir, 'tsconfig.json'));
    expect(errors).toEqual([
      expect.stringMatching(/error TS(2339|2551): Property 'txn' does not exist/),
      expect.stringMatching(/error TS2322: Type '"swap"' is not assignable to type '"buy" \| "sell" \| undefined'/),
    ]);
  });
});

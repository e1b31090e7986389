/**
 * Every TypeScript sample in README.md and docs/ compiles against the current sources of
 * @sikaramp/sdk, @sikaramp/widget and @sikaramp/mock-server, so that a sample goes stale
 * the moment an API it shows changes. One tsc run checks them all; a failure names the
 * Markdown file and line.
 */
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Diagnostic, extractSamples, markdownFiles, type Sample, sampleFileName, typecheckSamples } from './samples.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// One directory per run, so that two runs at once (two people, or watch mode) never share files.
const scratch = fileURLToPath(new URL(`../.samples/${process.pid}/`, import.meta.url));

const samples = markdownFiles(root).flatMap((file) => extractSamples(readFileSync(`${root}/${file}`, 'utf8'), file));

// Checked in the same run as the real samples, so that a run that would report nothing,
// or report it at the wrong place, fails here.
const brokenMarkdown = ['# A broken sample', '', '```ts', '// The next line is wrong.', "export const n: number = 'one';", '```', ''].join('\n');
const [broken] = extractSamples(brokenMarkdown, 'docs/broken-on-purpose.md') as [Sample];
const resolves = `
import * as sdk from '@sikaramp/sdk';
import * as webhooks from '@sikaramp/sdk/webhooks';
import * as anchor from '@sikaramp/sdk/anchor';
import * as widget from '@sikaramp/widget';
import * as mock from '@sikaramp/mock-server';
import { setupServer } from 'msw/node';
const version: string = sdk.VERSION;
const modules: object[] = [webhooks, anchor, widget, mock, setupServer];
export { version, modules };
`;

let diagnostics: Map<string, Diagnostic[]>;
let elsewhere: Diagnostic[];
beforeAll(async () => {
  ({ diagnostics, elsewhere } = await typecheckSamples(root, scratch, [...samples, broken], { 'resolves.ts': resolves }));
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const format = (d: Diagnostic) => `${d.where} ${d.message}`;

describe('code samples in the docs', () => {
  it('finds the TypeScript samples in README.md and docs/', () => {
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.every((s) => s.file === 'README.md' || s.file.startsWith('docs/') || s.file.endsWith('/README.md'))).toBe(true);
  });

  it('resolves the workspace packages and the libraries merchants install beside them', () => {
    expect(diagnostics.get('resolves.ts')!.map(format)).toEqual([]);
  });

  it('reports a type error at its file, line and column in the Markdown', () => {
    const hint = `tsc also reported, in the workspace sources:\n${elsewhere.map(format).join('\n')}`;
    expect(diagnostics.get(sampleFileName(broken))!.map(format), hint).toEqual([
      "docs/broken-on-purpose.md:5:14 TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
  });

  it.each(samples)('$file:$line compiles', (sample) => {
    expect(diagnostics.get(sampleFileName(sample))!.map(format)).toEqual([]);
  });
});

describe('which blocks are samples', () => {
  const markdown = [
    '```ts', 'const a = 1;', '```',
    '```typescript title="b.ts"', 'const b = 2;', '```',
    '```ts nocheck', 'const wrong: number = "c";', '```',
    '```js', 'const d = 4;', '```',
    '```sh', 'pnpm test', '```',
    '````ts', '```', 'const e = 5;', '````',
  ].join('\n');

  it('takes ts and typescript blocks, and leaves out ts nocheck, js and shell blocks', () => {
    expect(extractSamples(markdown, 'x.md').map((s) => s.code)).toEqual(['const a = 1;\n', 'const b = 2;\n', '```\nconst e = 5;\n']);
  });

  it('locates each sample by the line of its first code line, also inside a list item', () => {
    const list = ['1. Create a client:', '', '   ```ts', '   const client = 1;', '   ```'].join('\n');
    expect(extractSamples(list, 'y.md')).toEqual([{ file: 'y.md', line: 4, code: 'const client = 1;\n' }]);
    expect(extractSamples(markdown, 'x.md').map((s) => s.line)).toEqual([2, 5, 17]);
  });
});

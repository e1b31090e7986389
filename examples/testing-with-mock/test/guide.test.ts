/**
 * The testing guide shows buy.e2e.test.ts and global-setup.ts whole, as the Playwright
 * example: its blocks must stay the files as they run here.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

it('the testing guide shows buy.e2e.test.ts as it is', () => {
  const guide = read('../../../docs/guides/testing-with-the-mock.md');
  const marker = guide.indexOf('<!-- file: examples/testing-with-mock/test/buy.e2e.test.ts');
  expect(marker).toBeGreaterThan(0);
  // `nocheck`: the docs' sample check compiles each block alone, without ./global-setup.ts; the example type-checks the file.
  const start = guide.indexOf('```ts nocheck\n', marker) + '```ts nocheck\n'.length;
  const shown = guide.slice(start, guide.indexOf('\n```\n', start));
  expect(shown).toBe(read('./buy.e2e.test.ts').trimEnd());
});

it('the testing guide shows global-setup.ts as it is', () => {
  const guide = read('../../../docs/guides/testing-with-the-mock.md');
  const start = guide.indexOf('// test/global-setup.ts');
  expect(start).toBeGreaterThan(0);
  expect(guide.slice(start, guide.indexOf('```', start))).toBe(read('./global-setup.ts'));
});

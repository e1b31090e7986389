/**
 * The testing guide shows buy.e2e.test.ts whole, as the Playwright example: the block after
 * its `<!-- file: ... -->` marker must stay the file as it runs here.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

it('the testing guide shows buy.e2e.test.ts as it is', () => {
  const guide = read('../../../docs/guides/testing-with-the-mock.md');
  const marker = guide.indexOf('<!-- file: examples/testing-with-mock/test/buy.e2e.test.ts');
  expect(marker).toBeGreaterThan(0);
  const start = guide.indexOf('```ts\n', marker) + '```ts\n'.length;
  const shown = guide.slice(start, guide.indexOf('\n```\n', start));
  expect(shown).toBe(read('./buy.e2e.test.ts').trimEnd());
});

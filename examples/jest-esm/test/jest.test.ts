/**
 * The testing guide's Jest (ESM) set-up, run for real: Jest with Node's VM modules and no
 * transform, its test starting the mock with startInProcessMock. The config and the test are
 * the guide's blocks, kept equal to them here. The examples' vitest project runs this file;
 * Jest runs only `*.test.mjs`.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');

it('passes under Jest with ESM', { timeout: 60_000 }, async () => {
  const { stderr } = await promisify(execFile)(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--ci'], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  // Jest reports on stderr; a failing test would have rejected with its exit code 1.
  expect(stderr).toMatch(/Tests:\s+1 passed, 1 total/);
});

it('is the configuration and the test the guide shows', () => {
  const guide = read('../../docs/guides/testing-with-the-mock.md');
  const block = (firstLine: string) => {
    const start = guide.indexOf(`${firstLine}\n`);
    expect(start).toBeGreaterThan(0);
    return guide.slice(start, guide.indexOf('```', start));
  };
  expect(read('jest.config.mjs')).toBe(block('// jest.config.mjs'));
  expect(read('test/top-ups.test.mjs')).toBe(block('// test/top-ups.test.mjs'));
});

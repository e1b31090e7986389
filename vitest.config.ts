import { defineConfig } from 'vitest/config';

// One run for the whole workspace; each package is a project with its own tests.
export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      { test: { name: 'mock-server', root: './mock-server', include: ['test/**/*.test.ts'], testTimeout: 20_000 } },
      { test: { name: 'sdk', root: './packages/sdk', include: ['test/**/*.test.ts'], testTimeout: 20_000 } },
      { test: { name: 'widget', root: './packages/widget', include: ['test/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'examples', root: './examples', include: ['*/test/**/*.test.ts'], testTimeout: 30_000 } },
    ],
    passWithNoTests: false,
  },
});

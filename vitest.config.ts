import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { writeBrowserScripts } from './mock-server/scripts/browser-scripts.ts';
import { writeOpenapiModule } from './mock-server/scripts/openapi.ts';

// The mock's pages send their browser code bundled: bundle it from source before any test runs.
await writeBrowserScripts();
// The mock serves the SDK's OpenAPI document at /_mock/openapi.json: bundle it from the SDK's source too.
await writeOpenapiModule();

// Tests run the mock server from source, so that no build is needed between edits.
// Exact names: a bare prefix would also rewrite `@sikaramp/mock-server/client` to a path under index.ts.
const alias = [
  { find: /^@sikaramp\/mock-server$/, replacement: fileURLToPath(new URL('./mock-server/src/index.ts', import.meta.url)) },
  { find: /^@sikaramp\/mock-server\/client$/, replacement: fileURLToPath(new URL('./mock-server/src/client.ts', import.meta.url)) },
];

// With SIKARAMP_CONTRACT_DIR set (scripts/test.sh sets it), the mock's answers are recorded there,
// the first few of each (method, route, status) per test file, and validated against the OpenAPI
// document once all projects have run (mock-server/test/openapi-recorder.ts).
const contract = process.env.SIKARAMP_CONTRACT_DIR !== undefined;
const setupFiles = contract ? [fileURLToPath(new URL('./mock-server/test/openapi-recorder.ts', import.meta.url))] : [];

// One run for the whole workspace; each package is a project with its own tests.
export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    globalSetup: contract ? ['./mock-server/test/openapi-global-setup.ts'] : [],
    // Browser and process tests share two cores with everything else: generous limits keep a
    // slow machine from failing them, while each wait inside still has its own bound.
    // A package joins the run once it has tests.
    projects: [
      { test: { name: 'mock-server', setupFiles, root: './mock-server', include: ['test/**/*.test.ts'], testTimeout: 20_000 } },
      { resolve: { alias }, test: { name: 'sdk', setupFiles, root: './packages/sdk', include: ['test/**/*.test.ts'], testTimeout: 20_000 } },
      { resolve: { alias }, test: { name: 'widget', setupFiles, root: './packages/widget', include: ['test/**/*.test.ts'], testTimeout: 90_000 } },
      { resolve: { alias }, test: { name: 'examples', setupFiles, root: './examples', include: ['*/test/**/*.test.ts'], testTimeout: 90_000 } },
      { resolve: { alias }, test: { name: 'docs', setupFiles, root: './docs', include: ['test/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'packaging', root: '.', include: ['test/packaging/**/*.test.ts'], testTimeout: 60_000 } },
    ].filter((project) => existsSync(new URL(`${project.test.root}/${project.test.name === 'examples' ? '' : 'test'}`, import.meta.url))),
    passWithNoTests: false,
  },
});

/**
 * @sikaramp/mock-server: the Sikaramp service as MSW handlers, for tests, browsers and demos.
 *
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockBackend } from '@sikaramp/mock-server';
 * const backend = createMockBackend({ clock: 'manual', seed: 1 });
 * const server = setupServer(...backend.handlers);
 * ```
 */
// Everything a browser can load too (./browser.ts, the `browser` export condition), and the server.
export * from './browser.js';
export { startMockServer, type MockServer, type MockServerOptions } from './server.js';
export { startInProcessMock, type InProcessMock, type InProcessMockOptions } from './testing/in-process.js';

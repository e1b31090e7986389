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
export { createMockBackend, type MockBackend } from './backend.js';
export { startMockServer, type MockServer, type MockServerOptions } from './server.js';
export type { MockBackendOptions, Urls } from './options.js';
export { createClock, type Clock, type ClockOptions } from './clock.js';
export type { Control } from './control/index.js';
export type { MockContext } from './context.js';
export { HttpError, type ErrorCode } from './http/errors.js';
export { RETRY_SCHEDULE_SECONDS } from './webhooks/deliver.js';
export type * from './store.js';

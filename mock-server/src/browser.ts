/**
 * The package index as a browser gets it (the `browser` export condition): everything but
 * `startMockServer`, whose node:http a browser bundler cannot resolve. Use the handlers with
 * `setupWorker` (msw/browser).
 */
export { createMockBackend, type MockBackend } from './backend.js';
export type { MockBackendOptions, Urls } from './options.js';
export { createClock, type Clock, type ClockOptions } from './clock.js';
export type { Control } from './control/index.js';
export type { MockContext } from './context.js';
export { HttpError, type ErrorCode } from './http/errors.js';
export { RETRY_SCHEDULE_SECONDS } from './webhooks/deliver.js';
/** Test inputs that choose an outcome: KYC reviews by `last_name`, Mobile Money prompts by phone. */
export { KYC_TRIGGERS, PROCESSING_SECONDS } from './customers.js';
export { TEST_PHONES, PROMPT_DECLINE_SECONDS, PROMPT_TIMEOUT_SECONDS } from './mobile-money.js';
export type * from './store.js';

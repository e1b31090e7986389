import { getResponse, type HttpHandler } from 'msw';
import { createContext, type MockContext } from './context.js';
import { createControl, type Control } from './control/index.js';
import { createHandlers } from './handlers/index.js';
import { resolveOptions, type MockBackendOptions, type Urls } from './options.js';
import type { Clock } from './clock.js';
import type { Store } from './store.js';

export interface MockBackend {
  /** MSW request handlers for every surface and for `/_mock/` control. */
  handlers: HttpHandler[];
  /** The live store (replaced by `control.reset()`, so read it through this getter). */
  readonly store: Store;
  clock: Clock;
  control: Control;
  urls: Urls;
  /** Internals for the mock's own modules and tests. */
  context: MockContext;
}

/**
 * Builds the whole simulated service. Use its `handlers` with `setupServer` (msw/node),
 * `setupWorker` (msw/browser), or `startMockServer()` for a real HTTP server.
 */
export function createMockBackend(options: MockBackendOptions = {}): MockBackend {
  const ctx = createContext(resolveOptions(options));
  // The fixtures send their requests to these handlers, so they need no listener.
  let handlers: HttpHandler[] = [];
  const control = createControl(ctx, (request) => getResponse(handlers, request));
  handlers = [...control.handlers, ...createHandlers(ctx)];
  return {
    handlers,
    get store() {
      return ctx.store;
    },
    clock: ctx.clock,
    control: control.api,
    urls: ctx.urls,
    context: ctx,
  };
}

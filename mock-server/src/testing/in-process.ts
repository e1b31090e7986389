/**
 * The mock in the test's own process: `createMockBackend()` behind msw's `setupServer`, so every
 * `fetch` to `backend.urls` answers from it, until `close()`. The in-process twin of
 * `startMockServer()`, with the same `{ url, backend, close }`, so a suite can run on either.
 */
import type { UnhandledFrameHandle } from 'msw';
import { createMockBackend, type MockBackend } from '../backend.js';
import type { MockBackendOptions } from '../options.js';

export interface InProcessMockOptions extends MockBackendOptions {
  /**
   * What msw does with a request the mock does not serve. Default `'bypass'`: it goes out for
   * real, so your own servers on 127.0.0.1 (a webhook endpoint) are reached; `'error'` fails it.
   */
  onUnhandledFrame?: UnhandledFrameHandle;
}

export interface InProcessMock {
  /** The origin of every surface (`backend.urls.origin`). */
  url: string;
  backend: MockBackend;
  /** Stops intercepting and stops the clock's timers. */
  close(): Promise<void>;
}

/** Starts intercepting now; call `close()` in your `afterAll`/`afterEach`. */
export async function startInProcessMock(options: InProcessMockOptions = {}): Promise<InProcessMock> {
  const { onUnhandledFrame = 'bypass', ...backendOptions } = options;
  // Loaded here, not with the package: only this function needs msw's Node interceptors.
  const { setupServer } = await import('msw/node');
  const backend = createMockBackend(backendOptions);
  const server = setupServer(...backend.handlers);
  server.listen({ onUnhandledFrame });
  return {
    url: backend.urls.origin,
    backend,
    close: async () => {
      backend.clock.stop();
      server.close();
    },
  };
}

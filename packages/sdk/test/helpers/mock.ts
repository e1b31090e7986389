/**
 * Runs a suite against both ways merchants use the mock server: in-process (msw/node
 * intercepting fetch) and the standalone server over real HTTP on 127.0.0.1.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { createMockBackend, startMockServer, type MockBackend, type MockBackendOptions } from '@sikaramp/mock-server';

export interface MockEnv {
  mode: 'in-process' | 'standalone';
  /** Origin of every surface. */
  origin: string;
  backend: MockBackend;
  close(): Promise<void>;
}

export type EnvOptions = Omit<MockBackendOptions, 'origin'>;

interface MswServer {
  listen(options?: { onUnhandledFrame?: 'bypass' }): void;
  close(): void;
}

/**
 * msw is the mock server's dependency, not the SDK's: load the copy the mock server itself
 * uses, so that its handlers and this setupServer share one msw.
 */
async function setupServer(handlers: unknown[]): Promise<MswServer> {
  const fromMock = createRequire(new URL('../../node_modules/@sikaramp/mock-server/package.json', import.meta.url));
  const mswNode = (await import(pathToFileURL(fromMock.resolve('msw/node')).href)) as {
    setupServer(...handlers: unknown[]): MswServer;
  };
  return mswNode.setupServer(...handlers);
}

export async function startInProcess(options: EnvOptions = {}): Promise<MockEnv> {
  const backend = createMockBackend({ clock: 'manual', ...options });
  const server = await setupServer(backend.handlers);
  server.listen({ onUnhandledFrame: 'bypass' });
  return {
    mode: 'in-process',
    origin: backend.urls.origin,
    backend,
    close: async () => {
      backend.clock.stop();
      server.close();
    },
  };
}

export async function startStandalone(options: EnvOptions = {}): Promise<MockEnv> {
  const server = await startMockServer({ port: 0, clock: 'manual', ...options });
  return { mode: 'standalone', origin: server.url, backend: server.backend, close: server.close };
}

export const MODES = [
  ['in-process (msw/node)', startInProcess],
  ['standalone (127.0.0.1)', startStandalone],
] as const;


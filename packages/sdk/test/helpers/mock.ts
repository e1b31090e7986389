/**
 * Runs a suite against both ways merchants use the mock server, as its test kit starts them:
 * in-process (`startInProcessMock`, msw/node intercepting fetch, with the msw the mock server
 * itself uses) and the standalone server over real HTTP on 127.0.0.1, each on a manual clock.
 */
import { startInProcessMock, startMockServer, type MockBackend, type MockBackendOptions } from '@sikaramp/mock-server';

export interface MockEnv {
  mode: 'in-process' | 'standalone';
  /** Origin of every surface. */
  origin: string;
  backend: MockBackend;
  close(): Promise<void>;
}

export type EnvOptions = Omit<MockBackendOptions, 'origin'>;

export async function startInProcess(options: EnvOptions = {}): Promise<MockEnv> {
  const mock = await startInProcessMock({ clock: 'manual', ...options });
  return { mode: 'in-process', origin: mock.url, backend: mock.backend, close: mock.close };
}

export async function startStandalone(options: EnvOptions = {}): Promise<MockEnv> {
  const server = await startMockServer({ port: 0, clock: 'manual', ...options });
  return { mode: 'standalone', origin: server.url, backend: server.backend, close: server.close };
}

export const MODES = [
  ['in-process (msw/node)', startInProcess],
  ['standalone (127.0.0.1)', startStandalone],
] as const;


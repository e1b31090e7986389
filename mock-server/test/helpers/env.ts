/**
 * Runs a suite against both ways merchants use the mock, as the package's test kit starts them:
 * in-process (`startInProcessMock`, msw/node intercepting fetch) and the standalone server
 * (`startMockServer`) over real HTTP on 127.0.0.1, each on a manual clock.
 */
import type { MockBackend } from '../../src/backend.js';
import type { MockBackendOptions } from '../../src/options.js';
import { startMockServer } from '../../src/server.js';
import { startInProcessMock } from '../../src/testing/in-process.js';

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

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A JSON call with the envelope left as it is, for asserting exact wire shapes. */
export async function call<T = any>(
  env: MockEnv,
  method: string,
  path: string,
  init: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${env.origin}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, body: parsed as T, headers: res.headers };
}

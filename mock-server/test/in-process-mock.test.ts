/**
 * startInProcessMock, the kit's in-process set-up: the service answers fetch at its origin
 * until close(), a request it does not serve goes out for real by default (a test's own
 * endpoint on 127.0.0.1) or fails with 'error', and it answers the shape startMockServer does.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startInProcessMock } from '../src/index.js';

let local: { url: string; close(): Promise<void> };
beforeAll(async () => {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('local'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
});
afterAll(() => local.close());

/** An origin on 127.0.0.1 where nothing listens: after close(), a request there is refused on this machine. */
async function unusedOrigin() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

it('answers at its url until closed, and lets other requests through by default', async () => {
  const mock = await startInProcessMock({ clock: 'manual', seed: 3, origin: await unusedOrigin() });
  expect(mock.url).toBe(mock.backend.urls.origin);
  const toml = await fetch(`${mock.url}/.well-known/stellar.toml`);
  expect(toml.status).toBe(200);
  expect(await toml.text()).toContain('WEB_AUTH_ENDPOINT');
  const merchant = await mock.backend.control.fixtures.merchant();
  const config = await fetch(`${mock.url}/api/v1/widget/config`, { headers: { 'x-api-key': merchant.secret_key } });
  expect((await config.json()).data.merchant_id).toBe(merchant.id);
  expect(await (await fetch(local.url)).text()).toBe('local');

  await mock.close();
  // No longer intercepted: the request reaches the real port, where nothing listens.
  await expect(fetch(`${mock.url}/.well-known/stellar.toml`)).rejects.toThrow();
});

it("with onUnhandledFrame 'error', a request the mock does not serve fails", async () => {
  const mock = await startInProcessMock({ clock: 'manual', onUnhandledFrame: 'error' });
  try {
    await expect(fetch(local.url)).rejects.toThrow();
    expect((await fetch(`${mock.url}/.well-known/stellar.toml`)).status).toBe(200);
  } finally {
    await mock.close();
  }
});

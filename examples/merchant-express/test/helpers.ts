/**
 * The world the express app's tests run in, all on 127.0.0.1: the standalone mock server on a
 * manual clock, seeded as the demo seeds it, and the shop on its own port, whose webhooks
 * the mock really POSTs. The shop can be restarted on the same port and SQLite file.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer, type MockServer } from '@sikaramp/mock-server';
import { createControlClient, type ControlClient } from '@sikaramp/mock-server/client';
import type { WaitClock } from '@sikaramp/sdk';
import type { Config } from '../src/config.ts';
import { seedMock } from '../src/seed.ts';
import { startShop, type Shop } from '../src/server.ts';

export interface World {
  mock: MockServer;
  config: Config;
  shop: Shop;
  /** Every line the shop printed to its terminal. */
  lines: string[];
  /** The mock's control API over HTTP (`/_mock/...`), typed as `backend.control`; a refused call rejects with an `HttpError`. */
  control: ControlClient;
  /** A request to the shop, not following redirects, with the `Origin` the shop's own page sends. */
  shopFetch(path: string, init?: RequestInit): Promise<Response>;
  /** Stops the shop and starts it again on the same port and SQLite file. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A fresh SQLite path in a temporary directory. */
export const tempDatabase = () => join(mkdtempSync(join(tmpdir(), 'kofi-shop-')), 'shop.sqlite');

export async function startWorld(): Promise<World> {
  const mock = await startMockServer({ port: 0, clock: 'manual' });
  const control = createControlClient({ baseUrl: mock.url });
  // waitForOrder's time is the mock's: each wait between two looks moves the manual clock.
  const waitClock: WaitClock = {
    now: () => mock.backend.clock.now(),
    sleep: async (ms) => {
      await control.clock.advance(ms / 1000);
    },
  };

  const listen = async (port: number) => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return server;
  };
  const first = await listen(0);
  const port = (first.address() as AddressInfo).port;
  const { config } = await seedMock({ mockUrl: mock.url, publicUrl: `http://127.0.0.1:${port}`, port, databasePath: tempDatabase() });
  const lines: string[] = [];
  const start = async (server: Awaited<ReturnType<typeof listen>>) => startShop(config, { server, log: (line) => lines.push(line), waitClock });

  const world: World = {
    mock,
    config,
    shop: await start(first),
    lines,
    control,
    shopFetch: (path, init) =>
      fetch(`${config.publicUrl}${path}`, { redirect: 'manual', ...init, headers: { origin: new URL(config.publicUrl).origin, ...(init?.headers as Record<string, string>) } }),
    async restart() {
      await world.shop.close();
      world.shop = await start(await listen(port));
    },
    async close() {
      await world.shop.close();
      await mock.close();
    },
  };
  return world;
}

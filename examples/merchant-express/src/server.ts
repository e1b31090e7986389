/**
 * Starts the merchant backend: `pnpm start` with the environment of config.ts (a real
 * sandbox), or `startShop()` from the demo and the tests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { WaitClock } from '@sikaramp/sdk';
import { createApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { openShopDb, type ShopDb } from './db.ts';
import { Feed } from './feed.ts';
import { bundleWidget } from './widget-bundle.ts';

export interface Shop {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  server: Server;
  db: ShopDb;
  feed: Feed;
  close(): Promise<void>;
}

export interface StartShopOptions {
  /** Terminal output. Default console.log. */
  log?: (line: string) => void;
  waitClock?: WaitClock;
  /** A server already listening (the demo binds the port before it knows the keys). */
  server?: Server;
}

export async function startShop(config: Config, options: StartShopOptions = {}): Promise<Shop> {
  const db = openShopDb(config.databasePath);
  const feed = new Feed(options.log ?? ((line) => console.log(line)));
  const app = createApp({ config, db, feed, widgetFiles: await bundleWidget(), waitClock: options.waitClock });
  const server = options.server ?? createServer();
  server.on('request', app);
  if (!server.listening) await new Promise<void>((resolve) => server.listen(config.port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    db,
    feed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        db.close();
      }),
  };
}

// Run directly (`pnpm start`), not imported.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = loadConfig();
  await startShop(config);
  console.log(`Kofi Shop on ${config.publicUrl}`);
}

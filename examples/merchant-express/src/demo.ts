/**
 * The demo (`pnpm demo`, or `bash scripts/demo.sh` on a fresh clone): the mock server and this
 * merchant backend, seeded and wired together, on this machine. With SIKARAMP_BASE_URL and the
 * other variables of config.ts set, it runs the same backend against that sandbox instead.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer, type MockServer, type MockServerOptions } from '@sikaramp/mock-server';
import { loadConfig, type Config } from './config.ts';
import { seedMock } from './seed.ts';
import { startShop, type Shop } from './server.ts';

export interface DemoOptions {
  /** The shop's port; 0 picks a free one. Default PORT, else 3000. */
  port?: number;
  /** The mock server's port; 0 picks a free one. Default MOCK_PORT, else 4010. */
  mockPort?: number;
  /** Default `examples/merchant-express/.data/demo.sqlite`. */
  databasePath?: string;
  /** How the mock moves by itself. Default: Mobile Money prompts approve after 5 s; a sell's USDC waits for the page's button. */
  autoAdvance?: MockServerOptions['autoAdvance'];
  /** Terminal output. Default console.log. */
  log?: (line: string) => void;
  env?: Record<string, string | undefined>;
}

export interface Demo {
  /** The one address to open. */
  url: string;
  config: Config;
  shop: Shop;
  /** Absent against a real sandbox. */
  mock?: MockServer;
  close(): Promise<void>;
}

const DEFAULT_DATABASE = fileURLToPath(new URL('../.data/demo.sqlite', import.meta.url));

export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.log(line));
  const port = options.port ?? Number(env.PORT ?? 3000);

  if (env.SIKARAMP_BASE_URL) {
    const config = loadConfig({ ...env, PORT: String(port) });
    const shop = await startShop(config, { log });
    log(`Kofi Shop against ${config.baseUrl} (keys and URLs from the environment; see examples/merchant-express/src/config.ts)`);
    log('');
    log(`  Open ${config.publicUrl}`);
    log('');
    return { url: config.publicUrl, config, shop, close: shop.close };
  }

  const mock = await startMockServer({
    port: options.mockPort ?? Number(env.MOCK_PORT ?? 4010),
    autoAdvance: options.autoAdvance ?? { walletPays: false },
  }).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE' ? new Error('port 4010 is in use: stop what runs there, or set MOCK_PORT') : error;
  });
  // The shop's port first: its address goes into the keys and webhook settings.
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  } catch (error) {
    await mock.close();
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? new Error(`port ${port} is in use: set PORT to another one`) : error;
  }
  const shopPort = (server.address() as AddressInfo).port;
  const publicUrl = `http://127.0.0.1:${shopPort}`;
  const { config, steps } = await seedMock({
    mockUrl: mock.url,
    publicUrl,
    port: shopPort,
    databasePath: options.databasePath ?? env.DATABASE_PATH ?? DEFAULT_DATABASE,
  });
  const shop = await startShop(config, { log, server });
  const auto = mock.backend.context.options.autoAdvance;

  log('Sikaramp demo, test mode: the bundled mock server plays Sikaramp, Mobile Money and Stellar. No real money moves.');
  log(`  mock       Sikaramp mock server on port ${new URL(mock.url).port}${auto ? `; Mobile Money prompts approve themselves after ${auto.mobileMoneySeconds} s` : ''}`);
  for (const step of steps) log(`  ${step}`);
  log(`  database   ${relative(process.cwd(), config.databasePath)} (orders and handled webhook events, SQLite)`);
  log('');
  log(`  Open ${publicUrl}`);
  log('');
  log('Buy and sell USDC, pay at checkout, run a server-side ramp order. Verified webhooks appear below. Ctrl-C stops.');
  return {
    url: publicUrl,
    config,
    shop,
    mock,
    close: async () => {
      await shop.close();
      await mock.close();
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const demo = await startDemo().catch((error: Error) => {
    console.error(`demo: ${error.message}`);
    process.exit(1);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void demo.close().then(() => process.exit(0)));
  }
}

/**
 * Runs the shop on Node (`pnpm start`), configured from the environment. Node serves no web
 * `Request`s by itself, so `serve` bridges node:http to Hono's `fetch` (`@hono/node-server`
 * does the same); Bun and Deno serve `createShop(...).fetch` as it is.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { DatabaseSync } from 'node:sqlite';
import { SqliteDedupeStore } from '@sikaramp/sdk/webhooks/sqlite';
import { createShop } from './server.ts';

export async function serve(fetch: (request: Request) => Response | Promise<Response>, port = 0) {
  const server = createServer(async (req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) for (const one of [value ?? []].flat()) headers.append(name, one);
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream);
    const response = await fetch(new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, { method: req.method, headers, body, duplex: 'half' } as RequestInit));
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

if (process.argv[1] === import.meta.filename) {
  const env = (name: string) => process.env[name] || (console.error(`Set ${name}.`), process.exit(1));
  const shop = createShop({
    baseUrl: env('SIKARAMP_BASE_URL'),
    anchorUrl: env('SIKARAMP_ANCHOR_URL'),
    secretKey: env('SIKARAMP_SECRET_KEY'),
    publicKey: env('SIKARAMP_PUBLIC_KEY'),
    stellarSecret: env('SIKARAMP_STELLAR_SECRET'),
    webhookSecret: env('SIKARAMP_WEBHOOK_SECRET'),
    store: new SqliteDedupeStore(new DatabaseSync(process.env.DATABASE ?? 'events.db')),
    // A demo shop with one signed-in customer; yours reads its login cookie here.
    customerOf: () => env('SIKARAMP_CUSTOMER_ID'),
    fulfil: (event) => console.log('fulfil', event.event, 'order_id' in event ? event.order_id : event.data.reference),
  });
  const { url } = await serve(shop.fetch, Number(process.env.PORT ?? 3000));
  console.log(`Shop backend on ${url}: POST /api/ramp/session, GET /api/ramp/status, POST /webhooks/sikaramp`);
}

/** Runs the shop (`pnpm start`), configured from the environment. */
import { DatabaseSync } from 'node:sqlite';
import { SqliteDedupeStore } from '@sikaramp/sdk/webhooks/sqlite';
import { createShop } from './server.ts';

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
const port = Number(process.env.PORT ?? 3000);
const address = await shop.listen({ port, host: process.env.HOST ?? '0.0.0.0' });
console.log(`Shop backend on ${address}: POST /api/ramp/session, GET /api/ramp/status, POST /webhooks/sikaramp`);

/** A shop's whole Sikaramp backend in Next.js: the widget's buy and sell endpoints, and the webhooks it fulfils from. */
import { DatabaseSync } from 'node:sqlite';
import { WidgetClient } from '@sikaramp/sdk';
import { AnchorClient, Keypair } from '@sikaramp/sdk/anchor';
import { createRampHandlers, createWebhookHandler } from '@sikaramp/sdk/handlers';
import { nextRoutes } from '@sikaramp/sdk/handlers/next';
import { SqliteDedupeStore } from '@sikaramp/sdk/webhooks/sqlite';
import { customerOf } from './login.ts';

// Made on the first request, not when `next build` loads this module without your secrets.
export const route = nextRoutes(() => ({
  ...createRampHandlers({
    widget: new WidgetClient({ baseUrl: process.env.SIKARAMP_BASE_URL!, secretKey: process.env.SIKARAMP_SECRET_KEY! }),
    anchor: new AnchorClient({ anchorUrl: process.env.SIKARAMP_ANCHOR_URL!, signer: Keypair.fromSecret(process.env.SIKARAMP_STELLAR_SECRET!) }),
    publicKey: process.env.SIKARAMP_PUBLIC_KEY!,
    authorize: customerOf, // your login: the signed-in customer's Sikaramp id
  }),
  webhook: createWebhookHandler({
    secret: process.env.SIKARAMP_WEBHOOK_SECRET!,
    store: new SqliteDedupeStore(new DatabaseSync(process.env.DATABASE ?? 'events.db')),
    onEvent: (event) => console.log('fulfil', event.event, 'order_id' in event ? event.order_id : event.data.reference),
  }),
}));

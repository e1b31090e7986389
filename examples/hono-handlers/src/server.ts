/** A shop's whole Sikaramp backend with Hono: the widget's buy and sell endpoints, and the order webhooks. */
import { Hono } from 'hono';
import { WidgetClient } from '@sikaramp/sdk';
import { AnchorClient, Keypair } from '@sikaramp/sdk/anchor';
import { createRampHandlers, createWebhookHandler, type DedupeStore } from '@sikaramp/sdk/handlers';
import { toHono } from '@sikaramp/sdk/handlers/hono';
import type { WebhookEvent } from '@sikaramp/sdk/webhooks';

export interface ShopConfig {
  baseUrl: string; anchorUrl: string; secretKey: string; publicKey: string; stellarSecret: string; webhookSecret: string;
  /** Where handled webhook events are kept: SqliteDedupeStore or your database, to survive a restart. */
  store: DedupeStore;
  /** Your login: the signed-in customer's Sikaramp id, never one the request body names. */
  customerOf: (request: Request) => string | undefined | Promise<string | undefined>;
  /** Fulfil here, from the signed webhook only. */
  fulfil: (event: WebhookEvent) => unknown;
}

export function createShop(c: ShopConfig): Hono {
  const widget = new WidgetClient({ baseUrl: c.baseUrl, secretKey: c.secretKey });
  const anchor = new AnchorClient({ anchorUrl: c.anchorUrl, signer: Keypair.fromSecret(c.stellarSecret) });
  const ramp = createRampHandlers({ widget, anchor, publicKey: c.publicKey, authorize: c.customerOf });
  const webhook = createWebhookHandler({ secret: c.webhookSecret, store: c.store, onEvent: c.fulfil });
  return new Hono()
    .post('/api/ramp/session', toHono(ramp.session))
    .get('/api/ramp/status', toHono(ramp.status))
    .post('/webhooks/sikaramp', toHono(webhook));
}

/** A shop's whole Sikaramp backend with Express: the widget's buy and sell endpoints, and the order webhooks. */
import express, { type Express } from 'express';
import { WidgetClient } from '@sikaramp/sdk';
import { AnchorClient, Keypair } from '@sikaramp/sdk/anchor';
import { createRampHandlers, createWebhookHandler, type DedupeStore } from '@sikaramp/sdk/handlers';
import { toExpress } from '@sikaramp/sdk/handlers/express';
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

export function createShop(c: ShopConfig): Express {
  const widget = new WidgetClient({ baseUrl: c.baseUrl, secretKey: c.secretKey });
  const anchor = new AnchorClient({ anchorUrl: c.anchorUrl, signer: Keypair.fromSecret(c.stellarSecret) });
  const ramp = createRampHandlers({ widget, anchor, publicKey: c.publicKey, authorize: c.customerOf });
  const webhook = createWebhookHandler({ secret: c.webhookSecret, store: c.store, onEvent: c.fulfil });
  // No body parser in front of the webhook: the handler reads the bytes as they were signed.
  return express()
    .post('/api/ramp/session', toExpress(ramp.session))
    .get('/api/ramp/status', toExpress(ramp.status))
    .post('/webhooks/sikaramp', toExpress(webhook));
}

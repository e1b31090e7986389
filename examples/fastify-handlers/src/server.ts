/** A shop's whole Sikaramp backend with Fastify: the widget's buy and sell endpoints, and the order webhooks. */
import Fastify, { type FastifyInstance } from 'fastify';
import { WidgetClient } from '@sikaramp/sdk';
import { AnchorClient, Keypair } from '@sikaramp/sdk/anchor';
import { createRampHandlers, createWebhookHandler, type DedupeStore } from '@sikaramp/sdk/handlers';
import { rawBodies, toFastify } from '@sikaramp/sdk/handlers/fastify';
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

export function createShop(c: ShopConfig): FastifyInstance {
  const widget = new WidgetClient({ baseUrl: c.baseUrl, secretKey: c.secretKey });
  const anchor = new AnchorClient({ anchorUrl: c.anchorUrl, signer: Keypair.fromSecret(c.stellarSecret) });
  const ramp = createRampHandlers({ widget, anchor, publicKey: c.publicKey, authorize: c.customerOf });
  const webhook = createWebhookHandler({ secret: c.webhookSecret, store: c.store, onEvent: c.fulfil });
  return Fastify().register(async (scope) => {
    rawBodies(scope); // this scope's bodies stay the bytes that arrived: the webhook's signature covers them
    scope.post('/api/ramp/session', toFastify(ramp.session)).get('/api/ramp/status', toFastify(ramp.status));
    scope.post('/webhooks/sikaramp', toFastify(webhook));
  });
}

/**
 * The two webhook endpoints, as the SDK's drop-in handler: it reads the RAW body, verifies the
 * signature before anything else, answers 400 to anything that fails, and runs each event once
 * (de-duplicated in the shop's SQLite file, so a restart or a replay changes nothing).
 *
 * The mistake merchants make most often is `app.use(express.json())` for the whole app, webhooks
 * included: the signed bytes are gone, `JSON.stringify(req.body)` is other bytes (spacing, key
 * order, escapes, number formats), every signature check fails, and the tempting "fix" is to
 * stop verifying. Here nothing parses a body before these routes (see app.ts); `toExpress` reads
 * the bytes from the request itself.
 */
import { Router } from 'express';
import { isPaidStatus } from '@sikaramp/sdk';
import { createWebhookHandler } from '@sikaramp/sdk/handlers';
import { toExpress } from '@sikaramp/sdk/handlers/express';
import { isOrderEvent, type CheckoutWebhookEvent, type WebhookEvent, type WebhookVerificationError } from '@sikaramp/sdk/webhooks';
import type { Config } from '../config.ts';
import type { ShopDb } from '../db.ts';
import type { Feed } from '../feed.ts';

export function webhookRoutes({ config, db, feed }: { config: Config; db: ShopDb; feed: Feed }): Router {
  const store = db.webhookStore;
  const refused = (what: string) => (error: WebhookVerificationError) =>
    feed.publish('webhook', `${what} ✗ refused (${error.reason}): ${error.message}`, { verified: false, reason: error.reason });

  /** Order webhooks (interactive buy and sell) and ramp payment webhooks: logged on the page. */
  const orders = createWebhookHandler({
    secret: config.webhookSecret,
    store,
    onEvent: (event) => feed.publish('webhook', `webhook ✓ ${describe(event)} — signature verified`, { verified: true, event }),
    onDuplicate: (event) => feed.publish('webhook', `webhook ✓ ${event.event} again (already handled, ignored)`, { verified: true, duplicate: true, event }),
    onRefused: refused('webhook'),
  });

  /** Checkout webhooks: the ONLY place an order is fulfilled. */
  const checkout = createWebhookHandler({
    kind: 'checkout',
    secret: config.checkoutWebhookSecret,
    store,
    onEvent: (event) => fulfil(db, feed, event),
    onDuplicate: (event) =>
      feed.publish('webhook', `checkout webhook ✓ ${event.id} again: already handled, nothing shipped twice`, { verified: true, duplicate: true, event }),
    onRefused: refused('checkout webhook'),
  });

  return Router().post('/webhooks/sikaramp', toExpress(orders)).post('/webhooks/checkout', toExpress(checkout));
}

const describe = (event: WebhookEvent) =>
  isOrderEvent(event)
    ? `${event.event} ${event.type} ${event.fiat_amount} ${event.fiat_currency} / ${event.crypto_amount} ${event.crypto_currency} (${event.order_id})`
    : `${event.event} ${event.data.meta.ramp_type} ${(event.data.amount / 100).toFixed(2)} ${event.data.currency} (${event.data.reference})`;

/**
 * Ships a paid order. The handler already de-duplicated the event; `db.fulfil` claims its id
 * again in the shipment's own SQLite transaction, so even two deliveries at once ship once.
 */
function fulfil(db: ShopDb, feed: Feed, event: CheckoutWebhookEvent): void {
  const { data } = event;
  // The order's token (see routes/checkout.ts).
  const orderId = String(data.meta.order_id);
  const amount = `${(data.final_amount / 100).toFixed(2)} ${data.currency}`;
  if (event.type !== 'payment.succeeded' || !isPaidStatus(data.status)) {
    return feed.publish('webhook', `checkout webhook ✓ ${event.type} ${data.status} for order ${orderId}`, { verified: true, event });
  }
  const result = db.fulfil(event.id, orderId, (order) => {
    if (order.session_id !== data.session_id) return `session ${data.session_id} is not order ${orderId}'s`;
    // Ship what was paid for: the amount the session confirmed must be the order total.
    if (data.final_amount !== order.amount || data.currency !== order.currency) return `paid ${amount}, the order is ${order.amount} ${order.currency}`;
    return undefined;
  });
  if (result.outcome === 'fulfilled') {
    feed.publish('webhook', `checkout webhook ✓ payment.succeeded ${amount} for order ${orderId} — signature verified`, { verified: true, event });
    feed.publish('fulfilment', `order ${orderId} fulfilled (event ${event.id})`, { orderId, eventId: event.id });
  } else if (result.outcome === 'duplicate') {
    feed.publish('webhook', `checkout webhook ✓ ${event.id} again: already handled, nothing shipped twice`, { verified: true, duplicate: true, event });
  } else {
    feed.publish('webhook', `checkout webhook ✓ ${event.id} for order ${orderId}: not fulfilled, ${result.reason}`, { verified: true, event });
  }
}

/**
 * The two webhook endpoints. Both verify the signature over the RAW body before anything else,
 * answer 400 to anything that fails, and handle each event once.
 *
 * The mistake merchants make most often:
 *
 *   app.use(express.json());                       // for the whole app, webhooks included
 *   app.post('/webhooks/sikaramp', async (req, res) => {
 *     await verifyWebhook({ body: JSON.stringify(req.body), … }); // always fails
 *   });
 *
 * express.json() has already consumed the body, and JSON.stringify(req.body) is not the bytes
 * that were signed (spacing, key order, escapes and number formats all change), so every
 * signature check fails, and the tempting "fix" is to stop verifying. Here the webhook routes
 * are mounted with express.raw() BEFORE any JSON parser (see app.ts), so `req.body` is a
 * Buffer with the exact bytes.
 */
import express, { Router } from 'express';
import { isPaidStatus } from '@sikaramp/sdk';
import {
  isOrderEvent,
  verifyCheckoutWebhook,
  verifyWebhook,
  webhookEventKey,
  WebhookVerificationError,
  type WebhookEvent,
} from '@sikaramp/sdk/webhooks';
import type { Config } from '../config.ts';
import type { ShopDb } from '../db.ts';
import type { Feed } from '../feed.ts';

export function webhookRoutes({ config, db, feed }: { config: Config; db: ShopDb; feed: Feed }): Router {
  const router = Router();
  const raw = express.raw({ type: 'application/json' });

  /** Order webhooks (interactive buy and sell) and ramp payment webhooks. */
  router.post('/webhooks/sikaramp', raw, async (req, res) => {
    let event: WebhookEvent;
    try {
      event = await verifyWebhook({ body: req.body, headers: req.headers, secret: config.webhookSecret });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      feed.publish('webhook', `webhook ✗ refused (${error.reason}): ${error.message}`, { verified: false, reason: error.reason });
      return void res.status(400).json({ error: error.reason });
    }
    // The same event can be delivered again (retries, or a replay: the timestamp of these
    // webhooks is not signed): log and act on it once, across restarts.
    const key = webhookEventKey(event);
    const what = isOrderEvent(event)
      ? `${event.event} ${event.type} ${event.fiat_amount} ${event.fiat_currency} / ${event.crypto_amount} ${event.crypto_currency} (${event.order_id})`
      : `${event.event} ${event.data.meta.ramp_type} ${(event.data.amount / 100).toFixed(2)} ${event.data.currency} (${event.data.reference})`;
    const handled = await db.webhooks.once(event, () => feed.publish('webhook', `webhook ✓ ${what} — signature verified`, { verified: true, key, event }));
    if (!handled.duplicate) return void res.json({ received: true });
    // Still being handled elsewhere: not 2xx, so that the service retries in case that fails.
    if (handled.pending) return void res.status(409).json({ error: 'being handled' });
    feed.publish('webhook', `webhook ✓ ${event.event} again (already handled, ignored)`, { verified: true, duplicate: true, key });
    res.json({ received: true, duplicate: true });
  });

  /**
   * Checkout webhooks: the ONLY place an order is fulfilled. Keyed on the event id (the body's
   * `id`, the same as `X-Svc-Event-ID`), claimed in the same SQLite transaction as the shipment.
   */
  router.post('/webhooks/checkout', raw, async (req, res) => {
    let event;
    try {
      event = await verifyCheckoutWebhook({ body: req.body, headers: req.headers, secret: config.checkoutWebhookSecret });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      feed.publish('webhook', `checkout webhook ✗ refused (${error.reason}): ${error.message}`, { verified: false, reason: error.reason });
      return void res.status(400).json({ error: error.reason });
    }
    const { data } = event;
    // The order's token (see routes/checkout.ts).
    const orderId = String(data.meta.order_id);
    const amount = `${(data.final_amount / 100).toFixed(2)} ${data.currency}`;
    if (event.type !== 'payment.succeeded' || !isPaidStatus(data.status)) {
      const { duplicate } = await db.webhooks.once(event, () => undefined);
      feed.publish('webhook', `checkout webhook ✓ ${event.type} ${data.status} for order ${orderId}${duplicate ? ' again (ignored)' : ''}`, {
        verified: true,
        event,
      });
      return void res.json({ received: true });
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
    res.json({ received: true });
  });

  return router;
}

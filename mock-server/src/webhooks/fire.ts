/**
 * `control.webhooks.fire`: sends the webhook of a chosen event for an existing record, as the
 * service would send it for that record, without changing the record, so a test can show its
 * receiver any event at any time. Each delivery is a new event (new event id, fresh signature),
 * signed, attempted and retried like any other of its kind, and marked `fired`.
 */
import { z } from 'zod';
import { iso } from '../clock.js';
import type { MockContext } from '../context.js';
import { findRampOrder } from '../handlers/ramp/lifecycle.js';
import { sendPaymentWebhook } from '../handlers/ramp/payment-webhooks.js';
import { parse } from '../http/body.js';
import { isPaid } from '../machines/checkout-session.js';
import { HttpError, notFound } from '../http/errors.js';
import type { CheckoutEventPayload } from '../state/checkout.js';
import type { DeliveryRecord } from '../types.js';
import { enqueueDelivery } from './deliver.js';
import { orderWebhookPayload } from './payloads.js';

const Id = z.string().trim().min(1).max(200);

/** Which events each kind has (000 and 001 section 6, 002 section 6), and the record `id` names. */
export const FireBody = z.discriminatedUnion('kind', [
  /** `id`: the merchant's order (`ord_…`). */
  z.object({ kind: z.literal('order'), event: z.enum(['order.completed', 'order.failed', 'order.expired']), id: Id }),
  /** `id`: the ramp order's id or reference (`RMP-…`); the event tells of its Mobile Money collection (buy) or payout (sell). */
  z.object({ kind: z.literal('ramp_payment'), event: z.enum(['payment.completed', 'payment.failed']), id: Id }),
  /** `id`: the checkout payment's reference or transaction id (`txn_…`); sent to each endpoint of its organization. */
  z.object({ kind: z.literal('checkout'), event: z.enum(['payment.succeeded', 'payment.failed']), id: Id }),
]);
export type FireInput = z.input<typeof FireBody>;

const conflict = (message: string) => new HttpError(409, 'INVALID_STATE', message);

/** Queues the deliveries of the event (their first attempt starts at once) and returns them. */
export function fireEvent(ctx: MockContext, input: FireInput): DeliveryRecord[] {
  const body = parse(FireBody, input);
  const before = new Set(ctx.store.deliveries.keys());
  if (body.kind === 'order') {
    const order = ctx.store.orders.get(body.id);
    if (!order) throw notFound('order');
    const url = ctx.store.merchants.get(order.merchant_id)?.webhook.url;
    if (!url) throw conflict('the merchant has no webhook URL');
    enqueueDelivery(ctx, { kind: 'order', event: body.event, merchantId: order.merchant_id, url, payload: orderWebhookPayload(ctx, order, body.event) });
  } else if (body.kind === 'ramp_payment') {
    const order = findRampOrder(ctx, body.id);
    if (!order) throw notFound('ramp order');
    if (!ctx.store.merchants.get(order.merchant_id)?.webhook.url) throw conflict('the merchant has no webhook URL');
    const { collections, payouts } = ctx.store.mobileMoney;
    const fiat = order.type === 'onramp' ? collections.get(order.collection_id ?? '') : payouts.get(order.payout_id ?? '');
    if (!fiat) throw conflict(`the ramp order has no Mobile Money ${order.type === 'onramp' ? 'collection' : 'payout'} yet`);
    sendPaymentWebhook(ctx, order, body.event, fiat);
  } else {
    const txn = [...ctx.store.checkout.transactions.values()].find((t) => t.reference === body.id || t.id === body.id);
    if (!txn) throw notFound('checkout payment');
    const endpoints = [...ctx.store.checkout.webhookEndpoints.values()].filter((e) => e.organization_id === txn.organization_id);
    if (endpoints.length === 0) throw conflict('the organization has no webhook endpoint');
    const id = `evt_${ctx.random.uuid()}`;
    // The status the event stands for: the payment's own when it agrees with the event, else the plain one.
    const agrees = body.event === 'payment.succeeded' ? isPaid(txn.status) : txn.status === 'failed' || txn.status === 'cancelled';
    const payload: CheckoutEventPayload = {
      id,
      type: body.event,
      created_at: iso(ctx.clock.now()),
      data: {
        reference: txn.reference,
        session_id: txn.session_id,
        status: agrees ? txn.status : body.event === 'payment.succeeded' ? 'completed' : 'failed',
        amount: txn.amount,
        final_amount: txn.final_amount,
        currency: txn.currency,
        meta: txn.meta,
      },
    };
    for (const endpoint of endpoints) {
      enqueueDelivery(ctx, { kind: 'checkout', event: body.event, eventId: id, merchantId: txn.organization_id, endpointId: endpoint.id, url: endpoint.url, payload });
    }
  }
  const fired = [...ctx.store.deliveries.values()].filter((d) => !before.has(d.id));
  for (const delivery of fired) delivery.fired = true;
  return fired;
}

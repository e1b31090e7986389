/** The bodies of the webhooks the service sends, built from the records they tell of. */
import { iso } from '../clock.js';
import type { MockContext } from '../context.js';
import type { OrderRecord } from '../store.js';

export type OrderEvent = 'order.completed' | 'order.failed' | 'order.expired';

/** An order webhook's body (000 section 6): the order's amounts, currencies and destination, stamped with the clock's now. */
export function orderWebhookPayload(ctx: MockContext, order: OrderRecord, event: OrderEvent) {
  return {
    event,
    order_id: order.id,
    type: order.type,
    fiat_amount: order.fiat_amount.toFixed(2),
    fiat_currency: order.fiat_currency,
    crypto_amount: order.crypto_amount.toFixed(2),
    crypto_currency: order.crypto_currency,
    destination_address: order.destination_address,
    timestamp: iso(ctx.clock.now()),
  };
}

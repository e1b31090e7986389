import type { MockContext } from '../../context.js';
import type { CollectionRecord, PayoutRecord } from '../../mobile-money.js';
import type { RampOrderRecord } from '../../state/ramp.js';
import { enqueueDelivery } from '../../webhooks/deliver.js';
import { paymentReference } from '../../references.js';

export type PaymentEvent = 'payment.completed' | 'payment.failed';

/** The body of a ramp payment webhook (001 section 6). */
export interface PaymentWebhookBody {
  event: PaymentEvent;
  data: {
    /** `PAY-<YYYYMMDD>-<uuid>`, one per fiat transaction (../../references.ts, as checkout's). */
    reference: string;
    /** `completed` or `failed`, as the event says. */
    status: 'completed' | 'failed';
    /** Pesewas (GHS smallest unit). */
    amount: number;
    currency: 'GHS';
    provider_ref: string;
    channel: 'mobile_money';
    meta: { ramp_order_id: string; ramp_type: RampOrderRecord['type'] };
  };
}

/**
 * Tells the merchant that the order's fiat leg finished: the Mobile Money collection
 * (on-ramp) or one payout attempt (off-ramp). Signed and retried like order webhooks
 * (../../webhooks/deliver.ts); nothing is sent while the merchant has no webhook URL.
 */
export function sendPaymentWebhook(
  ctx: MockContext,
  order: RampOrderRecord,
  event: PaymentEvent,
  fiat: CollectionRecord | PayoutRecord,
): void {
  const merchant = ctx.store.merchants.get(order.merchant_id);
  if (!merchant?.webhook.url) return;
  const payload: PaymentWebhookBody = {
    event,
    data: {
      reference: paymentReference(ctx),
      status: event === 'payment.completed' ? 'completed' : 'failed',
      amount: Math.round(fiat.amount * 100),
      currency: 'GHS',
      provider_ref: fiat.provider_ref,
      channel: 'mobile_money',
      meta: { ramp_order_id: order.id, ramp_type: order.type },
    },
  };
  enqueueDelivery(ctx, { kind: 'ramp_payment', event, merchantId: merchant.id, url: merchant.webhook.url, payload });
}

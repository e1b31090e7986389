/**
 * The webhook bodies, as types only: this entry carries no schema library. Values the
 * documents may extend later (event names, statuses) are open: known ones are suggested,
 * others still type-check.
 */

type Open<T extends string> = T | (string & {});

/** Order webhooks of the widget backend (000 section 6). */
export type OrderEventName = 'order.completed' | 'order.failed' | 'order.expired';

/** The body of an order webhook, POSTed to the merchant's webhook URL. */
export interface OrderWebhookEvent {
  /** `order.completed` (crypto delivered or fiat paid out), `order.failed`, `order.expired`. */
  event: OrderEventName;
  /** The order, `ord_<uuid>`, as in the merchant's order list. */
  order_id: string;
  /** `onramp` (buy) or `offramp` (sell). */
  type: Open<'onramp' | 'offramp'>;
  /** GHS, a decimal string. */
  fiat_amount: string;
  /** `GHS`. */
  fiat_currency: string;
  /** USDC, a decimal string. */
  crypto_amount: string;
  /** `USDC`. */
  crypto_currency: string;
  /** Stellar address the USDC went to (buy) or came in at (sell); null when the service does not say. */
  destination_address: string | null;
  /** When the event happened, ISO 8601. */
  timestamp: string;
}

/** Payment webhooks of the ramp order API (001 section 6): the fiat leg only. */
export type RampPaymentEventName = 'payment.completed' | 'payment.failed';

/** The body of a ramp payment webhook, POSTed to the merchant's webhook URL. */
export interface RampPaymentWebhookEvent {
  /** `payment.completed` (fiat collected or disbursed) or `payment.failed`. */
  event: RampPaymentEventName;
  data: {
    /** The payment, `PAY-<date>-<uuid>`. */
    reference: string;
    status: string;
    /** Smallest currency unit (pesewas for GHS). */
    amount: number;
    /** `GHS`. */
    currency: string;
    /** The Mobile Money provider's reference. */
    provider_ref: string;
    /** `mobile_money`. */
    channel: string;
    meta: {
      /** The ramp order's internal id (UUID). */
      ramp_order_id: string;
      ramp_type: Open<'onramp' | 'offramp'>;
    };
  };
}

/** Anything the merchant webhook URL receives, told apart by `event`. */
export type WebhookEvent = OrderWebhookEvent | RampPaymentWebhookEvent;

/** Checkout webhooks (002 section 6). */
export type CheckoutEventName = 'payment.succeeded' | 'payment.failed';

/** The body of a checkout webhook, POSTed to each subscribed endpoint. */
export interface CheckoutWebhookEvent {
  /** The event id, the same as `X-Svc-Event-ID`: the de-duplication key. */
  id: string;
  type: CheckoutEventName;
  /** ISO 8601. */
  created_at: string;
  data: {
    /** Gateway payment reference. */
    reference: string;
    /** Checkout session id. */
    session_id: string;
    /** Raw gateway status: `completed` and `success` are paid. */
    status: Open<'completed' | 'success' | 'pending' | 'failed' | 'cancelled'>;
    /** Amount requested, smallest unit. */
    amount: number;
    /** Amount the session confirmed, smallest unit: compare it with the order total before fulfilling. */
    final_amount: number;
    /** ISO 4217, uppercase. */
    currency: string;
    meta: Record<string, unknown>;
  };
}

/** True for an order webhook. */
export const isOrderEvent = (event: WebhookEvent): event is OrderWebhookEvent => event.event.startsWith('order.');

/** True for a ramp payment webhook. */
export const isRampPaymentEvent = (event: WebhookEvent): event is RampPaymentWebhookEvent => event.event.startsWith('payment.');

import { withResponses, type WithResponses } from '../core/api-promise.js';
import { assertServerSide } from '../core/credentials.js';
import { ApiError, BadRequestError, ConflictError, CredentialError } from '../core/errors.js';
import { HttpCore, type ClientOptions } from '../core/http.js';
import { Payments } from '../resources/checkout/payments.js';
import { CheckoutTransactions } from '../resources/checkout/transactions.js';
import { CheckoutWebhooks } from '../resources/checkout/webhooks.js';

export interface CheckoutClientOptions extends ClientOptions {
  /** The checkout API, `{checkout_base_url}`. */
  baseUrl: string;
  /**
   * The checkout API key, sent as `Authorization: Bearer`. Server-side only. Needed by every
   * call but `payments.verify`. A key issued before the checkout route must be rotated once.
   */
  apiKey?: string;
}

/** An upstream 409 embedded in a 502's text: the gateway's idempotency conflict, as one statement of 002 reports it. */
const UPSTREAM_CONFLICT = /\b409\b/;
/** The gateway's refusal of a field, embedded in a 502's text (002 section 7): the same body fails again. */
const UPSTREAM_INVALID = /\b400 VALIDATION_ERROR\b/;

/**
 * Checkout answers carry no code: the status is the contract. A 409, and a 502 whose text
 * embeds the gateway's 409, are one ConflictError (same key, another body); a 502 whose text
 * embeds the gateway's 400 VALIDATION_ERROR is a BadRequestError. Neither is retried.
 */
function checkoutError(status: number, body: unknown, headers: Headers): ApiError {
  const error = ApiError.from(status, body, headers);
  if (status !== 502) return error;
  const text = error.message.replace(/^502:\s*/, '');
  if (UPSTREAM_INVALID.test(text)) return new BadRequestError(status, body, headers);
  if (UPSTREAM_CONFLICT.test(text)) return new ConflictError(status, body, headers);
  return error;
}

/**
 * Checkout payments: create a session and send the customer to its `checkout_url`, verify it
 * when the customer returns, follow the organization's transactions, manage webhook
 * subscriptions and replay events.
 *
 * ```ts
 * const checkout = new CheckoutClient({ baseUrl: process.env.CHECKOUT_BASE_URL!, apiKey: process.env.CHECKOUT_API_KEY! });
 * const created = await checkout.payments.create(
 *   { amount: 10000, currency: 'GHS', recipient: { name: 'Ama Mensah', email: 'ama@example.com' }, redirect_url },
 *   { idempotencyKey: `order-${order.id}` },
 * );
 * if (created.outcome !== 'in_progress') res.redirect(created.data.checkout_url);
 * // Back from checkout: paid only for this order's own session, its total and currency.
 * const result = await checkout.payments.verify(checkout.payments.fromRedirect(req.originalUrl), {
 *   expected: { amount: order.total, currency: 'GHS', reference: order.paymentReference },
 * });
 * ```
 */
export class CheckoutClient {
  readonly payments: WithResponses<Payments>;
  readonly transactions: WithResponses<CheckoutTransactions>;
  readonly webhooks: WithResponses<CheckoutWebhooks>;

  constructor(options: CheckoutClientOptions) {
    const { apiKey, ...rest } = options;
    if (apiKey !== undefined) {
      if (typeof apiKey !== 'string' || apiKey.trim() === '') throw new CredentialError('apiKey must be a non-empty string when given');
      assertServerSide('The checkout API key', options.dangerouslyAllowBrowser);
    }
    const core = new HttpCore({
      ...rest,
      auth: {
        headers: () => {
          if (apiKey === undefined) throw new CredentialError('This call needs the checkout API key: pass apiKey to CheckoutClient');
          return { authorization: `Bearer ${apiKey}` };
        },
      },
      idempotencyHeader: 'Idempotency-Key',
      errorFrom: checkoutError,
    });
    this.payments = withResponses(new Payments(core));
    this.transactions = withResponses(new CheckoutTransactions(core));
    this.webhooks = withResponses(new CheckoutWebhooks(core));
  }
}

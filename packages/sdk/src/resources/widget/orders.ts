import * as z from 'zod';
import { newIdempotencyKey, type IdempotentRequestOptions } from '../../core/http.js';
import { Resource } from '../../core/resource.js';
import { headerValue, MAX_FIAT_AMOUNT, parseInput, responseObject, text } from '../../core/schema.js';
import { AnchorTransactionSchema } from '../anchor/sep24.js';
import { OrderSchema } from '../merchant/orders.js';

/** 000 section 5: the order creation's `X-Idempotency-Key` is "a unique UUID" (any version, either case). */
export const IdempotencyKeySchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID, e.g. crypto.randomUUID()');

export const WidgetOrderCreateParamsSchema = z.strictObject({
  /** The customer's widget session (`widget.sessions.create()`), sent as `X-Session-Id` and `X-Session-Token`. */
  session: z.object({ session_id: headerValue(200), session_token: headerValue(200) }),
  /** The interactive transaction whose form this confirms: the `id` of `widget.interactive.deposit()` or `.withdraw()`. */
  transaction_id: text(100),
  /** The Mobile Money provider: `mtn`, `telecel` or `airteltigo`. */
  provider: text(40),
  /** The Mobile Money number, `+` and country code; it must have passed OTP on the interactive page. */
  phone: z.string().regex(/^\+\d{7,15}$/, 'must be a number with country code, e.g. +233201234567'),
  /** GHS for a buy, USDC for a sell; default: the amount of the interactive request (or of its quote). */
  amount: z.number().positive().max(MAX_FIAT_AMOUNT).optional(),
  /** A buy's Stellar address for the USDC, when the interactive request did not set it. */
  destination_address: z.string().regex(/^G[A-Z2-7]{55}$/, 'must be a Stellar public address (G…)').optional(),
  /** A SEP-38 quote of the transaction's account, for a guaranteed rate (422 `QUOTE_EXPIRED` once it ran out). */
  quote_id: text(100).optional(),
});
export type WidgetOrderCreateParams = z.input<typeof WidgetOrderCreateParamsSchema>;

/** The confirmed order: the `ord_` order of the merchant's list, and the SEP-24 transaction, now waiting for the payment. */
export const WidgetOrderSchema = responseObject({
  order: OrderSchema,
  transaction: AnchorTransactionSchema,
});
export type WidgetOrder = z.infer<typeof WidgetOrderSchema>;

/** `POST /api/v1/widget/orders`: the customer's confirmation of an interactive buy or sell. */
export class WidgetOrders extends Resource {
  /**
   * Confirms the order of an interactive transaction with the customer's session, as the
   * interactive page does. Sent with an `X-Idempotency-Key` (a UUID), generated when you give none,
   * so a retry never orders twice: a key already used answers 409 `DUPLICATE_ORDER`
   * (ConflictError), which after a dropped connection means the first attempt made the order
   * (find it with `merchant.orders.list()`). 422 `PHONE_NOT_VERIFIED`, 422 `QUOTE_EXPIRED`
   * and 401 for an expired session come as UnprocessableEntityError and AuthenticationError.
   */
  async create(params: WidgetOrderCreateParams, opts: IdempotentRequestOptions = {}): Promise<WidgetOrder> {
    const { session, ...body } = parseInput(WidgetOrderCreateParamsSchema, params);
    const { idempotencyKey: given, headers, ...request } = opts;
    const idempotencyKey = given === undefined ? newIdempotencyKey() : parseInput(IdempotencyKeySchema, given, 'idempotencyKey');
    return this.core.post('api/v1/widget/orders', {
      ...request,
      headers: { ...headers, 'X-Session-Id': session.session_id, 'X-Session-Token': session.session_token },
      body,
      dedupeKey: idempotencyKey,
      schema: WidgetOrderSchema,
    });
  }
}

import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { PagePromise } from '../../core/pagination.js';
import { Resource } from '../../core/resource.js';
import { openEnum, parseInput, responseObject } from '../../core/schema.js';

/** Every status an order of the list takes: two while it runs, three final ones (000 section 2). */
export const OrderStatusSchema = openEnum(['pending', 'processing', 'completed', 'failed', 'expired']);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

/** An order of the merchant's order list (000 section 2). */
export const OrderSchema = responseObject({
  /** `ord_<uuid>`. */
  id: z.string(),
  /**
   * `pending` (waiting for the customer or the payment), `processing` (paid, being delivered),
   * then `completed`, `failed` or `expired`.
   */
  status: OrderStatusSchema,
  /** `onramp` (buy) or `offramp` (sell), where the service reports it. */
  type: openEnum(['onramp', 'offramp']).optional(),
  /** `GHS`. */
  fiat_currency: z.string(),
  /** GHS. */
  fiat_amount: z.number(),
  /** `USDC`. */
  crypto_currency: z.string(),
  /** USDC. */
  crypto_amount: z.number(),
  /** `mobile_money`. */
  payment_method: z.string(),
  /** Where the USDC goes: the customer's wallet (buy) or the anchor's account (sell); null when not known yet. */
  destination_address: z.string().nullish(),
  /** The SEP-24 transaction behind the order, for `widget` and `anchor` lookups; null when there is none. */
  transaction_id: z.string().nullish(),
  /** ISO 8601. */
  created_at: z.string(),
});
export type Order = z.infer<typeof OrderSchema>;

export const OrderListParamsSchema = z.strictObject({
  /** Orders per page. */
  limit: z.number().int().min(1).max(100).optional(),
  /** `next_cursor` of the page before; omitted for the first page. */
  cursor: z.string().max(200).optional(),
});
export type OrderListParams = z.input<typeof OrderListParamsSchema>;

export const OrderPageSchema = responseObject({
  data: z.array(OrderSchema),
  /** The last item's id while `has_more`; a last page may leave it out (read as null). */
  next_cursor: z
    .string()
    .nullish()
    .transform((cursor) => cursor ?? null),
  has_more: z.boolean(),
});

/** `GET /api/v1/merchant/orders`. */
export class Orders extends Resource {
  /**
   * The merchant's orders, newest first. Await it for one page, or iterate every order:
   * `for await (const order of merchant.orders.list())`.
   */
  list(params: OrderListParams = {}, opts?: RequestOptions): PagePromise<Order> {
    return new PagePromise(async (cursor) => {
      // Validated on the first fetch, so that bad input rejects the promise (and the iteration) like every other call.
      const query = { ...parseInput(OrderListParamsSchema, params), ...(cursor === undefined ? {} : { cursor }) };
      return this.core.get('api/v1/merchant/orders', { ...opts, query, unwrap: false, schema: OrderPageSchema });
    });
  }
}

import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { PagePromise } from '../../core/pagination.js';
import { Resource } from '../../core/resource.js';
import { openEnum, parseInput, responseObject } from '../../core/schema.js';
import { PaymentStatusSchema } from './payments.js';

/** An ISO 8601 date or date-time, or a Date; sent as ISO 8601. */
const TimeSchema = z.union([
  z.date().transform((d) => d.toISOString()),
  z.union([z.iso.datetime({ offset: true }), z.iso.date()]),
]);

export const CheckoutTransactionListParamsSchema = z.strictObject({
  /** Only transactions whose last synchronized gateway status is this. */
  status: z.enum(['completed', 'success', 'pending', 'failed', 'cancelled']).optional(),
  /** Created at or after this time. */
  from: TimeSchema.optional(),
  /** Created before this time. */
  to: TimeSchema.optional(),
  /** Transactions per page, 1 to 100 (20 by default). */
  limit: z.int().min(1).max(100).optional(),
  /** `next_cursor` of the page before; omitted for the first page. */
  cursor: z.string().min(1).max(500).optional(),
});
export type CheckoutTransactionListParams = z.input<typeof CheckoutTransactionListParamsSchema>;

/** The service's own record of a checkout payment, synchronized with the gateway on each verification. */
export const CheckoutTransactionSchema = responseObject({
  id: z.string(),
  /** Gateway payment reference. */
  reference: z.string(),
  /** Session reference. */
  session_id: z.string().optional(),
  /** Gateway status at the last verification. */
  status: PaymentStatusSchema,
  /** Smallest unit. */
  amount: z.int(),
  /** Smallest unit; 0 until paid. */
  final_amount: z.int().optional(),
  currency: z.string(),
  organization_id: z.string().optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  /** `checkout_api` or `gateway`: which route created it. */
  source: openEnum(['checkout_api', 'gateway']).optional(),
  created_at: z.string(),
  /** ISO 8601; null until first verified. */
  synced_at: z.string().nullish(),
});
export type CheckoutTransaction = z.infer<typeof CheckoutTransactionSchema>;

export const TransactionPageSchema = responseObject({
  data: z.array(CheckoutTransactionSchema),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});

/** `GET /api/v1/developer/transactions`: the searchable history of the key's organization. */
export class CheckoutTransactions extends Resource {
  /**
   * Transactions, newest first. Await it for one page, or iterate every match:
   * `for await (const txn of checkout.transactions.list({ status: 'completed' }))`.
   */
  list(params: CheckoutTransactionListParams = {}, opts?: RequestOptions): PagePromise<CheckoutTransaction> {
    return new PagePromise(async (cursor) => {
      const query = { ...parseInput(CheckoutTransactionListParamsSchema, params), ...(cursor === undefined ? {} : { cursor }) };
      return this.core.get('api/v1/developer/transactions', { ...opts, query, unwrap: false, schema: TransactionPageSchema });
    });
  }
}

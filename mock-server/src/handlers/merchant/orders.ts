import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { parse } from '../../http/body.js';
import { requireMerchant } from '../../http/auth.js';
import { badRequest } from '../../http/errors.js';
import { route } from '../../http/respond.js';
import type { OrderRecord } from '../../store.js';

/** Page size when `limit` is not given, and the largest one allowed. */
export const DEFAULT_ORDER_LIMIT = 20;
export const MAX_ORDER_LIMIT = 100;

const OrderListQuery = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(1).max(MAX_ORDER_LIMIT))
    .optional(),
  cursor: z.string().max(200).optional(),
});

/** An order list item of 000 section 2, plus `type`, `destination_address` and the SEP-24 `transaction_id`. */
export function orderView(o: OrderRecord) {
  return {
    id: o.id,
    type: o.type,
    status: o.status,
    fiat_currency: o.fiat_currency,
    fiat_amount: o.fiat_amount,
    crypto_currency: o.crypto_currency,
    crypto_amount: o.crypto_amount,
    payment_method: o.payment_method,
    destination_address: o.destination_address,
    transaction_id: o.transaction_id,
    created_at: o.created_at,
  };
}

/**
 * `GET /api/v1/merchant/orders?limit=&cursor=`: the merchant's orders, newest first.
 * `cursor` is the `next_cursor` of the previous page (the id of its last item; empty or
 * absent for the first page); `has_more` says whether another page follows.
 */
export function orderHandlers(ctx: MockContext) {
  return [
    http.get(
      `${ctx.urls.base}/api/v1/merchant/orders`,
      route(ctx, 'envelope', async ({ request }) => {
        const merchant = await requireMerchant(ctx, request);
        const q = new URL(request.url).searchParams;
        const query = parse(OrderListQuery, {
          limit: q.get('limit') ?? undefined,
          cursor: q.get('cursor') || undefined,
        });
        const limit = query.limit ?? DEFAULT_ORDER_LIMIT;
        let orders = [...ctx.store.orders.values()].filter((o) => o.merchant_id === merchant.id).sort((a, b) => b.seq - a.seq);
        if (query.cursor !== undefined) {
          const after = orders.find((o) => o.id === query.cursor);
          if (!after) throw badRequest('cursor: is not an order of this list');
          orders = orders.filter((o) => o.seq < after.seq);
        }
        const page = orders.slice(0, limit);
        return HttpResponse.json({
          data: page.map(orderView),
          next_cursor: page.at(-1)?.id ?? null,
          has_more: orders.length > page.length,
          meta: { request_id: ctx.requestId(), timestamp: iso(ctx.clock.now()) },
        });
      }),
    ),
  ];
}

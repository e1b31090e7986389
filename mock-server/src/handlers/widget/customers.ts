import { http } from 'msw';
import type { MockContext } from '../../context.js';
import { adoptCustomer, CustomerInputSchema, customerView, deleteCustomer, findMerchantCustomer, upsertCustomer } from '../../customers.js';
import { readBody } from '../../http/body.js';
import { requireKey } from '../../http/auth.js';
import { ok, route } from '../../http/respond.js';

/**
 * Customers (KYC) with the secret key: `POST /api/v1/widget/customer` (201 `{id, status}`
 * for a new record; 200 when the same first name, last name and e-mail update the merchant's
 * existing one), `GET` and `DELETE /api/v1/widget/customer/{id}`. The merchant's own
 * customers and those made at the anchor without merchant fields are found (the first merchant
 * to read one adopts it); another merchant's customer, or a deleted one, is 404 NOT_FOUND.
 */
export function customerHandlers(ctx: MockContext) {
  const base = `${ctx.urls.base}/api/v1/widget/customer`;
  return [
    http.post(
      base,
      route(ctx, 'envelope', async ({ request }) => {
        const { merchant } = await requireKey(ctx, request, { type: 'secret', from: 'x-api-key' });
        const input = await readBody(request, CustomerInputSchema);
        const { customer, created } = upsertCustomer(ctx, merchant.id, input);
        return ok(ctx, { id: customer.id, status: customer.status }, created ? 201 : 200);
      }),
    ),
    http.get(
      `${base}/:id`,
      route(ctx, 'envelope', async ({ request, params }) => {
        const { merchant } = await requireKey(ctx, request, { type: 'secret', from: 'x-api-key' });
        const customer = findMerchantCustomer(ctx, merchant.id, String(params.id));
        adoptCustomer(customer, merchant.id);
        return ok(ctx, customerView(customer));
      }),
    ),
    http.delete(
      `${base}/:id`,
      route(ctx, 'envelope', async ({ request, params }) => {
        const { merchant } = await requireKey(ctx, request, { type: 'secret', from: 'x-api-key' });
        deleteCustomer(ctx, findMerchantCustomer(ctx, merchant.id, String(params.id)));
        return ok(ctx, { deleted: true });
      }),
    ),
  ];
}

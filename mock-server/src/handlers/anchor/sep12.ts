/**
 * SEP-12 customers at `{anchor_url}/customer`: the very records of the widget backend's
 * `/api/v1/widget/customer` (one store, one id). A SEP-10 client sees the customers of its
 * owner: the merchant whose `stellar_public_key` it authenticated with, else its own account
 * (customers it created here, owner `stellar:<account>`).
 */
import { http, HttpResponse } from 'msw';
import type { MockContext } from '../../context.js';
import {
  CUSTOMER_FIELDS,
  CustomerInputSchema,
  customerView,
  CustomerUpdateSchema,
  deleteCustomer,
  findCustomerOf,
  updateCustomer,
  upsertCustomer,
} from '../../customers.js';
import { parse } from '../../http/body.js';
import { route } from '../../http/respond.js';
import { readFields } from './fields.js';
import { requireSep10, type Sep10Client } from './sep10.js';

/** Who a SEP-10 client acts for: a merchant id, or `stellar:<sub>` for an account that is no merchant's key. */
export function ownerOf(ctx: MockContext, client: Sep10Client): string {
  if (!client.memo) {
    for (const m of ctx.store.merchants.values()) if (m.stellar_public_key === client.account) return m.id;
  }
  return `stellar:${client.sub}`;
}

/** Fields a customer not yet registered must send (SEP-12: NEEDS_INFO for an unknown customer). */
const REQUIRED_FIELDS = (['first_name', 'last_name', 'email_address'] as const).map((f) => [f, { ...CUSTOMER_FIELDS[f] }] as const);

/**
 * `PUT /customer` (202 `{id}`; with `id` it adds or changes fields), `GET /customer?id=`
 * (without `id`: the client's newest customer, or NEEDS_INFO with the required fields),
 * `DELETE /customer/{id}` (200 `{message}`; the id is unusable afterwards). Another owner's
 * customer is 404.
 */
export function sep12Handlers(ctx: MockContext) {
  const base = `${ctx.urls.anchor}/customer`;
  return [
    http.put(
      base,
      route(ctx, 'sep', async ({ request }) => {
        const owner = ownerOf(ctx, await requireSep10(ctx, request));
        const fields = await readFields(request);
        if (typeof fields.id === 'string' && fields.id !== '') {
          const customer = findCustomerOf(ctx, owner, fields.id);
          updateCustomer(ctx, customer, parse(CustomerUpdateSchema, fields));
          return HttpResponse.json({ id: customer.id }, { status: 202 });
        }
        const { customer } = upsertCustomer(ctx, owner, parse(CustomerInputSchema, fields));
        return HttpResponse.json({ id: customer.id }, { status: 202 });
      }),
    ),
    http.get(
      base,
      route(ctx, 'sep', async ({ request }) => {
        const owner = ownerOf(ctx, await requireSep10(ctx, request));
        const id = new URL(request.url).searchParams.get('id');
        if (id) return HttpResponse.json(customerView(findCustomerOf(ctx, owner, id)));
        const newest = [...ctx.store.customers.values()].filter((c) => c.merchant_id === owner).at(-1);
        if (newest) return HttpResponse.json(customerView(newest));
        return HttpResponse.json({ status: 'NEEDS_INFO', fields: Object.fromEntries(REQUIRED_FIELDS) });
      }),
    ),
    http.delete(
      `${base}/:id`,
      route(ctx, 'sep', async ({ request, params }) => {
        const owner = ownerOf(ctx, await requireSep10(ctx, request));
        const customer = findCustomerOf(ctx, owner, String(params.id));
        deleteCustomer(ctx, customer);
        return HttpResponse.json({ message: `customer ${customer.id} deleted` });
      }),
    ),
  ];
}

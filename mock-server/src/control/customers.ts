import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../context.js';
import { customerView, setCustomerStatus } from '../customers.js';
import { readBody } from '../http/body.js';
import { notFound } from '../http/errors.js';
import { route } from '../http/respond.js';
import type { CustomerStatus } from '../store.js';

const StatusBody = z.object({ status: z.enum(['ACCEPTED', 'PROCESSING', 'NEEDS_INFO', 'REJECTED']) });

/** `PUT /_mock/customers/{id}/status {status}`: the compliance review's outcome, set directly. */
export function customersControl(ctx: MockContext) {
  const api = {
    setStatus(id: string, status: CustomerStatus) {
      const customer = ctx.store.customers.get(id);
      if (!customer) throw notFound('customer');
      setCustomerStatus(ctx, customer, status);
      return customerView(customer);
    },
  };
  const handlers = [
    http.put(
      `${ctx.urls.control}/customers/:id/status`,
      route(ctx, 'envelope', async ({ params, request }) => {
        const { status } = await readBody(request, StatusBody);
        return HttpResponse.json(api.setStatus(String(params.id), status));
      }),
    ),
  ];
  return { api, handlers };
}

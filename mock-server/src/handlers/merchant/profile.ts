import { http } from 'msw';
import type { MockContext } from '../../context.js';
import { requireMerchant } from '../../http/auth.js';
import { ok, route } from '../../http/respond.js';
import { merchantView } from '../../merchants.js';

/** `GET /api/v1/merchant/profile`: the merchant object of 000 section 2. */
export function profileHandlers(ctx: MockContext) {
  return [
    http.get(
      `${ctx.urls.base}/api/v1/merchant/profile`,
      route(ctx, 'envelope', async ({ request }) => ok(ctx, merchantView(await requireMerchant(ctx, request)))),
    ),
  ];
}

import { http } from 'msw';
import type { MockContext } from '../../context.js';
import { requireKey } from '../../http/auth.js';
import { ok, route } from '../../http/respond.js';
import { widgetConfigView } from '../../merchants.js';

/**
 * `GET /api/v1/widget/config`: the page's widget reads it with the public key (an `Origin`
 * outside the key's `allowed_domains` gets 403 FORBIDDEN); the merchant backend may read
 * it with the secret key.
 */
export function configHandlers(ctx: MockContext) {
  return [
    http.get(
      `${ctx.urls.base}/api/v1/widget/config`,
      route(ctx, 'envelope', async ({ request }) => {
        const { merchant } = await requireKey(ctx, request, { type: 'any', from: 'x-api-key' });
        return ok(ctx, widgetConfigView(merchant));
      }),
    ),
  ];
}

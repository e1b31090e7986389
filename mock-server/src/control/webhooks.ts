/**
 * Control of webhook deliveries, each with every attempt as sent and as answered:
 *   GET /_mock/webhooks[?merchant_id=&event=]   every delivery, oldest first
 *   GET /_mock/webhooks/{id}                    one delivery
 * Both let the attempts under way settle before they answer.
 */
import { http, HttpResponse } from 'msw';
import type { MockContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { route } from '../http/respond.js';
import type { DeliveryRecord } from '../types.js';

export function webhooksControl(ctx: MockContext) {
  const api = {
    list(filter: { merchantId?: string; event?: string } = {}): DeliveryRecord[] {
      return [...ctx.store.deliveries.values()].filter(
        (d) => (!filter.merchantId || d.merchant_id === filter.merchantId) && (!filter.event || d.event === filter.event),
      );
    },
    /** One delivery by its `whd_` id; 404 NOT_FOUND for another. */
    get(deliveryId: string): DeliveryRecord {
      const delivery = ctx.store.deliveries.get(deliveryId);
      if (!delivery) throw notFound('webhook delivery');
      return delivery;
    },
    /** Resolves once every attempt under way has settled. */
    settle: () => ctx.clock.idle(),
  };
  const handlers = [
    http.get(`${ctx.urls.control}/webhooks`, async ({ request }) => {
      const q = new URL(request.url).searchParams;
      await api.settle();
      return HttpResponse.json({
        data: api.list({ merchantId: q.get('merchant_id') ?? undefined, event: q.get('event') ?? undefined }),
      });
    }),
    http.get(
      `${ctx.urls.control}/webhooks/:id`,
      route(ctx, 'envelope', async ({ params }) => {
        await api.settle();
        return HttpResponse.json(api.get(String(params.id)));
      }),
    ),
  ];
  return { api, handlers };
}

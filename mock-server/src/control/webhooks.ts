import { http, HttpResponse } from 'msw';
import type { MockContext } from '../context.js';
import type { DeliveryRecord } from '../store.js';

/** `GET /_mock/webhooks[?merchant_id=&event=]`: every delivery with its attempts and state, oldest first. */
export function webhooksControl(ctx: MockContext) {
  const api = {
    list(filter: { merchantId?: string; event?: string } = {}): DeliveryRecord[] {
      return [...ctx.store.deliveries.values()].filter(
        (d) => (!filter.merchantId || d.merchant_id === filter.merchantId) && (!filter.event || d.event === filter.event),
      );
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
  ];
  return { api, handlers };
}

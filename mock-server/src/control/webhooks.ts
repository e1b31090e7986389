/**
 * Control of webhook deliveries, each with every attempt as sent and as answered:
 *   GET /_mock/webhooks[?merchant_id=&event=]   every delivery, oldest first
 *   GET /_mock/webhooks/{id}                    one delivery
 *   POST /_mock/webhooks/fire {kind, event, id}  sends a chosen event for a record (../webhooks/fire.ts): { data: deliveries }
 *   POST /_mock/webhooks/{id}/redeliver         one more attempt of a delivery now: same event id, fresh timestamp and signature
 * Each answers once the attempts under way have settled.
 */
import { http, HttpResponse } from 'msw';
import type { MockContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { readBody } from '../http/body.js';
import { route } from '../http/respond.js';
import type { DeliveryRecord } from '../types.js';
import { retryDelivery } from '../webhooks/deliver.js';
import { FireBody, fireEvent, type FireInput } from '../webhooks/fire.js';

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
    /**
     * Sends the webhook of `event` for an existing record, without changing the record: an
     * order's `order.*`, a ramp order's `payment.*` (its collection or payout), a checkout
     * payment's `payment.*` to each endpoint of its organization. Resolves with the new
     * deliveries once their first attempt has settled. 400 for an event its kind does not
     * have, 404 for an unknown record, 409 where there is nowhere to send it.
     */
    async fire(input: FireInput): Promise<DeliveryRecord[]> {
      const fired = fireEvent(ctx, input);
      await ctx.clock.idle();
      return fired;
    },
    /**
     * Attempts the delivery once more, now, whatever its state: same event id and body, a fresh
     * timestamp and signature. Its automatic retries stay as they were. Resolves once answered.
     */
    async redeliver(deliveryId: string): Promise<DeliveryRecord> {
      const delivery = await retryDelivery(ctx, deliveryId);
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
    http.post(
      `${ctx.urls.control}/webhooks/fire`,
      route(ctx, 'envelope', async ({ request }) => HttpResponse.json({ data: await api.fire(await readBody(request, FireBody)) })),
    ),
    http.post(
      `${ctx.urls.control}/webhooks/:id/redeliver`,
      route(ctx, 'envelope', async ({ params }) => HttpResponse.json(await api.redeliver(String(params.id)))),
    ),
  ];
  return { api, handlers };
}

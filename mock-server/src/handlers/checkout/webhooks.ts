/**
 * Webhook subscriptions of an organization and the event retry endpoint (our paths, design.md
 * section 4; 002 section 6): `POST /api/v1/developer/webhooks {url}` answers the endpoint with
 * its signing secret (shown only then), `GET` lists, `DELETE .../{id}` removes, and
 * `POST /api/v1/developer/webhooks/events/{id}/retry` replays an event with the same id.
 */
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { readJsonObject } from '../../http/body.js';
import { route } from '../../http/respond.js';
import type { CheckoutWebhookEndpoint } from '../../state/checkout.js';
import type { DeliveryRecord } from '../../store.js';
import { retryDelivery } from '../../webhooks/deliver.js';
import { requireCheckoutKey } from './auth.js';
import { checkoutError } from './errors.js';
import { dispatch } from './sync.js';

const SubscribeSchema = z.object({ url: z.url({ protocol: /^https?$/ }) });

const endpointView = ({ id, url, created_at }: CheckoutWebhookEndpoint) => ({ id, url, created_at });

const deliveryView = (d: DeliveryRecord) => ({
  id: d.id,
  endpoint_id: d.endpoint_id,
  url: d.url,
  state: d.state,
  attempts: d.attempts,
});

export function webhookHandlers(ctx: MockContext) {
  const base = `${ctx.urls.checkout}/api/v1/developer/webhooks`;
  return [
    http.post(
      base,
      route(ctx, 'checkout', async ({ request }) => {
        const { organization } = await requireCheckoutKey(ctx, request);
        const parsed = SubscribeSchema.safeParse(await readJsonObject(request));
        if (!parsed.success) throw checkoutError(400, 'url must be an absolute http or https URL');
        const endpoint: CheckoutWebhookEndpoint = {
          id: `we_${ctx.random.hex(8)}`,
          organization_id: organization.id,
          url: parsed.data.url,
          secret: `whsec_${ctx.secrets.hex(24)}`,
          created_at: iso(ctx.clock.now()),
        };
        ctx.store.checkout.webhookEndpoints.set(endpoint.id, endpoint);
        return HttpResponse.json({ success: true, data: { ...endpointView(endpoint), secret: endpoint.secret } }, { status: 201 });
      }),
    ),
    http.get(
      base,
      route(ctx, 'checkout', async ({ request }) => {
        const { organization } = await requireCheckoutKey(ctx, request);
        const mine = [...ctx.store.checkout.webhookEndpoints.values()].filter((e) => e.organization_id === organization.id);
        return HttpResponse.json({ success: true, data: mine.map(endpointView) });
      }),
    ),
    http.delete(
      `${base}/:id`,
      route(ctx, 'checkout', async ({ request, params }) => {
        const { organization } = await requireCheckoutKey(ctx, request);
        const endpoint = ctx.store.checkout.webhookEndpoints.get(String(params.id));
        if (!endpoint || endpoint.organization_id !== organization.id) throw checkoutError(404, 'webhook endpoint not found');
        ctx.store.checkout.webhookEndpoints.delete(endpoint.id);
        return HttpResponse.json({ success: true, data: { id: endpoint.id, deleted: true } });
      }),
    ),
    http.post(
      `${base}/events/:id/retry`,
      route(ctx, 'checkout', async ({ request, params }) => {
        const { organization } = await requireCheckoutKey(ctx, request);
        const event = ctx.store.checkout.events.get(String(params.id));
        if (!event || event.organization_id !== organization.id) throw checkoutError(404, 'event not found');
        const deliveries = await replay(ctx, event.id, organization.id);
        return HttpResponse.json({
          success: true,
          data: { id: event.id, type: event.type, deliveries: deliveries.map(deliveryView) },
        });
      }),
    ),
  ];
}

/**
 * Sends the event again, now, to each endpoint of the organization that has not
 * acknowledged it (a failed delivery, or an endpoint subscribed since); when every endpoint
 * has, to all of them. Same event id and body, fresh signature; resolves once sent.
 */
async function replay(ctx: MockContext, eventId: string, organizationId: string): Promise<DeliveryRecord[]> {
  const event = ctx.store.checkout.events.get(eventId)!;
  const endpoints = [...ctx.store.checkout.webhookEndpoints.values()].filter((e) => e.organization_id === organizationId);
  const latest = (endpointId: string) =>
    [...ctx.store.deliveries.values()].filter((d) => d.event_id === eventId && d.endpoint_id === endpointId).at(-1);
  const unacknowledged = endpoints.filter((e) => !isAcknowledged(ctx, eventId, e.id));
  const targets = unacknowledged.length > 0 ? unacknowledged : endpoints;
  await Promise.all(
    targets.map(async (endpoint) => {
      const previous = latest(endpoint.id);
      if (previous) await retryDelivery(ctx, previous.id);
      else dispatch(ctx, event, endpoint.id);
    }),
  );
  // New deliveries were scheduled for now: let their attempt finish before answering.
  await ctx.clock.idle();
  return targets.map((e) => latest(e.id)).filter((d): d is DeliveryRecord => d !== undefined);
}

function isAcknowledged(ctx: MockContext, eventId: string, endpointId: string): boolean {
  for (const d of ctx.store.deliveries.values()) {
    if (d.event_id === eventId && d.endpoint_id === endpointId && d.state === 'delivered') return true;
  }
  return false;
}

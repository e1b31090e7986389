import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource, segment } from '../../core/resource.js';
import { openEnum, parseInput, pathSegment, responseObject } from '../../core/schema.js';

export const CheckoutWebhookCreateParamsSchema = z.strictObject({
  /** Where `payment.succeeded` and `payment.failed` are POSTed (http or https). */
  url: z.url({ protocol: /^https?$/ }).max(2048),
});
export type CheckoutWebhookCreateParams = z.input<typeof CheckoutWebhookCreateParamsSchema>;

/** A subscribed endpoint of the organization. */
export const CheckoutWebhookEndpointSchema = responseObject({
  id: z.string(),
  url: z.string(),
  created_at: z.string().optional(),
});
export type CheckoutWebhookEndpoint = z.infer<typeof CheckoutWebhookEndpointSchema>;

/** A new subscription, with the secret that signs its deliveries: shown only here, store it. */
export const CheckoutWebhookEndpointCreatedSchema = CheckoutWebhookEndpointSchema.extend({
  /** Pass it to `verifyCheckoutWebhook` from `@sikaramp/sdk/webhooks`. */
  secret: z.string(),
});
export type CheckoutWebhookEndpointCreated = z.infer<typeof CheckoutWebhookEndpointCreatedSchema>;

export const CheckoutWebhookEndpointDeletedSchema = responseObject({ id: z.string(), deleted: z.boolean() });
export type CheckoutWebhookEndpointDeleted = z.infer<typeof CheckoutWebhookEndpointDeletedSchema>;

/** One delivery of a replayed event. */
export const CheckoutWebhookDeliverySchema = responseObject({
  id: z.string(),
  endpoint_id: z.string().nullish(),
  url: z.string(),
  /** `delivered` once the endpoint answered 2xx, else `failed`. */
  state: openEnum(['pending', 'delivered', 'failed']),
  /** Every attempt of this delivery: when (ISO 8601), and the status answered or why none was. */
  attempts: z.array(responseObject({ at: z.string(), status: z.number().optional(), error: z.string().optional() })),
});
export type CheckoutWebhookDelivery = z.infer<typeof CheckoutWebhookDeliverySchema>;

export const CheckoutWebhookRetrySchema = responseObject({
  /** The event id, the same `X-Svc-Event-ID` as before. */
  id: z.string(),
  type: z.string(),
  deliveries: z.array(CheckoutWebhookDeliverySchema),
});
export type CheckoutWebhookRetry = z.infer<typeof CheckoutWebhookRetrySchema>;

/** `/api/v1/developer/webhooks`: subscriptions to payment events, and the replay of an event. */
export class CheckoutWebhooks extends Resource {
  /** Subscribes an endpoint; the answer's `secret` is the only time it is shown. */
  async create(params: CheckoutWebhookCreateParams, opts?: RequestOptions): Promise<CheckoutWebhookEndpointCreated> {
    return this.core.post('api/v1/developer/webhooks', {
      ...opts,
      body: parseInput(CheckoutWebhookCreateParamsSchema, params),
      schema: CheckoutWebhookEndpointCreatedSchema,
    });
  }

  /** The organization's endpoints (without their secrets). */
  async list(opts?: RequestOptions): Promise<CheckoutWebhookEndpoint[]> {
    return this.core.get('api/v1/developer/webhooks', { ...opts, schema: z.array(CheckoutWebhookEndpointSchema) });
  }

  /** Removes an endpoint; it receives nothing more. */
  async delete(id: string, opts?: RequestOptions): Promise<CheckoutWebhookEndpointDeleted> {
    return this.core.delete(`api/v1/developer/webhooks/${segment(parseInput(pathSegment, id, 'endpoint id'))}`, {
      ...opts,
      schema: CheckoutWebhookEndpointDeletedSchema,
    });
  }

  /**
   * Sends an event again (same `X-Svc-Event-ID` and body, fresh signature) to each endpoint
   * that has not acknowledged it. Failed deliveries are never retried automatically: this is the way.
   */
  async retryEvent(eventId: string, opts?: RequestOptions): Promise<CheckoutWebhookRetry> {
    return this.core.post(`api/v1/developer/webhooks/events/${segment(parseInput(pathSegment, eventId, 'event id'))}/retry`, {
      ...opts,
      schema: CheckoutWebhookRetrySchema,
    });
  }
}

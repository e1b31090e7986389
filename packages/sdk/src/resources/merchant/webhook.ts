import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource } from '../../core/resource.js';
import { parseInput, responseObject } from '../../core/schema.js';

/** The merchant's webhook endpoint and the secret that signs its deliveries. */
export const WebhookSettingsSchema = responseObject({
  url: z.string().nullable(),
  /** Signing secret: keep it on your server, pass it to `verifyWebhook`. */
  secret: z.string().nullable(),
  /** After a rotation, until when (ISO 8601) the previous secret still signs. */
  previous_secret_expires_at: z.string().nullish(),
});
export type WebhookSettings = z.infer<typeof WebhookSettingsSchema>;

export const WebhookSetParamsSchema = z.strictObject({
  /** Where order and ramp payment webhooks are POSTed. */
  url: z.url({ protocol: /^https?$/ }).max(2048),
});
export type WebhookSetParams = z.input<typeof WebhookSetParamsSchema>;

/** `GET`/`PUT /api/v1/merchant/webhook`, `POST /api/v1/merchant/webhook/rotate`. */
export class Webhook extends Resource {
  /** The URL and the current secret. */
  async get(opts?: RequestOptions): Promise<WebhookSettings> {
    return this.core.get('api/v1/merchant/webhook', { ...opts, schema: WebhookSettingsSchema });
  }

  /** Sets the URL; the first time, a signing secret is issued. */
  async set(params: WebhookSetParams, opts?: RequestOptions): Promise<WebhookSettings> {
    return this.core.put('api/v1/merchant/webhook', {
      ...opts,
      body: parseInput(WebhookSetParamsSchema, params),
      schema: WebhookSettingsSchema,
    });
  }

  /** Issues a new secret; the previous one keeps signing-verification valid for 24 hours. */
  async rotate(opts?: RequestOptions): Promise<WebhookSettings> {
    return this.core.post('api/v1/merchant/webhook/rotate', { ...opts, schema: WebhookSettingsSchema });
  }
}

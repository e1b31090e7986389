import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource, segment } from '../../core/resource.js';
import { openEnum, parseInput, pathSegment, responseObject } from '../../core/schema.js';

const isOrigin = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
};

export const ApiKeyCreateParamsSchema = z.strictObject({
  /** `public` for the page's widget, `secret` for server-to-server calls. */
  key_type: z.enum(['public', 'secret']),
  /** Origins allowed to use a public key, e.g. `https://shop.example.com` (scheme, host, port; no path). */
  domains: z.array(z.string().max(2048).refine(isOrigin, 'must be an origin such as https://shop.example.com')).max(50).optional(),
  /** Caller addresses allowed to use the key (recommended for secret keys). */
  allowed_ips: z.array(z.union([z.ipv4(), z.ipv6()])).max(50).optional(),
  /** What the key may do; both by default. */
  permissions: z.array(z.enum(['onramp', 'offramp'])).min(1).optional(),
  /** Requests per minute, 1 to 600 (600 by default). */
  rate_limit_rpm: z.number().int().min(1).max(600).optional(),
});
export type ApiKeyCreateParams = z.input<typeof ApiKeyCreateParamsSchema>;

/** An API key as the dashboard shows it; the key text itself only in the creation answer. */
export const ApiKeySchema = responseObject({
  id: z.string(),
  merchant_id: z.string(),
  key_type: openEnum(['public', 'secret']),
  /** Leading part of the key, for identification. */
  key_prefix: z.string(),
  allowed_domains: z.array(z.string()),
  allowed_ips: z.array(z.string()),
  permissions: z.array(z.string()),
  /** Requests per minute. */
  rate_limit_rpm: z.number(),
  is_active: z.boolean(),
  created_at: z.string(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyCreatedSchema = responseObject({
  api_key: ApiKeySchema,
  /** The full key, `xx_public_…` or `xx_secret_…`: shown once, store it now. */
  key: z.string(),
});
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

/**
 * What `revoke()` resolves to. 000 shows no answer body for a revocation, only that a 2xx is one:
 * the key object's fields where the service shows them, and always `id` and `is_active: false`.
 */
export type RevokedApiKey = Partial<ApiKey> & { id: string; is_active: false };

const ShownKeySchema = ApiKeySchema.partial();

/** `POST /api/v1/merchant/apikeys`, `DELETE /api/v1/merchant/apikeys/:id`. */
export class ApiKeys extends Resource {
  /** Creates a key; the answer's `key` is the only time the full key is shown. */
  async create(params: ApiKeyCreateParams, opts?: RequestOptions): Promise<ApiKeyCreated> {
    return this.core.post('api/v1/merchant/apikeys', {
      ...opts,
      body: parseInput(ApiKeyCreateParamsSchema, params),
      schema: ApiKeyCreatedSchema,
    });
  }

  /** Revokes a key at once; revoking it again answers the same. Any 2xx is the revocation, whatever its body. */
  async revoke(id: string, opts?: RequestOptions): Promise<RevokedApiKey> {
    const answer = await this.core.delete(`api/v1/merchant/apikeys/${segment(parseInput(pathSegment, id, 'key id'))}`, {
      ...opts,
      schema: z.unknown(),
    });
    const shown = ShownKeySchema.safeParse(answer);
    return { ...(shown.success ? shown.data : {}), id: shown.success && shown.data.id ? shown.data.id : id, is_active: false };
  }
}

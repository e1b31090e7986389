import { http } from 'msw';
import { z } from 'zod';
import { isoNano } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { readBody } from '../../http/body.js';
import { canonicalIp, requireMerchant } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { ok, route } from '../../http/respond.js';
import { apiKeyView, createApiKey } from '../../merchants.js';

/** Largest `rate_limit_rpm` a merchant may set: what the service gives a new key. */
export const MAX_RATE_LIMIT_RPM = 600;

/**
 * A domain is an origin exactly as a browser writes it in `Origin` (matching is exact): anything
 * else would match no page, so it is refused, saying how to write it where that is clear.
 */
const originIssue = (value: string): string | undefined => {
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return 'must be an origin such as https://shop.example.com (scheme, host and port, no path)';
  }
  if (url.hostname.includes('*')) return 'wildcards are not supported: list each origin';
  if (url.origin !== value) return `must be the origin as a browser sends it: write it as ${url.origin}`;
  return undefined;
};

const unique = <T>(values: T[]) => [...new Set(values)];

/**
 * Key creation. Beyond `key_type` and `domains` (000), a merchant may narrow a key at creation:
 * `allowed_ips` (exact IPv4/IPv6 addresses), `permissions` (a non-empty subset of onramp and
 * offramp) and `rate_limit_rpm` (1 to 600; a key cannot be given more than the default).
 */
export const ApiKeyCreateSchema = z.object({
  key_type: z.enum(['public', 'secret']),
  domains: z
    .array(
      z.string().check((ctx) => {
        const message = originIssue(ctx.value);
        if (message) ctx.issues.push({ code: 'custom', message, input: ctx.value });
      }),
    )
    .max(50)
    .transform(unique)
    .optional(),
  allowed_ips: z
    .array(z.union([z.ipv4(), z.ipv6()], 'must be an IPv4 or IPv6 address'))
    .max(50)
    .transform((ips) => unique(ips.map(canonicalIp)))
    .optional(),
  permissions: z.array(z.enum(['onramp', 'offramp'])).min(1).transform(unique).optional(),
  rate_limit_rpm: z.number().int().min(1).max(MAX_RATE_LIMIT_RPM).optional(),
});

/** `POST /api/v1/merchant/apikeys` and `DELETE /api/v1/merchant/apikeys/:id`. */
export function apiKeyHandlers(ctx: MockContext) {
  const base = `${ctx.urls.base}/api/v1/merchant/apikeys`;
  return [
    http.post(
      base,
      route(ctx, 'envelope', async ({ request }) => {
        const merchant = await requireMerchant(ctx, request);
        const input = await readBody(request, ApiKeyCreateSchema);
        const { apiKey, key } = await createApiKey(ctx, merchant, input);
        return ok(ctx, { api_key: apiKeyView(apiKey), key }, 201);
      }),
    ),
    http.delete(
      `${base}/:id`,
      route(ctx, 'envelope', async ({ request, params }) => {
        const merchant = await requireMerchant(ctx, request);
        const apiKey = ctx.store.apiKeys.get(String(params.id));
        if (!apiKey || apiKey.merchant_id !== merchant.id) throw notFound('API key');
        // Revoking twice answers the same: DELETE is idempotent.
        if (apiKey.is_active) {
          apiKey.is_active = false;
          apiKey.revoked_at = isoNano(ctx.clock.now());
        }
        return ok(ctx, apiKeyView(apiKey));
      }),
    ),
  ];
}

import { http } from 'msw';
import { z } from 'zod';
import { iso, isoNano } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { readBody } from '../../http/body.js';
import { requireMerchant } from '../../http/auth.js';
import { HttpError } from '../../http/errors.js';
import { ok, route } from '../../http/respond.js';
import { WEBHOOK_SECRET_GRACE_SECONDS, webhookSecrets } from '../../merchants.js';
import type { MerchantRecord } from '../../store.js';

export const WebhookUpdateSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048),
});

/** `{ url, secret, previous_secret_expires_at }`: the last is set while a rotated-out secret still signs. */
function webhookView(ctx: MockContext, m: MerchantRecord) {
  const { previous } = webhookSecrets(ctx, m);
  return {
    url: m.webhook.url,
    secret: m.webhook.secret,
    previous_secret_expires_at: previous && m.webhook.previous_expires_at ? iso(m.webhook.previous_expires_at) : null,
  };
}

const newSecret = (ctx: MockContext) => `whsec_${ctx.secrets.hex(32)}`;

/**
 * The merchant's order webhook endpoint (design.md section 4): `PUT /api/v1/merchant/webhook
 * {url}` sets the URL (the first time it also issues the signing secret; later changes keep
 * it), `GET` shows URL and secret, `POST .../rotate` issues a new secret while the old one
 * stays valid for 24 h of clock time.
 */
export function webhookHandlers(ctx: MockContext) {
  const base = `${ctx.urls.base}/api/v1/merchant/webhook`;
  return [
    http.put(
      base,
      route(ctx, 'envelope', async ({ request }) => {
        const merchant = await requireMerchant(ctx, request);
        const { url } = await readBody(request, WebhookUpdateSchema);
        merchant.webhook = { ...merchant.webhook, url, secret: merchant.webhook.secret ?? newSecret(ctx) };
        merchant.updated_at = isoNano(ctx.clock.now());
        return ok(ctx, webhookView(ctx, merchant));
      }),
    ),
    http.get(
      base,
      route(ctx, 'envelope', async ({ request }) => ok(ctx, webhookView(ctx, await requireMerchant(ctx, request)))),
    ),
    http.post(
      `${base}/rotate`,
      route(ctx, 'envelope', async ({ request }) => {
        const merchant = await requireMerchant(ctx, request);
        const current = merchant.webhook.secret;
        if (!current) throw new HttpError(409, 'INVALID_STATE', 'set a webhook URL before rotating its secret');
        merchant.webhook = {
          url: merchant.webhook.url,
          secret: newSecret(ctx),
          // Only the secret just replaced keeps its grace period; an older one stops at once.
          previous_secret: current,
          previous_expires_at: ctx.clock.now() + WEBHOOK_SECRET_GRACE_SECONDS * 1000,
        };
        merchant.updated_at = isoNano(ctx.clock.now());
        return ok(ctx, webhookView(ctx, merchant));
      }),
    ),
  ];
}

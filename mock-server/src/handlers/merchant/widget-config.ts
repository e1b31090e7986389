import { http } from 'msw';
import { z } from 'zod';
import { isoNano } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { readBody } from '../../http/body.js';
import { requireMerchant } from '../../http/auth.js';
import { ok, route } from '../../http/respond.js';
import { widgetConfigView } from '../../merchants.js';

/**
 * The widget config update: each field given replaces that field (theme per property), what
 * is left out keeps its value; at least one field. `redirect_url` null clears it.
 */
export const WidgetConfigUpdateSchema = z
  .object({
    theme: z
      .object({
        primary_color: z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour such as #0f766e').optional(),
        border_radius: z
          .string()
          .regex(/^(?:0|\d{1,4}(?:\.\d{1,3})?(?:px|rem|em|%))$/, 'must be a CSS length such as 12px, 0.5rem or 0')
          .optional(),
      })
      .optional(),
    allowed_coins: z.array(z.literal('USDC', 'the only coin is USDC')).min(1).transform((c) => [...new Set(c)]).optional(),
    redirect_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048).nullable().optional(),
  })
  .refine((b) => b.theme !== undefined || b.allowed_coins !== undefined || b.redirect_url !== undefined, {
    message: 'give at least one of theme, allowed_coins, redirect_url',
  });

/** `PUT /api/v1/merchant/widget-config`: answers the whole config after the update. */
export function widgetConfigHandlers(ctx: MockContext) {
  return [
    http.put(
      `${ctx.urls.base}/api/v1/merchant/widget-config`,
      route(ctx, 'envelope', async ({ request }) => {
        const merchant = await requireMerchant(ctx, request);
        const input = await readBody(request, WidgetConfigUpdateSchema);
        const config = merchant.widget_config;
        merchant.widget_config = {
          theme: {
            primary_color: input.theme?.primary_color ?? config.theme.primary_color,
            border_radius: input.theme?.border_radius ?? config.theme.border_radius,
          },
          allowed_coins: input.allowed_coins ?? config.allowed_coins,
          redirect_url: input.redirect_url === undefined ? config.redirect_url : input.redirect_url,
        };
        merchant.updated_at = isoNano(ctx.clock.now());
        return ok(ctx, widgetConfigView(merchant));
      }),
    ),
  ];
}

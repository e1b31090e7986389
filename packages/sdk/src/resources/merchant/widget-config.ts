import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource } from '../../core/resource.js';
import { parseInput, responseObject } from '../../core/schema.js';

/** The widget's look and options (000 section 2); shared with the widget surface. */
export const WidgetConfigSchema = responseObject({
  /** Present in answers only. */
  merchant_id: z.string().optional(),
  theme: responseObject({
    /** Hex colour, e.g. `#0f766e`. */
    primary_color: z.string(),
    /** CSS length, e.g. `12px`. */
    border_radius: z.string(),
  }),
  /** Coins the widget offers: `USDC`. */
  allowed_coins: z.array(z.string()),
  /** Where the customer returns afterwards; null when none is set (left out or empty counts as none). */
  redirect_url: z
    .string()
    .nullish()
    .transform((url) => url || null),
});
export type WidgetConfig = z.infer<typeof WidgetConfigSchema>;

/** Fields left out keep their value; `redirect_url: null` clears it. */
export const WidgetConfigUpdateParamsSchema = z
  .strictObject({
    theme: z
      .strictObject({
        primary_color: z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour such as #0f766e').optional(),
        border_radius: z
          .string()
          .regex(/^(?:0|\d{1,4}(?:\.\d{1,3})?(?:px|rem|em|%))$/, 'must be a CSS length such as 12px')
          .optional(),
      })
      .optional(),
    allowed_coins: z.array(z.literal('USDC')).min(1).optional(),
    redirect_url: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
  })
  .refine((p) => p.theme !== undefined || p.allowed_coins !== undefined || p.redirect_url !== undefined, {
    message: 'give at least one of theme, allowed_coins, redirect_url',
  });
export type WidgetConfigUpdateParams = z.input<typeof WidgetConfigUpdateParamsSchema>;

/** `PUT /api/v1/merchant/widget-config`. */
export class WidgetConfigs extends Resource {
  /** Updates the widget config and returns all of it. */
  async update(params: WidgetConfigUpdateParams, opts?: RequestOptions): Promise<WidgetConfig> {
    return this.core.put('api/v1/merchant/widget-config', {
      ...opts,
      body: parseInput(WidgetConfigUpdateParamsSchema, params),
      schema: WidgetConfigSchema,
    });
  }
}

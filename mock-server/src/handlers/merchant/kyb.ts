import { http } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../../context.js';
import { readBody } from '../../http/body.js';
import { requireMerchant } from '../../http/auth.js';
import { ok, route } from '../../http/respond.js';
import { kybView, submitKyb } from '../../merchants.js';

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

/** design.md section 4: `{ registration_number, country, documents: [{ type, url }] }`; country ISO 3166-1 alpha-3. */
export const KybSubmitSchema = z.object({
  registration_number: z.string().trim().min(1).max(100),
  country: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 3166-1 alpha-3 code, e.g. GHA'),
  documents: z
    .array(z.object({ type: z.string().trim().min(1).max(64), url: httpUrl }))
    .min(1, 'must list at least one document')
    .max(20),
});

/** `POST /api/v1/merchant/kyb/submit` and `GET /api/v1/merchant/kyb/status`. */
export function kybHandlers(ctx: MockContext) {
  const base = `${ctx.urls.base}/api/v1/merchant/kyb`;
  return [
    http.post(
      `${base}/submit`,
      route(ctx, 'envelope', async ({ request }) => {
        const merchant = await requireMerchant(ctx, request);
        const submission = await readBody(request, KybSubmitSchema);
        submitKyb(ctx, merchant, submission);
        return ok(ctx, kybView(merchant));
      }),
    ),
    http.get(
      `${base}/status`,
      route(ctx, 'envelope', async ({ request }) => ok(ctx, kybView(await requireMerchant(ctx, request)))),
    ),
  ];
}

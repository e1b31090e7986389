import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../context.js';
import { readOptionalBody } from '../http/body.js';
import { notFound } from '../http/errors.js';
import { route } from '../http/respond.js';
import { merchantView, reviewKyb } from '../merchants.js';

const RejectBody = z.object({ reason: z.string().trim().min(1).max(500).optional() });

/** The optional `{reason}` of a rejection; an empty body is fine. */
const readReason = async (request: Request) => (await readOptionalBody(request, RejectBody)).reason;

/**
 * `POST /_mock/merchants/{id}/kyb/approve` and `/kyb/reject [{reason}]` (the operator's review,
 * as machines/kyb.ts allows: approval also without a submission, rejection of a submission),
 * `POST /_mock/merchants/{id}/ramp/enable` (activation for the ramp order API).
 */
export function merchantsControl(ctx: MockContext) {
  const find = (id: string) => {
    const merchant = ctx.store.merchants.get(id);
    if (!merchant) throw notFound('merchant');
    return merchant;
  };
  const api = {
    approveKyb: (id: string) => (reviewKyb(ctx, find(id), true), merchantView(find(id))),
    rejectKyb: (id: string, reason?: string) => (reviewKyb(ctx, find(id), false, reason), merchantView(find(id))),
    enableRamp: (id: string) => {
      find(id).ramp_enabled = true;
      return { id, ramp_enabled: true };
    },
  };
  const base = `${ctx.urls.control}/merchants/:id`;
  const handlers = [
    http.post(`${base}/kyb/approve`, route(ctx, 'envelope', ({ params }) => HttpResponse.json(api.approveKyb(String(params.id))))),
    http.post(`${base}/kyb/reject`, route(ctx, 'envelope', async ({ params, request }) => HttpResponse.json(api.rejectKyb(String(params.id), await readReason(request))))),
    http.post(`${base}/ramp/enable`, route(ctx, 'envelope', ({ params }) => HttpResponse.json(api.enableRamp(String(params.id))))),
  ];
  return { api, handlers };
}

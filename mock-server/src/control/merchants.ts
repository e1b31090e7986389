import { http, HttpResponse } from 'msw';
import type { MockContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { route } from '../http/respond.js';
import { merchantView, reviewKyb } from '../merchants.js';

/**
 * `POST /_mock/merchants/{id}/kyb/approve` and `/kyb/reject` (the operator's review),
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
    http.post(`${base}/kyb/reject`, route(ctx, 'envelope', ({ params }) => HttpResponse.json(api.rejectKyb(String(params.id))))),
    http.post(`${base}/ramp/enable`, route(ctx, 'envelope', ({ params }) => HttpResponse.json(api.enableRamp(String(params.id))))),
  ];
  return { api, handlers };
}

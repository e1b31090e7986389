/**
 * The earlier gateway routes under {gateway_url} (002 section 9), with the contracts of the
 * checkout routes they were replaced by. They differ where the document says the gateway
 * differs: no organization context (payments go to the most recently selected organization,
 * meta is kept as sent), keys issued before the checkout route are accepted, no IP
 * allowlist, and the gateway's own failures (502, 429 with Retry-After) are answered as such.
 */
import { http } from 'msw';
import type { MockContext } from '../../context.js';
import { route } from '../../http/respond.js';
import { createPayment, verifyPayment } from '../checkout/payments.js';

export function gatewayHandlers(ctx: MockContext) {
  const base = `${ctx.urls.gateway}/api/v1`;
  return [
    http.post(`${base}/payments/initiate`, route(ctx, 'checkout', ({ request }) => createPayment(ctx, request, 'gateway'))),
    http.get(`${base}/widget/session/`, route(ctx, 'checkout', () => verifyPayment(ctx, '', 'gateway'))),
    http.get(
      `${base}/widget/session/:sessionRef`,
      route(ctx, 'checkout', ({ params }) => verifyPayment(ctx, String(params.sessionRef), 'gateway')),
    ),
  ];
}

/**
 * Control of the simulated world shared by every surface: Mobile Money prompts and payouts,
 * the Stellar ledger, and the one-time passwords sent to phones.
 *   POST /_mock/mobile-money/{id}/approve | /decline   id: prompt id, or its transaction/order id (a ramp
 *        | /timeout (the customer lets it time out)    order still quote_locked gets its prompt first)
 *   GET  /_mock/mobile-money                           prompts, newest first (?status=pending)
 *   POST /_mock/payouts/{id}/fail {reason?}            fails the pending payout attempt
 *   POST /_mock/stellar/payments {from,to,amount,asset_code,memo}
 *   GET  /_mock/otp?phone=                             the newest code sent to the phone
 */
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../context.js';
import { parse, readBody, readOptionalBody } from '../http/body.js';
import { badRequest, notFound } from '../http/errors.js';
import { route } from '../http/respond.js';
import { receivePayment } from '../ledger.js';
import { sendPromptNow } from '../handlers/ramp/lifecycle.js';
import { failPayout, settleCollection, type PromptOutcome } from '../mobile-money.js';
import { lastOtp } from '../otp.js';

const PaymentBody = z.object({
  from: z.string().regex(/^G[A-Z2-7]{55}$/, 'must be a Stellar public key'),
  to: z.string().regex(/^G[A-Z2-7]{55}$/, 'must be a Stellar public key'),
  amount: z.union([z.number().positive(), z.string().regex(/^\d+(\.\d{1,7})?$/)]).transform(String),
  asset_code: z.string().min(1).max(12).default('USDC'),
  memo: z.string().max(28).nullable().default(null),
});

export function railsControl(ctx: MockContext) {
  // A ramp order still `quote_locked` gets its prompt now, so that a test may answer it right after creating the order.
  // A prompt that has already ended is refused (409 INVALID_STATE, machines/mobile-money.ts) and stays as it was.
  const answerPrompt = (id: string, outcome: PromptOutcome) => {
    sendPromptNow(ctx, id);
    return settleCollection(ctx, id, outcome);
  };
  const api = {
    approvePrompt: (id: string) => answerPrompt(id, 'approved'),
    declinePrompt: (id: string) => answerPrompt(id, 'declined'),
    /** The customer lets the prompt time out now, without waiting out its timeout on the clock. */
    timeOutPrompt: (id: string) => answerPrompt(id, 'timed_out'),
    prompts: (status?: string) =>
      [...ctx.store.mobileMoney.collections.values()].filter((c) => !status || c.status === status).reverse(),
    failPayout: (id: string, reason?: string) => failPayout(ctx, id, reason),
    /** A customer's wallet sends a Stellar payment; whatever it settles is in `matched`. */
    sendStellarPayment: (input: z.input<typeof PaymentBody>) => receivePayment(ctx, parse(PaymentBody, input)),
    /** The newest one-time password sent to `phone`. */
    otp(phone: string) {
      const otp = lastOtp(ctx, phone);
      if (!otp) throw notFound('code for this phone');
      return { phone: otp.phone, code: otp.code, purpose: otp.purpose, expires_at: new Date(otp.expires_at).toISOString() };
    },
  };
  const base = ctx.urls.control;
  const handlers = [
    http.post(`${base}/mobile-money/:id/approve`, route(ctx, 'envelope', async ({ params }) => HttpResponse.json(await api.approvePrompt(String(params.id))))),
    http.post(`${base}/mobile-money/:id/decline`, route(ctx, 'envelope', async ({ params }) => HttpResponse.json(await api.declinePrompt(String(params.id))))),
    http.post(`${base}/mobile-money/:id/timeout`, route(ctx, 'envelope', async ({ params }) => HttpResponse.json(await api.timeOutPrompt(String(params.id))))),
    http.get(`${base}/mobile-money`, ({ request }) =>
      HttpResponse.json({ data: api.prompts(new URL(request.url).searchParams.get('status') ?? undefined) }),
    ),
    http.post(
      `${base}/payouts/:id/fail`,
      route(ctx, 'envelope', async ({ params, request }) => {
        const body = await readOptionalBody(request, z.object({ reason: z.string().max(200).optional() }));
        return HttpResponse.json(await api.failPayout(String(params.id), body.reason));
      }),
    ),
    http.post(
      `${base}/stellar/payments`,
      route(ctx, 'envelope', async ({ request }) => HttpResponse.json(await receivePayment(ctx, await readBody(request, PaymentBody)), { status: 201 })),
    ),
    http.get(
      `${base}/otp`,
      route(ctx, 'envelope', ({ request }) => {
        const phone = new URL(request.url).searchParams.get('phone');
        if (!phone) throw badRequest('query parameter phone is required');
        return HttpResponse.json(api.otp(phone));
      }),
    ),
  ];
  return { api, handlers };
}

import { http } from 'msw';
import { z } from 'zod';
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { adoptCustomer, findAcceptedCustomer } from '../../customers.js';
import { readBody } from '../../http/body.js';
import { openSession, requireKey } from '../../http/auth.js';
import { ok, route } from '../../http/respond.js';
import type { SessionRecord } from '../../store.js';

export const SessionCreateSchema = z.object({ user_id: z.string().trim().min(1).max(100) });

/** The widget session object of 000 section 2. */
export function sessionView(s: SessionRecord) {
  return { session_id: s.session_id, session_token: s.session_token, merchant_id: s.merchant_id, expires_at: iso(s.expires_at) };
}

/**
 * `POST /api/v1/widget/session {user_id}` with the secret key: a session for one of the
 * merchant's customers (or one made at the anchor without merchant fields, which the merchant
 * thereby adopts), valid 30 minutes of clock time; 403 KYC_NOT_APPROVED unless the
 * customer is ACCEPTED. Answered in the usual envelope (with `meta`, which 000's example
 * leaves out), like every other widget backend response.
 */
export function sessionHandlers(ctx: MockContext) {
  return [
    http.post(
      `${ctx.urls.base}/api/v1/widget/session`,
      route(ctx, 'envelope', async ({ request }) => {
        const { merchant } = await requireKey(ctx, request, { type: 'secret', from: 'x-api-key' });
        const { user_id } = await readBody(request, SessionCreateSchema);
        const customer = findAcceptedCustomer(ctx, merchant.id, user_id);
        adoptCustomer(customer, merchant.id);
        return ok(ctx, sessionView(openSession(ctx, merchant.id, customer.id)), 201);
      }),
    ),
  ];
}

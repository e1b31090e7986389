/**
 * The hosted checkout page at `checkout_url` ({gateway_url}/checkout/{session_id}): a person
 * picks succeed, fail or cancel, and is sent back to the merchant's `redirect_url` with
 * `sessionRef` (the session reference) in the query, as the real page does. The redirect
 * proves nothing; the merchant verifies from its server.
 */
import { http, HttpResponse } from 'msw';
import type { MockContext } from '../../context.js';
import { HttpError } from '../../http/errors.js';
import { html, type SafeHtml } from '../../http/html.js';
import type { CheckoutSessionStatus } from '../../machines/checkout-session.js';
import type { GatewaySession } from '../../state/checkout.js';
import { findCheckoutSession, settleSession } from '../gateway/gateway.js';

/** The page's buttons and the status each one sets. */
export const OUTCOMES = { succeed: 'completed', fail: 'failed', cancel: 'cancelled' } as const satisfies Record<
  string,
  Exclude<CheckoutSessionStatus, 'pending'>
>;

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
};

/** The merchant's `redirect_url` with `sessionRef` added to its query. */
export function returnUrl(session: GatewaySession): string {
  const url = new URL(session.redirect_url);
  url.searchParams.set('sessionRef', session.id);
  return url.toString();
}

function page(title: string, body: SafeHtml, status = 200) {
  const text = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a;overflow-wrap:anywhere}
@media (max-width:30rem){body{margin-top:1rem}h1{font-size:1.5rem}}
.amount{font-size:2rem;font-weight:600}form{display:flex;gap:.5rem;flex-wrap:wrap}button{font:inherit;min-height:2.75rem;padding:.6rem 1rem;border-radius:.4rem;border:1px solid #888;cursor:pointer}
button[value=succeed]{background:#0a7c3f;color:#fff;border-color:#0a7c3f}.note{color:#555;font-size:.875rem}</style></head>
<body><main>${body}</main></body></html>`.text;
  return new HttpResponse(text, { status, headers: HEADERS });
}

/** Decimals of the currency's smallest unit (ISO 4217: 0 for XOF, 3 for KWD), 2 for a code Intl does not know. */
const minorDigits = (currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** `amount` is in the smallest unit (002): 10000 GHS is GHS 100.00, 5000 XOF is XOF 5000. */
function formatAmount(s: GatewaySession) {
  const digits = minorDigits(s.currency);
  return `${s.currency} ${(s.amount / 10 ** digits).toFixed(digits)}`;
}

function checkoutForm(session: GatewaySession) {
  return page(
    `Pay ${formatAmount(session)}`,
    html`<h1>Sikaramp test checkout</h1>
<p>Pay <span class="amount">${formatAmount(session)}</span> to ${session.recipient.name}</p>
<p class="note">Test mode: no money moves. Choose what the payment does.</p>
<form method="post">
<button name="outcome" value="succeed">Pay (succeed)</button>
<button name="outcome" value="fail">Fail</button>
<button name="outcome" value="cancel">Cancel</button>
</form>
<p class="note">Reference ${session.reference}</p>`,
  );
}

function finished(session: GatewaySession, status = 200) {
  return page(
    `Payment ${session.status}`,
    html`<h1>Payment ${session.status}</h1>
<p>This checkout can no longer be paid.</p>
<p><a href="${returnUrl(session)}">Return to the merchant</a></p>`,
    status,
  );
}

const gone = () => page('Checkout not found', html`<h1>Checkout not found</h1><p>This checkout does not exist or has expired.</p>`, 404);

export function pageHandlers(ctx: MockContext) {
  const path = `${ctx.urls.gateway}/checkout/:sessionId`;
  return [
    http.get(path, ({ params }) => {
      const session = findCheckoutSession(ctx, String(params.sessionId));
      if (!session) return gone();
      return session.status === 'pending' || session.status === 'failed' ? checkoutForm(session) : finished(session);
    }),
    http.post(path, async ({ request, params }) => {
      const session = findCheckoutSession(ctx, String(params.sessionId));
      if (!session) return gone();
      const outcome = new URLSearchParams(await request.text()).get('outcome');
      if (outcome !== 'succeed' && outcome !== 'fail' && outcome !== 'cancel') {
        return page('Choose an outcome', html`<h1>Choose succeed, fail or cancel</h1>`, 400);
      }
      try {
        settleSession(ctx, session, OUTCOMES[outcome]);
      } catch (error) {
        if (error instanceof HttpError && error.status === 409) return finished(session, 409);
        throw error;
      }
      return new HttpResponse(null, { status: 303, headers: { location: returnUrl(session), 'cache-control': 'no-store' } });
    }),
  ];
}

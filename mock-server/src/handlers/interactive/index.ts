/**
 * The interactive page at `{interactive_url}` that the customer completes, in an iframe, a
 * popup or the whole window:
 *   GET {interactive_url}?token=…[&lang=…][&origin=…]   the form (./page.ts, ./browser/main.ts)
 *   GET {interactive_url}/transaction?id=…              the transaction's more_info_url
 *   {interactive_url}/api/…                             the form's steps (./api.ts)
 * A merchant's transaction is confirmed at the widget backend's POST /api/v1/widget/orders
 * with the request's public key and session; a direct client's through ./api.ts (which takes a
 * merchant's too, with the same key and session checked as there).
 * A link works for 30 minutes from the transaction's start (the form's window): the form while
 * it is unfinished, then the status; an unknown or older link, or one whose form expired, gets
 * an error page (404).
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';
import { sha256Hex } from '../../crypto.js';
import { route } from '../../http/respond.js';
import { guaranteedRate } from '../../quotes.js';
import type { MerchantRecord } from '../../store.js';
import type { TransactionRecord } from '../../state/anchor.js';
import { findTransaction, findTransactionByToken, INCOMPLETE_TTL_SECONDS } from '../../transactions/create.js';
import { transactionView } from '../../transactions/view.js';
import { apiHandlers, issuePageToken } from './api.js';
import { amountRange } from './limits.js';
import { allowedOrigins, frameAncestors, targetOrigin } from './origin.js';
// The page's script, bundled from ./browser/main.ts with its hash (see mock-server/scripts/browser-scripts.ts).
import { hash as scriptHash, script as pageScript } from './browser.generated.js';
import type { PageModel } from './model.js';
import { renderLinkErrorPage, renderPage, renderStatusPage, renderUnknownTransactionPage } from './page.js';
import { pickLang } from './strings.js';
import { PAGE_CSS, themeVariables } from './styles.js';

/** How often the page asks for news, milliseconds of real time (the customer's browser). */
export const POLL_MS = 1000;

async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

/**
 * An HTML answer with a CSP that lets nothing run or load but this page's own style and
 * script (pinned by hash) and calls to its own API (and `connect`, the widget backend's origin,
 * where it confirms orders); `frameAncestors` says who may frame it.
 * No referrer leaves the page, so the token in its URL never reaches another site.
 */
async function html(status: number, body: string, css: string, options: { script?: boolean; frameAncestors?: string; connect?: string } = {}) {
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${await sha256Base64(css)}'`,
    options.script ? `script-src 'sha256-${scriptHash}'` : "script-src 'none'",
    `connect-src 'self'${options.connect ? ` ${options.connect}` : ''}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${options.frameAncestors ?? "'none'"}`,
  ].join('; ');
  return new HttpResponse(body, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': csp,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    },
  });
}

const merchantOf = (ctx: MockContext, tx: TransactionRecord): MerchantRecord | undefined =>
  tx.merchant_id ? ctx.store.merchants.get(tx.merchant_id) : undefined;

async function pageModel(ctx: MockContext, tx: TransactionRecord, request: Request): Promise<PageModel & { frameAncestors: string }> {
  const query = new URL(request.url).searchParams;
  const merchant = merchantOf(ctx, tx);
  const guaranteed = guaranteedRate(ctx, tx);
  // A quote fixes the amount: the page offers no other.
  const range = guaranteed && tx.requested_amount !== null ? { min: tx.requested_amount, max: tx.requested_amount, currency: tx.kind === 'deposit' ? ('GHS' as const) : ('USDC' as const) } : amountRange(ctx, tx);
  const allowed = allowedOrigins(tx.embed_origins);
  return {
    lang: pickLang(query.get('lang'), tx.lang),
    kind: tx.kind,
    token: await issuePageToken(ctx, tx),
    api: `${ctx.urls.interactive}/api`,
    merchant: merchant?.name ?? null,
    testMode: ctx.options.network === 'testnet',
    transaction: transactionView(ctx, tx),
    amount: { preset: tx.requested_amount, ...range },
    destination: tx.kind === 'deposit' ? tx.destination_address : null,
    targetOrigin: targetOrigin(allowed, { query: query.get('origin'), referer: request.headers.get('referer') }),
    redirectUrl: merchant?.widget_config.redirect_url ?? null,
    pollMs: POLL_MS,
    finished: tx.status !== 'incomplete' && tx.provider && tx.phone ? { provider: tx.provider, phone: tx.phone } : null,
    // A finished form is not confirmed again: its page gets no session to confirm with.
    order: tx.status === 'incomplete' ? orderCredentials(ctx, tx) : null,
    guaranteed,
    frameAncestors: frameAncestors(allowed),
  };
}

/**
 * What the page confirms a merchant's order with at POST /api/v1/widget/orders: the public
 * key and the customer's session of the request's merchant fields. Null for a transaction
 * without them (a direct anchor client's), which the page finishes through its own API.
 */
function orderCredentials(ctx: MockContext, tx: TransactionRecord): PageModel['order'] {
  const session = tx.merchant_session ? ctx.store.sessions.get(tx.merchant_session.session_id) : undefined;
  if (!tx.merchant_session || !session) return null;
  return {
    url: `${ctx.urls.base}/api/v1/widget/orders`,
    api_key: tx.merchant_session.api_key,
    session_id: session.session_id,
    session_token: session.session_token,
  };
}

/**
 * The transaction a link opens: while its form waits, as for the form; once the form was
 * finished (on this page or another, the dashboard, the control API), still, so that a page
 * loaded late shows the status and reports it. For the form's 30 minutes from the start, as
 * a short-lived link should; a form that expired unfinished forgot its link.
 */
async function openLink(ctx: MockContext, token: string): Promise<TransactionRecord | undefined> {
  const unfinished = await findTransactionByToken(ctx, token);
  if (unfinished || !token) return unfinished;
  const id = ctx.store.anchor.tokens.get(await sha256Hex(token));
  const tx = id ? findTransaction(ctx, id) : undefined;
  return tx && ctx.clock.now() < tx.started_at + INCOMPLETE_TTL_SECONDS * 1000 ? tx : undefined;
}

/** Styles of the pages that belong to no merchant: the default theme. */
const PLAIN_CSS = themeVariables(undefined) + PAGE_CSS;

export function interactivePageHandlers(ctx: MockContext): HttpHandler[] {
  const base = ctx.urls.interactive;
  return [
    http.get(
      base,
      route(ctx, 'envelope', async ({ request }) => {
        const query = new URL(request.url).searchParams;
        const tx = await openLink(ctx, query.get('token') ?? '');
        if (!tx) {
          const lang = pickLang(query.get('lang'));
          return html(404, renderLinkErrorPage(lang, PLAIN_CSS), PLAIN_CSS);
        }
        const { frameAncestors: ancestors, ...model } = await pageModel(ctx, tx, request);
        const css = themeVariables(merchantOf(ctx, tx)?.widget_config.theme) + PAGE_CSS;
        return html(200, renderPage(model, css, pageScript), css, { script: true, frameAncestors: ancestors, connect: new URL(ctx.urls.base).origin });
      }),
    ),
    http.get(
      `${base}/transaction`,
      route(ctx, 'envelope', async ({ request }) => {
        const query = new URL(request.url).searchParams;
        const tx = findTransaction(ctx, query.get('id') ?? '');
        if (!tx) return html(404, renderUnknownTransactionPage(pickLang(query.get('lang')), PLAIN_CSS), PLAIN_CSS);
        const merchant = merchantOf(ctx, tx);
        const css = themeVariables(merchant?.widget_config.theme) + PAGE_CSS;
        const lang = pickLang(query.get('lang'), tx.lang);
        return html(200, renderStatusPage({ lang, merchant: merchant?.name ?? null, transaction: transactionView(ctx, tx) }, css), css, {
          frameAncestors: frameAncestors(allowedOrigins(tx.embed_origins)),
        });
      }),
    ),
    ...apiHandlers(ctx),
  ];
}

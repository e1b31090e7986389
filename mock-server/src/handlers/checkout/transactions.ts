/**
 * `GET /api/v1/developer/transactions?status&from&to&limit&cursor` (our path, design.md
 * section 4): the searchable history of the key's organization, newest first.
 */
import { http, HttpResponse } from 'msw';
import type { MockContext } from '../../context.js';
import { route } from '../../http/respond.js';
import type { CheckoutTransaction } from '../../state/checkout.js';
import { requireCheckoutKey } from './auth.js';
import { checkoutError } from './errors.js';

/** Page size without `limit`, and the largest accepted. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const STATUSES = ['completed', 'success', 'pending', 'failed', 'cancelled'] as const;

/** The record as the history shows it (our field choice: the document shows none). */
export function checkoutTransactionView(t: CheckoutTransaction) {
  const { seq: _seq, ...view } = t;
  return view;
}

// The cursor is opaque to callers: the insertion number of the last item served, base64url.
const encodeCursor = (seq: number) => btoa(`seq:${seq}`).replace(/=+$/, '');
function decodeCursor(cursor: string): number {
  let text = '';
  try {
    text = atob(cursor);
  } catch {
    // falls through to the 400 below
  }
  const match = /^seq:(\d+)$/.exec(text);
  if (!match) throw checkoutError(400, 'cursor is not valid: pass next_cursor from the previous page');
  return Number(match[1]);
}

function readTime(q: URLSearchParams, name: 'from' | 'to'): number | undefined {
  const value = q.get(name);
  if (value === null) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw checkoutError(400, `${name} must be an ISO 8601 date or date-time`);
  return ms;
}

export function transactionHandlers(ctx: MockContext) {
  return [
    http.get(
      `${ctx.urls.checkout}/api/v1/developer/transactions`,
      route(ctx, 'checkout', async ({ request }) => {
        const { organization } = await requireCheckoutKey(ctx, request);
        const q = new URL(request.url).searchParams;
        const status = q.get('status');
        if (status !== null && !(STATUSES as readonly string[]).includes(status)) {
          throw checkoutError(400, `status must be one of ${STATUSES.join(', ')}`);
        }
        const from = readTime(q, 'from');
        const to = readTime(q, 'to');
        const limitText = q.get('limit');
        const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
        if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
          throw checkoutError(400, `limit must be an integer from 1 to ${MAX_LIMIT}`);
        }
        const cursorText = q.get('cursor');
        const after = cursorText === null ? undefined : decodeCursor(cursorText);

        const matches = [...ctx.store.checkout.transactions.values()]
          .filter((t) => t.organization_id === organization.id)
          .filter((t) => status === null || t.status === status)
          .filter((t) => from === undefined || Date.parse(t.created_at) >= from)
          .filter((t) => to === undefined || Date.parse(t.created_at) < to)
          .filter((t) => after === undefined || t.seq < after)
          .sort((a, b) => b.seq - a.seq);
        const page = matches.slice(0, limit);
        const more = matches.length > limit;
        return HttpResponse.json({
          success: true,
          data: page.map(checkoutTransactionView),
          has_more: more,
          next_cursor: more ? encodeCursor(page.at(-1)!.seq) : null,
        });
      }),
    ),
  ];
}

import { http, type HttpHandler } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../../context.js';
import { findKey, findSession, rateLimit, requestOrigin, requireKey, requireLiveSession, requirePermission, type KeyAuth } from '../../http/auth.js';
import { readBody } from '../../http/body.js';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../../http/errors.js';
import { ok, route } from '../../http/respond.js';
import { quoteForRequest, quoteSellAmount } from '../../quotes.js';
import type { TransactionRecord } from '../../state/anchor.js';
import type { OrderRecord, SessionRecord } from '../../store.js';
import { completeInteractive, type CompleteInteractiveInput } from '../../transactions/complete.js';
import { findTransaction } from '../../transactions/create.js';
import { transactionView } from '../../transactions/view.js';
import { orderView } from '../merchant/orders.js';

/** 000 section 5: the order creation's `X-Idempotency-Key` is "a unique UUID" (any version, either case, as the SDK sends it). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The headers POST /api/v1/widget/orders requires besides `X-API-Key`, in the order a missing one is named. */
const REQUIRED_HEADERS = ['X-Session-Id', 'X-Session-Token', 'X-Idempotency-Key'] as const;

export const OrderCreateSchema = z.object({
  /** The interactive transaction whose form this finishes (the `id` of the interactive request). */
  transaction_id: z.string().trim().min(1).max(100),
  provider: z.string().trim().min(1).max(40),
  phone: z.string().trim().min(1).max(40),
  /** GHS for a buy, USDC for a sell; default: the request's amount (or the quote's). */
  amount: z.number().positive('must be greater than 0').finite().optional(),
  destination_address: z.string().trim().toUpperCase().max(69).optional(),
  /** A SEP-38 quote of the transaction's account, for a guaranteed rate. */
  quote_id: z.string().trim().min(1).max(100).optional(),
});

/** The public key the interactive page sends: unknown or revoked 401 UNAUTHORIZED, a secret key 403 FORBIDDEN. */
async function pageKey(ctx: MockContext, text: string): Promise<KeyAuth> {
  const auth = await findKey(ctx, text);
  if (!auth) throw unauthorized('invalid or revoked API key');
  if (auth.key.key_type !== 'public') throw forbidden('the interactive page sends the public key');
  return auth;
}

/**
 * The key of `X-API-Key`: a public key from its allowed domains or from the interactive page
 * (the service's own page, which the merchant's allowed domains frame), or the secret key
 * from the merchant's server (its allowed IPs apply). Unknown or revoked: 401.
 */
async function requireOrderKey(ctx: MockContext, request: Request): Promise<KeyAuth> {
  const text = request.headers.get('x-api-key')?.trim();
  if (!text || requestOrigin(request) !== new URL(ctx.urls.interactive).origin) return requireKey(ctx, request, { type: 'any', from: 'x-api-key' });
  const auth = await pageKey(ctx, text);
  rateLimit(ctx, `key:${auth.key.id}`, auth.key.rate_limit_rpm, 60_000);
  return auth;
}

/**
 * What the interactive page confirms a merchant's transaction with: the public key and the
 * widget session of the request's merchant fields (those the page is handed to send here),
 * checked as for the page's own request: a revoked key or an expired session is 401.
 */
export async function pageCredentials(ctx: MockContext, tx: TransactionRecord): Promise<{ auth: KeyAuth; session: SessionRecord }> {
  const session = tx.merchant_session ? ctx.store.sessions.get(tx.merchant_session.session_id) : undefined;
  if (!tx.merchant_session || !session) throw unauthorized('invalid session');
  const auth = await pageKey(ctx, tx.merchant_session.api_key);
  return { auth, session: requireLiveSession(ctx, session) };
}

/** The customer's answers that confirm the order. */
export interface OrderInput extends CompleteInteractiveInput {
  /** A SEP-38 quote of the transaction's account, for a guaranteed rate. */
  quote_id?: string;
}

/**
 * Confirms a merchant's order, however the customer's confirmation arrives: finishes `tx`'s
 * form (completeInteractive) for the key's merchant and the session's customer (a live session
 * of that merchant). `idempotencyKey` is spent only by an order created. Refusals change
 * nothing: 404 (a transaction not the session's), 403 (the key lacks the direction's
 * permission), 409 DUPLICATE_ORDER, and those of the quote and of completeInteractive.
 */
export async function confirmOrder(
  ctx: MockContext,
  { merchant, key }: KeyAuth,
  session: SessionRecord,
  tx: TransactionRecord | undefined,
  input: OrderInput,
  idempotencyKey?: string,
): Promise<{ order: OrderRecord; transaction: TransactionRecord }> {
  // From here on nothing awaits before the key is taken, so one key confirms one order.
  if (!tx || tx.merchant_id !== merchant.id || tx.customer_id !== session.user_id) throw notFound('transaction');
  requirePermission(key, tx.kind === 'deposit' ? 'onramp' : 'offramp');
  const keyId = idempotencyKey === undefined ? undefined : `${merchant.id} ${idempotencyKey}`;
  const used = keyId === undefined ? undefined : ctx.store.anchor.orderKeys.get(keyId);
  if (used !== undefined) throw new HttpError(409, 'DUPLICATE_ORDER', `this X-Idempotency-Key was already used for transaction ${used}`);

  const { quote_id, ...form } = input;
  let amount = form.amount;
  const attach = quote_id !== undefined && quote_id !== tx.quote_id;
  if (attach) {
    if (tx.quote_id) throw badRequest(`quote_id: the transaction is priced at quote ${tx.quote_id}`);
    const quote = ctx.store.anchor.quotes.get(quote_id);
    if (quote && quote.account === tx.account && ctx.clock.now() >= quote.expires_at) {
      throw new HttpError(422, 'QUOTE_EXPIRED', 'quote expired; request a new one');
    }
    const checked = quoteForRequest(ctx, tx.kind, tx.account, quote_id, { amount: amount ?? tx.requested_amount ?? undefined });
    amount ??= quoteSellAmount(checked);
    tx.quote_id = checked.id;
  }
  if (keyId !== undefined) ctx.store.anchor.orderKeys.set(keyId, tx.id);
  try {
    await completeInteractive(ctx, tx, { ...form, ...(amount === undefined ? {} : { amount }) });
  } catch (error) {
    if (keyId !== undefined) ctx.store.anchor.orderKeys.delete(keyId);
    if (attach) tx.quote_id = null;
    throw error;
  }
  const order = tx.order_id ? ctx.store.orders.get(tx.order_id) : undefined;
  if (!order) throw new HttpError(500, 'INTERNAL_ERROR', 'internal error');
  return { order, transaction: tx };
}

/**
 * `POST /api/v1/widget/orders` (design.md section 4): finishes an interactive transaction's
 * form as the customer's confirmation, with the customer's widget session. The interactive
 * page calls it for a merchant's transaction; a merchant's server may too.
 *
 * Headers: `X-API-Key`, `X-Session-Id`, `X-Session-Token` (a live session of the key's
 * merchant, for the transaction's customer) and `X-Idempotency-Key` (a UUID). Body: `transaction_id`,
 * `provider`, `phone` (OTP-verified for this transaction or the customer before), `amount?`,
 * `destination_address?` (a buy's), `quote_id?`. 201 `{ order, transaction }`: the `ord_`
 * order as the order list shows it and the SEP-24 transaction, now `pending_user_transfer_start`.
 *
 * Refusals change nothing: 401 UNAUTHORIZED (key, as on every widget endpoint, or session),
 * 400 MISSING_HEADER (a session or idempotency header), 400 VALIDATION_ERROR (the body, or an
 * idempotency key that is not a UUID), 404 NOT_FOUND
 * (a transaction not the session's), 403 FORBIDDEN (a key without the `onramp` or `offramp`
 * permission), 409 DUPLICATE_ORDER (the idempotency key confirmed an order before), 409
 * INVALID_STATE (the form is finished), 403 KYC_NOT_APPROVED, 422 PHONE_NOT_VERIFIED, 422
 * QUOTE_EXPIRED, 422 AMOUNT_OUT_OF_RANGE.
 */
export function orderHandlers(ctx: MockContext): HttpHandler[] {
  return [
    http.post(
      `${ctx.urls.base}/api/v1/widget/orders`,
      route(ctx, 'envelope', async ({ request }) => {
        const auth = await requireOrderKey(ctx, request);
        for (const name of REQUIRED_HEADERS) {
          if (!request.headers.get(name)?.trim()) throw new HttpError(400, 'MISSING_HEADER', `the ${name} header is required`);
        }
        const idempotencyKey = request.headers.get('x-idempotency-key')!.trim();
        if (!UUID.test(idempotencyKey)) throw badRequest('X-Idempotency-Key must be a UUID, e.g. crypto.randomUUID()');
        const session = findSession(ctx, request.headers.get('x-session-id')!.trim(), request.headers.get('x-session-token')!.trim());
        if (session.merchant_id !== auth.merchant.id) throw unauthorized('invalid session');
        const { transaction_id, ...input } = await readBody(request, OrderCreateSchema);
        // The same UUID in either case is the same key.
        const { order, transaction } = await confirmOrder(ctx, auth, session, findTransaction(ctx, transaction_id), input, idempotencyKey.toLowerCase());
        return ok(ctx, { order: orderView(order), transaction: transactionView(ctx, transaction) }, 201);
      }),
    ),
  ];
}

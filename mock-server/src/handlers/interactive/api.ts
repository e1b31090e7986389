/**
 * The interactive page's JSON API under `{interactive_url}/api`, one call per step of the
 * form. Every call carries `Authorization: Bearer <page token>`: a JWT the page gets when its
 * link is opened, naming the transaction. It outlives the link (which works 30 minutes) so
 * that the page can keep showing the status.
 *
 *   POST /api/otp       {phone}                      sends a code to the phone
 *   POST /api/verify    {phone, code}                checks the code
 *   POST /api/quote     {amount}                     the fee breakdown for an amount
 *   POST /api/complete  {provider, phone, amount?, destination_address?, otp_code?}
 *                       (a merchant's transaction: also its key and session, as at /api/v1/widget/orders)
 *   GET  /api/transaction?since=<status>             the status, and each status passed since
 *
 * Errors use the widget backend's body plus `error.field`, the form field the page shows the
 * message under (`provider`, `phone`, `code`, `amount`, `destination`), when there is one.
 */
import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import { z } from 'zod';
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { signJwt, verifyJwt } from '../../crypto.js';
import { bearer, rateLimit } from '../../http/auth.js';
import { readBody } from '../../http/body.js';
import { HttpError, unauthorized } from '../../http/errors.js';
import { ok, route } from '../../http/respond.js';
import { TRANSACTION_MACHINES } from '../../machines/transaction.js';
import type { TransactionRecord } from '../../state/anchor.js';
import { completeInteractive, sendInteractiveOtp, verifyInteractivePhone } from '../../transactions/complete.js';
import { findTransaction } from '../../transactions/create.js';
import { quoteForTransaction, transactionView, type TransactionQuote, type TransactionView } from '../../transactions/view.js';
import { confirmOrder, pageCredentials } from '../widget/orders.js';

/** How long the page token works, seconds of clock time: long enough to watch a slow sell settle. */
export const PAGE_TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** Codes a page may send to phones per OTP_SEND_WINDOW_SECONDS. */
export const OTP_SENDS_PER_WINDOW = 5;
export const OTP_SEND_WINDOW_SECONDS = 10 * 60;

const AUDIENCE = 'interactive-page';

/** A page token for the transaction, handed to the page when its link is opened. */
export async function issuePageToken(ctx: MockContext, tx: TransactionRecord): Promise<string> {
  const iat = Math.floor(ctx.clock.now() / 1000);
  return signJwt({ sub: tx.id, aud: AUDIENCE, iat, exp: iat + PAGE_TOKEN_TTL_SECONDS }, ctx.jwtSecret);
}

async function requireTransaction(ctx: MockContext, request: Request): Promise<TransactionRecord> {
  const token = bearer(request);
  const claims = token ? await verifyJwt(token, ctx.jwtSecret, ctx.clock.now()) : undefined;
  const tx = claims?.aud === AUDIENCE ? findTransaction(ctx, String(claims.sub)) : undefined;
  if (!tx) throw unauthorized('invalid or expired page token; open the link again');
  return tx;
}

/** A form field of the page. */
type Field = 'provider' | 'phone' | 'code' | 'amount' | 'destination';

/** The page's field for the domain's `name: message` validation errors. */
const PREFIXED: Record<string, Field> = {
  provider: 'provider',
  phone: 'phone',
  amount: 'amount',
  destination_address: 'destination',
  otp_code: 'code',
  code: 'code',
};

/**
 * Where an error belongs on the page: the field its `name:` prefix names, else the field the
 * step's error code points to, else none (shown above the confirm button).
 */
function placeError(error: HttpError, byCode: Partial<Record<string, Field>>): { field: Field | undefined; message: string } {
  const match = error.message.match(/^(\w+): (.*)$/s);
  const field = match && PREFIXED[match[1]!];
  if (field) return { field, message: capitalise(match[2]!) };
  return { field: Object.hasOwn(byCode, error.code) ? byCode[error.code] : byCode['*'], message: capitalise(error.message) };
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Like route(): a thrown HttpError becomes the envelope error, here with `error.field` placed
 * by `byCode` (`'*'` for any other code); anything else is a 500 through route().
 */
function step(
  ctx: MockContext,
  byCode: Partial<Record<string, Field>>,
  resolver: (request: Request, tx: TransactionRecord) => Promise<unknown>,
): HttpResponseResolver {
  return route(ctx, 'envelope', async ({ request }) => {
    const tx = await requireTransaction(ctx, request);
    try {
      return ok(ctx, await resolver(request, tx), 200, NO_STORE);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const { field, message } = placeError(error, byCode);
      return HttpResponse.json(
        {
          error: { code: error.code, message, ...(field ? { field } : {}) },
          meta: { request_id: ctx.requestId(), timestamp: iso(ctx.clock.now()) },
        },
        { status: error.status, headers: { ...error.headers, ...NO_STORE } },
      );
    }
  });
}

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * Phone numbers as people type them: spaces, dashes and brackets dropped, `00` read as `+`,
 * and a Ghanaian local number (`0` and 9 digits) given its +233 country code.
 */
function normalizePhone(raw: string): string {
  let phone = raw.replace(/[\s().-]/g, '');
  if (/^00\d+$/.test(phone)) phone = `+${phone.slice(2)}`;
  if (/^0\d{9}$/.test(phone)) phone = `+233${phone.slice(1)}`;
  return phone;
}

const Phone = z.string().max(40).transform(normalizePhone);
const Amount = z.number().positive('must be greater than 0').finite();
const OtpBody = z.object({ phone: Phone });
const VerifyBody = z.object({ phone: Phone, code: z.string().trim().regex(/^\d{6}$/, 'must be the 6 digits of the code') });
const QuoteBody = z.object({ amount: Amount });
const CompleteBody = z.object({
  provider: z.string().max(40),
  phone: Phone,
  otp_code: z.string().trim().max(12).optional(),
  amount: Amount.optional(),
  destination_address: z.string().trim().toUpperCase().max(69).optional(),
});

/** The fee breakdown as the page shows it: what goes in, the two fees, the rate, what comes out. */
function quoteView(q: TransactionQuote) {
  return {
    amount_in: { amount: q.amount_in, currency: q.amount_in_currency },
    platform_fee: {
      amount: q.fees.platform_fee,
      currency: 'GHS',
      bps: q.fees.fee_bps,
      fee_base_bps: q.fees.fee_base_bps,
      fee_markup_bps: q.fees.fee_markup_bps,
    },
    network_fee: { amount: q.fees.network_fee, currency: 'GHS' },
    total_fees: { amount: q.fees.total, currency: 'GHS' },
    /** GHS per USDC. */
    rate: q.rate,
    amount_out: { amount: q.amount_out, currency: q.amount_out_currency },
  };
}

/**
 * The statuses a transaction passed through from `since` to now, in order, ending with the
 * current one. The transition table has one path between two statuses, so the page, which
 * polls, still reports a status that lasted less than a poll. Passed statuses carry the
 * current object with their own status (no `completed_at`, no `message`).
 */
function historySince(ctx: MockContext, tx: TransactionRecord, since: string | null): TransactionView[] {
  const current = transactionView(ctx, tx);
  const table: Readonly<Record<string, Readonly<Record<string, string>>>> = TRANSACTION_MACHINES[tx.kind];
  if (!since || since === tx.status || !Object.hasOwn(table, since)) return [current];
  const passed = (status: string): TransactionView => {
    const { message: _message, ...view } = current as TransactionView & { message?: string };
    return { ...view, status, completed_at: null } as TransactionView;
  };
  const paths: string[][] = [[since]];
  for (let path = paths.shift(); path; path = paths.shift()) {
    const last = path.at(-1)!;
    if (last === tx.status) return [...path.slice(1, -1).map(passed), current];
    for (const next of Object.values(table[last] ?? {})) if (!path.includes(next)) paths.push([...path, next]);
  }
  return [current];
}

export function apiHandlers(ctx: MockContext) {
  const base = `${ctx.urls.interactive}/api`;
  return [
    http.post(
      `${base}/otp`,
      step(ctx, { '*': 'phone' }, async (request, tx) => {
        const { phone } = await readBody(request, OtpBody);
        rateLimit(ctx, `interactive-otp:${tx.id}`, OTP_SENDS_PER_WINDOW, OTP_SEND_WINDOW_SECONDS * 1000);
        return sendInteractiveOtp(ctx, tx, phone);
      }),
    ),
    http.post(
      `${base}/verify`,
      step(ctx, { PHONE_NOT_VERIFIED: 'phone', INVALID_STATE: undefined, '*': 'code' }, async (request, tx) => {
        const { phone, code } = await readBody(request, VerifyBody);
        verifyInteractivePhone(ctx, tx, phone, code);
        return { phone, verified: true };
      }),
    ),
    http.post(
      `${base}/quote`,
      step(ctx, { '*': 'amount' }, async (request, tx) => {
        const { amount } = await readBody(request, QuoteBody);
        const q = quoteForTransaction(ctx, tx, amount);
        if (q.out_of_range) throw new HttpError(422, 'AMOUNT_OUT_OF_RANGE', q.out_of_range);
        return quoteView(q);
      }),
    ),
    http.post(
      `${base}/complete`,
      step(ctx, { AMOUNT_OUT_OF_RANGE: 'amount', PHONE_NOT_VERIFIED: 'code' }, async (request, tx) => {
        // A merchant's transaction is that merchant's order: confirmed as at POST /api/v1/widget/orders,
        // with the key and session the page holds, which must still be good (the page token alone is not).
        const merchant = tx.merchant_id ? await pageCredentials(ctx, tx) : undefined;
        const body = await readBody(request, CompleteBody);
        const input = {
          provider: body.provider,
          phone: body.phone,
          ...(body.otp_code === undefined ? {} : { otp_code: body.otp_code }),
          ...(body.amount === undefined ? {} : { amount: body.amount }),
          ...(body.destination_address === undefined ? {} : { destination_address: body.destination_address }),
        };
        const done = merchant
          ? (await confirmOrder(ctx, merchant.auth, merchant.session, tx, input)).transaction
          : await completeInteractive(ctx, tx, input);
        return { transaction: transactionView(ctx, done) };
      }),
    ),
    http.get(
      `${base}/transaction`,
      step(ctx, {}, async (request, tx) => {
        const history = historySince(ctx, tx, new URL(request.url).searchParams.get('since'));
        return { transaction: history.at(-1), history };
      }),
    ),
  ];
}

/** Creating an interactive transaction and finding it again; the pricing and checks every step shares. */
import type { MockContext } from '../context.js';
import { sha256Hex } from '../crypto.js';
import { badRequest } from '../http/errors.js';
import { DIRECT_FEES, quoteBuy, quoteSell, type FeeTerms, type Quote } from '../pricing.js';
import { priceAtQuote } from '../quotes.js';
import type { StellarMemo, TransactionKind, TransactionRecord } from '../state/anchor.js';
import type { CustomerRecord, MerchantRecord } from '../store.js';
import { checkLimits } from '../volume.js';
import { end } from './orders.js';

/** An unfinished form expires after this long, seconds (design.md section 4). */
export const INCOMPLETE_TTL_SECONDS = 30 * 60;

const PHONE = /^\+\d{7,15}$/;

export interface CreateTransactionInput {
  kind: TransactionKind;
  /** Null for a direct anchor client on the test network. */
  merchant: MerchantRecord | null;
  /** Must be ACCEPTED (the caller checks); null on the test network without a `user_id`. */
  customer: CustomerRecord | null;
  /** The SEP-10 account making the request. */
  account: string;
  /** GHS for a deposit, USDC for a withdrawal; checked against the limits now when given. */
  amount?: number;
  /** Deposit only: where the USDC goes. */
  destination_address?: string;
  /** Withdrawal only: the wallet the USDC is to come from (SEP-24 `from`), when known. */
  source_account?: string;
  /** Deposit only: the memo the USDC payment carries. */
  deposit_memo?: StellarMemo;
  /** Withdrawal only: the memo refunds carry. */
  refund_memo?: StellarMemo;
  /** The SEP-38 quote that prices it (checked by the caller with quoteForRequest). */
  quote_id?: string;
  /** A merchant's session and public key, from the request's merchant fields. */
  merchant_session?: { session_id: string; api_key: string };
  /** Page language, default `en`. */
  lang?: string;
  /** Origins the page may post its status to. */
  embed_origins?: string[];
}

/**
 * Starts an interactive transaction in `incomplete` and returns it with the page's URL
 * (`{interactive_url}?token=…`). The token opens the form until it is finished or the
 * transaction expires (30 minutes of clock time); after a finished form, the status
 * (handlers/interactive). Throws 422
 * AMOUNT_OUT_OF_RANGE for an amount outside the limits.
 */
export async function createTransaction(
  ctx: MockContext,
  input: CreateTransactionInput,
): Promise<{ transaction: TransactionRecord; url: string }> {
  const now = ctx.clock.now();
  const tx: TransactionRecord = {
    id: ctx.random.uuid(),
    kind: input.kind,
    status: 'incomplete',
    merchant_id: input.merchant?.id ?? null,
    customer_id: input.customer?.id ?? null,
    account: input.account,
    asset_code: 'USDC',
    requested_amount: input.amount ?? null,
    destination_address: input.kind === 'deposit' ? (input.destination_address ?? null) : null,
    lang: input.lang ?? 'en',
    embed_origins: input.embed_origins ?? [],
    token_hash: null,
    quote: null,
    quote_id: input.quote_id ?? null,
    merchant_session: input.merchant_session ?? null,
    provider: null,
    phone: null,
    verified_phone: null,
    withdraw_anchor_account: null,
    withdraw_memo: null,
    source_account: input.kind === 'withdrawal' ? (input.source_account ?? null) : null,
    ...(input.deposit_memo ? { deposit_memo: input.deposit_memo } : {}),
    ...(input.refund_memo ? { refund_memo: input.refund_memo } : {}),
    collection_id: null,
    payout_id: null,
    payout_attempts: 0,
    refunds: [],
    stellar_transaction_id: null,
    external_transaction_id: null,
    message: null,
    order_id: null,
    started_at: now,
    updated_at: now,
    completed_at: null,
  };
  if (input.amount !== undefined) {
    const quote = priceFor(ctx, tx, checkAmount(input.amount));
    checkLimits(ctx, limitTerms(ctx, tx), { fiat: quote.fiat_amount, crypto: quote.crypto_amount });
  }
  const token = ctx.secrets.hex(24);
  tx.token_hash = await sha256Hex(token);
  ctx.store.anchor.transactions.set(tx.id, tx);
  ctx.store.anchor.tokens.set(tx.token_hash, tx.id);
  ctx.clock.schedule(now + INCOMPLETE_TTL_SECONDS * 1000, () => {
    const t = ctx.store.anchor.transactions.get(tx.id);
    if (t?.status === 'incomplete') end(ctx, t, 'expire', `The interactive form was not finished within ${INCOMPLETE_TTL_SECONDS / 60} minutes.`);
  });
  return { transaction: tx, url: `${ctx.urls.interactive}?token=${token}` };
}

/** The transaction with this id, or undefined. */
export function findTransaction(ctx: MockContext, id: string): TransactionRecord | undefined {
  return ctx.store.anchor.transactions.get(id);
}

/**
 * The transaction an interactive page token opens. An unknown token, or one already used
 * (the form was finished) or expired (the transaction expired), gives undefined.
 */
export async function findTransactionByToken(ctx: MockContext, token: string): Promise<TransactionRecord | undefined> {
  if (!token) return undefined;
  const id = ctx.store.anchor.tokens.get(await sha256Hex(token));
  const tx = id ? ctx.store.anchor.transactions.get(id) : undefined;
  return tx?.status === 'incomplete' ? tx : undefined;
}

export function feeTerms(ctx: MockContext, tx: TransactionRecord): FeeTerms {
  return (tx.merchant_id ? ctx.store.merchants.get(tx.merchant_id) : undefined) ?? DIRECT_FEES;
}

/** A direct client has the starter limits per transaction and no volume count. */
export function limitTerms(ctx: MockContext, tx: TransactionRecord): Pick<MerchantRecord, 'limits' | 'daily_volume'> {
  return (tx.merchant_id ? ctx.store.merchants.get(tx.merchant_id) : undefined) ?? { limits: ctx.options.limits, daily_volume: {} };
}

export function priceFor(ctx: MockContext, tx: TransactionRecord, amount: number): Quote {
  const quoted = priceAtQuote(ctx, tx, amount);
  if (quoted) return quoted;
  const terms = feeTerms(ctx, tx);
  return tx.kind === 'deposit' ? quoteBuy(ctx, terms, amount) : quoteSell(ctx, terms, amount);
}

export function checkAmount(amount: number): number {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) throw badRequest('amount: must be a positive number');
  return amount;
}

export function checkPhone(phone: string): string {
  const number = typeof phone === 'string' ? phone.replace(/[\s-]/g, '') : '';
  if (!PHONE.test(number)) throw badRequest('phone: must be a number with country code, e.g. +233201234567');
  return number;
}

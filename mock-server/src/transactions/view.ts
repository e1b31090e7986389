/** What a transaction looks like from outside: SEP-24's transaction object and the page's fee breakdown. */
import { iso } from '../clock.js';
import type { MockContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { toStroops } from '../ledger.js';
import type { Quote } from '../pricing.js';
import { usdcAsset } from '../quotes.js';
import type { TransactionKind, TransactionRecord } from '../state/anchor.js';
import { checkLimits, MIN_CRYPTO_USDC, MIN_FIAT_GHS } from '../volume.js';
import { checkAmount, feeTerms, INCOMPLETE_TTL_SECONDS, limitTerms, priceFor } from './create.js';
import { TRANSFER_WINDOW_SECONDS } from './withdraw.js';

const GHS_ASSET = 'iso4217:GHS';

/** The page that shows a transaction's status (SEP-24 `more_info_url`), served by handlers/interactive. */
export const moreInfoUrl = (ctx: MockContext, tx: TransactionRecord) =>
  `${ctx.urls.interactive}/transaction?id=${encodeURIComponent(tx.id)}`;

/** SEP-24's transaction object, as GET /transaction answers it inside `{transaction}` and the page posts it. */
export function transactionView(ctx: MockContext, tx: TransactionRecord) {
  const q = tx.quote;
  const deposit = tx.kind === 'deposit';
  const amount = (value: number | undefined) => (value === undefined ? null : value.toFixed(2));
  return {
    id: tx.id,
    kind: tx.kind,
    status: tx.status,
    more_info_url: moreInfoUrl(ctx, tx),
    amount_in: amount(deposit ? q?.fiat_amount : q?.crypto_amount),
    amount_in_asset: deposit ? GHS_ASSET : usdcAsset(ctx),
    amount_out: amount(deposit ? q?.crypto_amount : q?.fiat_amount),
    amount_out_asset: deposit ? usdcAsset(ctx) : GHS_ASSET,
    // Fees are charged in cedis on both sides, so the fee asset is named (SEP-24 amount_fee_asset).
    amount_fee: amount(q?.fees.total),
    amount_fee_asset: GHS_ASSET,
    ...(tx.quote_id ? { quote_id: tx.quote_id } : {}),
    ...(q ? { fee_details: feeDetails(q) } : {}),
    started_at: iso(tx.started_at),
    updated_at: iso(tx.updated_at),
    completed_at: tx.completed_at === null ? null : iso(tx.completed_at),
    stellar_transaction_id: tx.stellar_transaction_id,
    external_transaction_id: tx.external_transaction_id,
    ...refundsView(tx),
    // SEP-24: a deposit comes from the Mobile Money number and goes to the Stellar account; a
    // withdrawal comes from the Stellar account and goes to the Mobile Money number.
    ...userActionRequiredBy(tx),
    ...(deposit
      ? { from: tx.phone, to: tx.destination_address, ...(tx.deposit_memo ? { deposit_memo: tx.deposit_memo.value, deposit_memo_type: tx.deposit_memo.type } : {}) }
      : {
          from: tx.source_account,
          to: tx.phone,
          withdraw_anchor_account: tx.withdraw_anchor_account,
          withdraw_memo: tx.withdraw_memo,
          withdraw_memo_type: 'id' as const,
        }),
    ...(tx.message === null ? {} : { message: tx.message }),
  };
}

export type TransactionView = ReturnType<typeof transactionView>;

/**
 * SEP-24's `user_action_required_by`, only while the anchor waits on the customer with a
 * deadline: the form (`incomplete` expires 30 minutes after the start) and a withdrawal's USDC
 * (`pending_user_transfer_start` expires 30 minutes after the form was finished).
 */
function userActionRequiredBy(tx: TransactionRecord) {
  if (tx.status === 'incomplete') return { user_action_required_by: iso(tx.started_at + INCOMPLETE_TTL_SECONDS * 1000) };
  if (tx.status === 'pending_user_transfer_start' && tx.kind === 'withdrawal') {
    return { user_action_required_by: iso(tx.updated_at + TRANSFER_WINDOW_SECONDS * 1000) };
  }
  return {};
}

/** SEP-24's `fee_details`: the total in cedis and its `breakdown` (SEP-38's `fee` calls it `details`); the spread is in the rate, not a fee. */
function feeDetails(q: Quote) {
  return {
    total: q.fees.total.toFixed(2),
    asset: GHS_ASSET,
    breakdown: [
      { name: 'Platform fee', amount: q.fees.platform_fee.toFixed(2), description: `${(q.fees.fee_bps / 100).toFixed(2)} % of the amount` },
      { name: 'Stellar network fee', amount: q.fees.network_fee.toFixed(2) },
    ],
  };
}

/**
 * SEP-24's `refunded` and `refunds`, in USDC (a withdrawal's `amount_in_asset`). `refunded`
 * is true once the transaction ended without a payout and everything it received is back in
 * the sender's wallet (confirmed); `refunds` lists each payment back as soon as it is sent,
 * and is absent while there is none. Refunds are in full: no fee.
 */
function refundsView(tx: TransactionRecord) {
  const refunded = (tx.status === 'error' || tx.status === 'expired') && tx.refunds.length > 0 && tx.refunds.every((r) => r.status === 'completed');
  if (tx.refunds.length === 0) return { refunded };
  const total = tx.refunds.reduce((sum, r) => sum + toStroops(r.amount), 0);
  return {
    refunded,
    refunds: {
      amount_refunded: usdcAmount(total),
      amount_fee: '0.00',
      payments: tx.refunds.map((r) => ({ id: r.stellar_transaction_id, id_type: 'stellar' as const, amount: usdcAmount(toStroops(r.amount)), fee: '0.00' })),
    },
  };
}

/** A USDC amount as the transaction shows amounts: 2 places, or as many as it takes (up to 7). */
function usdcAmount(stroops: number): string {
  return stroops % 100_000 === 0 ? (stroops / 1e7).toFixed(2) : (stroops / 1e7).toFixed(7).replace(/0+$/, '');
}

/** The fee breakdown the page shows before confirmation. Amounts in GHS unless named. */
export interface TransactionQuote {
  kind: TransactionKind;
  /** What the customer pays in: GHS (deposit) or USDC (withdrawal). */
  amount_in: number;
  amount_in_currency: 'GHS' | 'USDC';
  /** What the customer gets: USDC (deposit) or GHS (withdrawal). */
  amount_out: number;
  amount_out_currency: 'USDC' | 'GHS';
  /** GHS per USDC, the spread included. */
  rate: number;
  fees: {
    fee_base_bps: number;
    fee_markup_bps: number;
    /** fee_base_bps + fee_markup_bps (100 bps = 1 %). */
    fee_bps: number;
    /** The platform fee, GHS. */
    platform_fee: number;
    /** The Stellar network fee, GHS. */
    network_fee: number;
    /** Sum of the fees, GHS. */
    total: number;
  };
  limits: {
    /** GHS. */
    min_fiat: number;
    /** USDC. */
    min_crypto: number;
    /** The merchant's maximum per transaction, GHS. */
    max_fiat: number;
  };
  /** Why this amount cannot be confirmed (below a minimum, above a limit), or null. */
  out_of_range: string | null;
}

/**
 * Prices `amount` (GHS for a deposit, USDC for a withdrawal) for this transaction with its
 * merchant's fees, without changing anything. A non-positive amount is 400 VALIDATION_ERROR;
 * an amount outside the limits is reported in `out_of_range`, not thrown.
 */
export function quoteForTransaction(ctx: MockContext, tx: TransactionRecord, amount: number): TransactionQuote {
  const q = priceFor(ctx, tx, checkAmount(amount));
  const terms = feeTerms(ctx, tx);
  const limits = limitTerms(ctx, tx);
  let out_of_range: string | null = null;
  try {
    checkLimits(ctx, limits, { fiat: q.fiat_amount, crypto: q.crypto_amount });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    out_of_range = error.message;
  }
  const deposit = tx.kind === 'deposit';
  return {
    kind: tx.kind,
    amount_in: deposit ? q.fiat_amount : q.crypto_amount,
    amount_in_currency: deposit ? 'GHS' : 'USDC',
    amount_out: deposit ? q.crypto_amount : q.fiat_amount,
    amount_out_currency: deposit ? 'USDC' : 'GHS',
    rate: q.rate,
    fees: { fee_base_bps: terms.fee_base_bps, fee_markup_bps: terms.fee_markup_bps, ...q.fees },
    limits: { min_fiat: MIN_FIAT_GHS, min_crypto: MIN_CRYPTO_USDC, max_fiat: limits.limits.maxPerTransaction },
    out_of_range,
  };
}

/**
 * The amounts the page lets a customer enter, in what they enter (GHS for a buy, USDC for a
 * sell). The limits themselves (10 GHS and 1 USDC minimum, the merchant's maximum per
 * transaction, GHS) apply to both sides of the price, so the page converts them through the
 * transaction's own quote: buying 10 GHS gives less than 1 USDC, so the buy minimum is the
 * smallest amount that gives 1 USDC.
 */
import type { MockContext } from '../../context.js';
import type { TransactionRecord } from '../../state/anchor.js';
import { quoteForTransaction } from '../../transactions/view.js';

export interface AmountRange {
  /** Smallest amount allowed, in `currency`. */
  min: number;
  /** Largest amount the per-transaction limit allows, in `currency` (daily and monthly volume are checked on confirmation). */
  max: number;
  currency: 'GHS' | 'USDC';
}

/** The first whole number of cents in [lo, hi] where `pred` (false, then true) holds; hi + 1 if none. */
function firstTrue(lo: number, hi: number, pred: (cents: number) => boolean): number {
  let [a, b] = [lo, hi + 1];
  while (a < b) {
    const mid = Math.floor((a + b) / 2);
    if (pred(mid)) b = mid;
    else a = mid + 1;
  }
  return a;
}

/** The smallest and largest amount the page accepts for this transaction, in the currency the customer enters. */
export function amountRange(ctx: MockContext, tx: TransactionRecord): AmountRange {
  const deposit = tx.kind === 'deposit';
  const quote = (cents: number) => quoteForTransaction(ctx, tx, cents / 100);
  const { limits, rate } = quote(100);
  const sides = (cents: number) => {
    const q = quote(cents);
    return deposit ? { fiat: q.amount_in, crypto: q.amount_out } : { fiat: q.amount_out, crypto: q.amount_in };
  };
  const start = Math.round((deposit ? limits.min_fiat : limits.min_crypto) * 100);
  // Above this many cents of the input the fiat side is past the maximum in any case.
  const top = Math.ceil((deposit ? limits.max_fiat : (limits.max_fiat / rate) * 2) * 100) + 1;
  const min = firstTrue(start, top, (c) => {
    const s = sides(c);
    return s.fiat >= limits.min_fiat && s.crypto >= limits.min_crypto;
  });
  const max = firstTrue(start, top, (c) => sides(c).fiat > limits.max_fiat) - 1;
  return { min: min / 100, max: max / 100, currency: deposit ? 'GHS' : 'USDC' };
}

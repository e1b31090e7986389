/**
 * Transaction limits and volume, shared by interactive transactions and ramp orders.
 * Minimums are the ramp document's (10 GHS, 1 USDC); the maximum per transaction, the daily
 * and the monthly volume are the merchant's (`limits`, starter tier by default). Volume is
 * counted in GHS when a transaction completes, exactly once (the caller's transition
 * table guarantees a single completion).
 */
import type { MockContext } from './context.js';
import { HttpError } from './http/errors.js';
import type { MerchantRecord } from './store.js';

export const MIN_FIAT_GHS = 10;
export const MIN_CRYPTO_USDC = 1;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const outOfRange = (message: string) => new HttpError(422, 'AMOUNT_OUT_OF_RANGE', message);

/** Completed volume of the merchant's current UTC month, GHS. */
export function monthVolume(merchant: Pick<MerchantRecord, 'daily_volume'>, now: number): number {
  const month = day(now).slice(0, 7);
  return Object.entries(merchant.daily_volume)
    .filter(([d]) => d.startsWith(month))
    .reduce((sum, [, v]) => sum + v, 0);
}

/** Refuses an amount outside the limits with 422 AMOUNT_OUT_OF_RANGE naming the limit. */
export function checkLimits(ctx: MockContext, merchant: Pick<MerchantRecord, 'limits' | 'daily_volume'>, amounts: { fiat: number; crypto: number }): void {
  const { limits } = merchant;
  const now = ctx.clock.now();
  if (amounts.fiat < MIN_FIAT_GHS) throw outOfRange(`fiat amount is below the minimum of ${MIN_FIAT_GHS} GHS`);
  if (amounts.crypto < MIN_CRYPTO_USDC) throw outOfRange(`crypto amount is below the minimum of ${MIN_CRYPTO_USDC} USDC`);
  if (amounts.fiat > limits.maxPerTransaction) {
    throw outOfRange(`fiat amount is above the maximum of ${limits.maxPerTransaction} GHS per transaction`);
  }
  if ((merchant.daily_volume[day(now)] ?? 0) + amounts.fiat > limits.daily) {
    throw outOfRange(`the daily volume limit of ${limits.daily} GHS would be exceeded`);
  }
  if (monthVolume(merchant, now) + amounts.fiat > limits.monthly) {
    throw outOfRange(`the monthly volume limit of ${limits.monthly} GHS would be exceeded`);
  }
}

/** Adds a completed transaction's GHS to the day's and the month's volume. */
export function addVolume(ctx: MockContext, merchant: MerchantRecord, fiat: number): void {
  const now = ctx.clock.now();
  const key = day(now);
  merchant.daily_volume[key] = Math.round(((merchant.daily_volume[key] ?? 0) + fiat) * 100) / 100;
  merchant.current_month_volume = Math.round(monthVolume(merchant, now) * 100) / 100;
}

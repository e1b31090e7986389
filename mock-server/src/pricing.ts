/**
 * Quotes for buying and selling USDC, shared by interactive transactions and ramp orders:
 * the platform fee is `fee_base_bps + fee_markup_bps` of the fiat amount (100 bps = 1 %),
 * plus a Stellar network fee, and the exchange spread is built into the quoted rate
 * (000 section 1). Amounts are GHS and USDC rounded to 2 places, always in the service's favour.
 */
import type { MockContext } from './context.js';
import type { MerchantRecord } from './store.js';
import type { Quote } from './types.js';

export type { Quote } from './types.js';

/** Spread around the mid rate, as a fraction: customers buy above it and sell below it. */
export const SPREAD = 0.01;
/** Stellar network fee charged per transaction, USDC. */
export const NETWORK_FEE_USDC = 0.01;


/** What a quote needs of a merchant: its fee terms. */
export type FeeTerms = Pick<MerchantRecord, 'fee_base_bps' | 'fee_markup_bps'>;

/** Fees of a direct anchor client that is no merchant's (test network only): the starter tier's. */
export const DIRECT_FEES: FeeTerms = { fee_base_bps: 100, fee_markup_bps: 0 };

const cents = (n: number) => Math.round(n * 100) / 100;
const floor2 = (n: number) => Math.floor(n * 100 + 1e-9) / 100;
const ceil2 = (n: number) => Math.ceil(n * 100 - 1e-9) / 100;

function feesFor(merchant: FeeTerms, fiat: number, rate: number) {
  const fee_bps = merchant.fee_base_bps + merchant.fee_markup_bps;
  const platform_fee = ceil2((fiat * fee_bps) / 10_000);
  const network_fee = ceil2(NETWORK_FEE_USDC * rate);
  return { platform_fee, network_fee, total: cents(platform_fee + network_fee), fee_bps };
}

/** Buying: the customer pays `fiat_amount` GHS; fees come out of it, the rest buys USDC. */
export function quoteBuy(ctx: MockContext, merchant: FeeTerms, fiat_amount: number): Quote {
  const rate = cents(ctx.options.exchangeRate * (1 + SPREAD));
  const fees = feesFor(merchant, fiat_amount, rate);
  const crypto_amount = Math.max(0, floor2((fiat_amount - fees.total) / rate));
  return { direction: 'buy', rate, fiat_amount: cents(fiat_amount), crypto_amount, fees };
}

/** Buying `crypto_amount` USDC: the least whole cedis-and-pesewas that pay for it and the fees. */
export function quoteBuyForCrypto(ctx: MockContext, merchant: FeeTerms, crypto_amount: number): Quote {
  const rate = cents(ctx.options.exchangeRate * (1 + SPREAD));
  const fee_bps = merchant.fee_base_bps + merchant.fee_markup_bps;
  // fiat - ceil(fiat * bps) - network = crypto * rate  =>  fiat ≈ (crypto * rate + network) / (1 - bps)
  const network = ceil2(NETWORK_FEE_USDC * rate);
  let fiat = ceil2((crypto_amount * rate + network) / (1 - fee_bps / 10_000));
  // Rounding may leave a pesewa short; each one more buys under a hundredth of a USDC.
  while (quoteBuy(ctx, merchant, fiat).crypto_amount < cents(crypto_amount)) fiat = cents(fiat + 0.01);
  return quoteBuy(ctx, merchant, fiat);
}

/** Selling `crypto_amount` USDC: it converts at the rate, fees come out of the GHS paid out. */
export function quoteSell(ctx: MockContext, merchant: FeeTerms, crypto_amount: number): Quote {
  const rate = cents(ctx.options.exchangeRate * (1 - SPREAD));
  const gross = crypto_amount * rate;
  const fees = feesFor(merchant, gross, rate);
  return { direction: 'sell', rate, fiat_amount: Math.max(0, floor2(gross - fees.total)), crypto_amount: cents(crypto_amount), fees };
}

/** Selling for a GHS payout of `fiat_amount`: the USDC needed to cover it and the fees. */
export function quoteSellForFiat(ctx: MockContext, merchant: FeeTerms, fiat_amount: number): Quote {
  const rate = cents(ctx.options.exchangeRate * (1 - SPREAD));
  const fee_bps = merchant.fee_base_bps + merchant.fee_markup_bps;
  // gross - ceil(gross * bps) - network = fiat  =>  gross ≈ (fiat + network) / (1 - bps)
  const network = ceil2(NETWORK_FEE_USDC * rate);
  const crypto_amount = ceil2((fiat_amount + network) / (1 - fee_bps / 10_000) / rate);
  const quote = quoteSell(ctx, merchant, crypto_amount);
  return { ...quote, fiat_amount: cents(fiat_amount) };
}

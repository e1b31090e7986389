/**
 * SEP-38 quotes for buying and selling USDC with Ghana cedis, priced by ./pricing.ts: the
 * anchor's `ANCHOR_QUOTE_SERVER` (handlers/anchor/sep38.ts) answers indicative prices and
 * firm quotes, and an interactive transaction started with a `quote_id` is priced at its
 * quote (SEP-24: "the Anchor must respect the conversion rate agreed in that quote").
 *
 * A firm quote belongs to the SEP-10 account that asked for it, lives the rate lifetime
 * (`rateLifetimeSeconds`, 5 minutes by default) of clock time, prices one transaction, and
 * stays readable after it expires (SEP-38 `GET /quote/:id`). Fees are those of the merchant
 * whose public key the request names in `api_key`, else the starter fees of a direct client.
 *
 * SEP-38 shapes, for GHS -> USDC (deposit): the fee is in the sell asset, so
 * `sell_amount - fee = price * buy_amount`; for USDC -> GHS (withdrawal) it is in the buy
 * asset, so `sell_amount = price * (buy_amount + fee)`. Both: `sell_amount = total_price * buy_amount`.
 */
import { iso } from './clock.js';
import type { MockContext } from './context.js';
import { findKey } from './http/auth.js';
import { badRequest, HttpError, notFound } from './http/errors.js';
import { DIRECT_FEES, quoteBuy, quoteBuyForCrypto, quoteSell, quoteSellForFiat, type FeeTerms, type Quote } from './pricing.js';
import type { MerchantRecord } from './store.js';
import type { TransactionKind, TransactionRecord } from './state/anchor.js';
import type { QuoteRecord } from './types.js';

export type { QuoteRecord } from './types.js';
import { checkLimits } from './volume.js';

/** Circle's USDC issuer on each Stellar network. */
export const USDC_ISSUER = {
  testnet: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5',
  public: 'GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN',
} as const;

/** SEP-38 asset identifier of USDC on the mock's network. */
export const usdcAsset = (ctx: MockContext) => `stellar:USDC:${USDC_ISSUER[ctx.options.network]}`;
/** SEP-38 identifier of the Ghana cedi. */
export const GHS_ASSET = 'iso4217:GHS';
/** The one way cedis move, in and out: SEP-38 `sell_delivery_methods` and `buy_delivery_methods`. */
export const DELIVERY_METHOD = 'mobile_money';
/** The country the anchor pays and collects in (ISO 3166-1 alpha-2, and the alpha-3 SEP-38 examples use). */
export const COUNTRY_CODES = ['GH', 'GHA'];
/** What a quote can be used for: this anchor offers SEP-24 only. */
export const QUOTE_CONTEXT = 'sep24';


/** What a price or a quote is asked for (SEP-38 `GET /price` and `POST /quote`), amounts already numbers. */
export interface PriceRequest {
  sell_asset: string;
  buy_asset: string;
  sell_amount?: number | undefined;
  buy_amount?: number | undefined;
  /** A merchant's public key: its fees price the answer. */
  api_key?: string | undefined;
}

/** The transaction kind of an asset pair; 400 for any other pair. */
export function kindOfPair(ctx: MockContext, sell: string, buy: string): TransactionKind {
  const usdc = usdcAsset(ctx);
  if (sell === GHS_ASSET && buy === usdc) return 'deposit';
  if (sell === usdc && buy === GHS_ASSET) return 'withdrawal';
  throw badRequest(`the pair ${sell} -> ${buy} is not offered; see GET /prices with sell_asset ${GHS_ASSET} or ${usdc}`);
}

/** The indicative price of one unit of `buy` in `sell`, spread included and fees not (SEP-38 `price`). */
export function unitPrice(ctx: MockContext, kind: TransactionKind): number {
  // Any amount gives the same rate: fees do not enter `price`.
  return kind === 'deposit' ? quoteBuy(ctx, DIRECT_FEES, 100).rate : 1 / quoteSell(ctx, DIRECT_FEES, 100).rate;
}

async function feeTermsOf(ctx: MockContext, apiKey: string | undefined): Promise<{ merchant: MerchantRecord | null; terms: FeeTerms }> {
  if (apiKey === undefined) return { merchant: null, terms: DIRECT_FEES };
  const auth = await findKey(ctx, apiKey);
  if (!auth || auth.key.key_type !== 'public') throw badRequest('api_key: not an active public key');
  return { merchant: auth.merchant, terms: auth.merchant };
}

/**
 * Prices a request with exactly one of `sell_amount` and `buy_amount`. Amounts outside the
 * limits of one transaction (minimums, the merchant's maximum) are 400: SEP-38 has no other status.
 */
export async function priceRequest(ctx: MockContext, req: PriceRequest): Promise<{ kind: TransactionKind; price: Quote; merchant: MerchantRecord | null }> {
  const kind = kindOfPair(ctx, req.sell_asset, req.buy_asset);
  if ((req.sell_amount === undefined) === (req.buy_amount === undefined)) throw badRequest('send either sell_amount or buy_amount, not both');
  const { merchant, terms } = await feeTermsOf(ctx, req.api_key);
  const price =
    kind === 'deposit'
      ? req.sell_amount !== undefined
        ? quoteBuy(ctx, terms, req.sell_amount)
        : quoteBuyForCrypto(ctx, terms, req.buy_amount!)
      : req.sell_amount !== undefined
        ? quoteSell(ctx, terms, req.sell_amount)
        : quoteSellForFiat(ctx, terms, req.buy_amount!);
  try {
    // Volume is counted when a transaction is confirmed; a price only has to fit one transaction.
    checkLimits(ctx, { limits: merchant?.limits ?? ctx.options.limits, daily_volume: {} }, { fiat: price.fiat_amount, crypto: price.crypto_amount });
  } catch (error) {
    if (error instanceof HttpError) throw badRequest(error.message);
    throw error;
  }
  return { kind, price, merchant };
}

/** Makes a firm quote for the SEP-10 client `account`, expiring after the rate lifetime (400 when `expire_after` is later). */
export async function createQuote(
  ctx: MockContext,
  account: string,
  req: PriceRequest & { expire_after?: string | undefined; sell_delivery_method?: string | undefined; buy_delivery_method?: string | undefined },
): Promise<QuoteRecord> {
  const { kind, price, merchant } = await priceRequest(ctx, req);
  const now = ctx.clock.now();
  const expiresAt = now + ctx.options.rateLifetimeSeconds * 1000;
  if (req.expire_after !== undefined && Date.parse(req.expire_after) > expiresAt) {
    throw badRequest(`expire_after: quotes live ${ctx.options.rateLifetimeSeconds} seconds; the latest expiry now is ${iso(expiresAt)}`);
  }
  const quote: QuoteRecord = {
    id: ctx.random.uuid(),
    account,
    merchant_id: merchant?.id ?? null,
    kind,
    price,
    created_at: now,
    expires_at: expiresAt,
    ...(req.sell_delivery_method ? { sell_delivery_method: req.sell_delivery_method } : {}),
    ...(req.buy_delivery_method ? { buy_delivery_method: req.buy_delivery_method } : {}),
  };
  ctx.store.anchor.quotes.set(quote.id, quote);
  return quote;
}

/** The client's own quote; 404 for an unknown one or another client's (alike, so ids reveal nothing). */
export function findQuote(ctx: MockContext, id: string, account: string): QuoteRecord {
  const quote = ctx.store.anchor.quotes.get(id);
  if (!quote || quote.account !== account) throw notFound('quote');
  return quote;
}

const isExpired = (ctx: MockContext, quote: QuoteRecord) => ctx.clock.now() >= quote.expires_at;

/** A decimal string with 2 to 7 places: SEP-38 prices carry what their assets need. */
export function decimal(n: number): string {
  const fixed = n.toFixed(7).replace(/0+$/, '');
  const places = fixed.length - fixed.indexOf('.') - 1;
  return places < 2 ? n.toFixed(2) : fixed;
}

/** The SEP-38 amounts, prices and fee of a price, as `GET /price` answers them. */
export function priceView(ctx: MockContext, kind: TransactionKind, q: Quote) {
  const deposit = kind === 'deposit';
  const sell = deposit ? q.fiat_amount : q.crypto_amount;
  const buy = deposit ? q.crypto_amount : q.fiat_amount;
  return {
    total_price: decimal(sell / buy),
    price: decimal(deposit ? q.rate : 1 / q.rate),
    sell_amount: sell.toFixed(2),
    buy_amount: buy.toFixed(2),
    fee: {
      total: q.fees.total.toFixed(2),
      // Fees are charged in cedis both ways: from what is sold on a buy, from what is bought on a sell.
      asset: GHS_ASSET,
      details: [
        { name: 'Platform fee', description: `${q.fees.fee_bps / 100} % of the cedi amount`, amount: q.fees.platform_fee.toFixed(2) },
        { name: 'Stellar network fee', description: 'The cost of the Stellar payment', amount: q.fees.network_fee.toFixed(2) },
      ],
    },
  };
}

/** The SEP-38 quote object of `POST /quote` and `GET /quote/:id`. */
export function quoteView(ctx: MockContext, quote: QuoteRecord) {
  const { total_price, price, sell_amount, buy_amount, fee } = priceView(ctx, quote.kind, quote.price);
  const deposit = quote.kind === 'deposit';
  return {
    id: quote.id,
    expires_at: iso(quote.expires_at),
    total_price,
    price,
    sell_asset: deposit ? GHS_ASSET : usdcAsset(ctx),
    sell_amount,
    buy_asset: deposit ? usdcAsset(ctx) : GHS_ASSET,
    buy_amount,
    // SEP-38: present only when the request named them.
    ...(quote.sell_delivery_method ? { sell_delivery_method: quote.sell_delivery_method } : {}),
    ...(quote.buy_delivery_method ? { buy_delivery_method: quote.buy_delivery_method } : {}),
    fee,
  };
}

/** The amount a SEP-24 request carries for the quote: what is sold (GHS on a deposit, USDC on a withdrawal). */
export const quoteSellAmount = (quote: QuoteRecord) => (quote.kind === 'deposit' ? quote.price.fiat_amount : quote.price.crypto_amount);

/**
 * The quote a SEP-24 deposit or withdrawal names in `quote_id`, checked as SEP-24 asks: the
 * client's own, unexpired and unused quote for this direction, whose assets and sell amount
 * the request's `asset_code`, `source_asset` (deposit), `destination_asset` (withdrawal) and
 * `amount` match when it sends them. 400 otherwise.
 */
export function quoteForRequest(
  ctx: MockContext,
  kind: TransactionKind,
  account: string,
  quoteId: string,
  fields: Record<string, unknown>,
): QuoteRecord {
  const quote = ctx.store.anchor.quotes.get(quoteId);
  if (!quote || quote.account !== account) throw badRequest('quote_id: unknown quote; ask for one at POST /quote');
  if (isExpired(ctx, quote)) throw badRequest(`quote_id: the quote expired at ${iso(quote.expires_at)}; request a new one`);
  if (quote.kind !== kind) {
    throw badRequest(`quote_id: the quote sells ${kind === 'deposit' ? 'USDC for GHS; use it for a withdrawal' : 'GHS for USDC; use it for a deposit'}`);
  }
  const view = quoteView(ctx, quote);
  const other = kind === 'deposit' ? ['source_asset', view.sell_asset] : ['destination_asset', view.buy_asset];
  if (fields[other[0]!] !== undefined && fields[other[0]!] !== other[1]) throw badRequest(`${other[0]}: must be the quote's ${other[1]}`);
  if (fields.amount !== undefined && Number(fields.amount) !== quoteSellAmount(quote)) {
    throw badRequest(`amount: must be the quote's sell_amount ${view.sell_amount}, or be left out`);
  }
  for (const tx of ctx.store.anchor.transactions.values()) {
    if (tx.quote_id === quote.id) throw badRequest('quote_id: the quote already priced another transaction; request a new one');
  }
  return quote;
}

/**
 * The price of a transaction started with a quote, for `amount` (its sell amount): the
 * quote's, as long as it has not expired (422 QUOTE_EXPIRED, the widget backend's code) and
 * was priced with the transaction's merchant's fees (400 otherwise). Undefined without a quote.
 */
export function priceAtQuote(ctx: MockContext, tx: TransactionRecord, amount: number): Quote | undefined {
  const quote = tx.quote_id ? ctx.store.anchor.quotes.get(tx.quote_id) : undefined;
  if (!quote) return undefined;
  if (quote.merchant_id !== tx.merchant_id) {
    throw badRequest(`quote_id: priced with ${quote.merchant_id ? "another merchant's" : "a direct client's"} fees; ask for the quote with this merchant's api_key`);
  }
  if (isExpired(ctx, quote)) throw new HttpError(422, 'QUOTE_EXPIRED', `quote expired at ${iso(quote.expires_at)}; request a new one`);
  if (amount !== quoteSellAmount(quote)) throw badRequest(`amount: the quote is for ${quoteSellAmount(quote).toFixed(2)} ${quote.kind === 'deposit' ? 'GHS' : 'USDC'}`);
  return quote.price;
}

/** What the interactive page says of a transaction's quote: the guaranteed rate and until when. */
export function guaranteedRate(ctx: MockContext, tx: TransactionRecord): { rate: number; expires_at: string } | null {
  const quote = tx.quote_id ? ctx.store.anchor.quotes.get(tx.quote_id) : undefined;
  return quote ? { rate: quote.price.rate, expires_at: iso(quote.expires_at) } : null;
}

/**
 * SEP-38 quotes (Anchor RFQ API v2) at the anchor's `ANCHOR_QUOTE_SERVER`: indicative prices
 * without a token, firm quotes with the SEP-10 token. A quote's `id` goes into a SEP-24
 * deposit or withdrawal as `quote_id`, which the anchor then prices at the quote until `expires_at`.
 */
import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource, segment } from '../../core/resource.js';
import { parseInput, pathSegment, responseObject, stellarAmount, text } from '../../core/schema.js';

/** A SEP-38 asset: `iso4217:<code>` or `stellar:<code>:<issuer>`, e.g. `iso4217:GHS`, `stellar:USDC:G…`. */
const AssetSchema = z
  .string()
  .regex(/^(iso4217:[A-Z]{3}|stellar:[A-Za-z0-9]{1,12}:G[A-Z2-7]{55})$/, 'must be a SEP-38 asset such as iso4217:GHS or stellar:USDC:G…');


const priceFields = {
  sell_asset: AssetSchema,
  buy_asset: AssetSchema,
  /** What is sold; give this or `buy_amount`, not both. */
  sell_amount: stellarAmount.optional(),
  /** What is bought; give this or `sell_amount`, not both. */
  buy_amount: stellarAmount.optional(),
  /** A `name` of the sold asset's `sell_delivery_methods` in {@link AnchorQuotes.info}, e.g. `mobile_money`. */
  sell_delivery_method: text(40).optional(),
  /** A `name` of the bought asset's `buy_delivery_methods`. */
  buy_delivery_method: text(40).optional(),
  /** ISO 3166-1 alpha-2 (or ISO 3166-2) code of the customer's country, e.g. `GH`. */
  country_code: text(6).optional(),
  /** What the quote is for; the anchor offers SEP-24, the default. */
  context: z.enum(['sep6', 'sep24', 'sep31']).default('sep24'),
  /** The merchant's public key: the price carries its fees, and only its transactions take the quote. */
  api_key: text(200).optional(),
};
const oneAmount = (p: { sell_amount?: string | undefined; buy_amount?: string | undefined }) => (p.sell_amount === undefined) !== (p.buy_amount === undefined);
const ONE_AMOUNT = { error: 'give either sell_amount or buy_amount, not both', path: ['sell_amount'] };

export const QuotePriceParamsSchema = z.strictObject(priceFields).refine(oneAmount, ONE_AMOUNT);
export type QuotePriceParams = z.input<typeof QuotePriceParamsSchema>;

export const QuoteCreateParamsSchema = z
  .strictObject({
    ...priceFields,
    /** ISO 8601: the latest `expires_at` you need; the anchor refuses (400) when it cannot keep the quote that long. */
    expire_after: z.iso.datetime({ offset: true }).optional(),
  })
  .refine(oneAmount, ONE_AMOUNT);
export type QuoteCreateParams = z.input<typeof QuoteCreateParamsSchema>;

/** `GET /prices`: what `sell_asset` buys, or (SEP-38 v2) what buys `buy_asset`; each side's amount only with its asset. */
export const QuotePricesParamsSchema = z
  .strictObject({
    sell_asset: AssetSchema.optional(),
    sell_amount: stellarAmount.optional(),
    buy_asset: AssetSchema.optional(),
    buy_amount: stellarAmount.optional(),
    sell_delivery_method: text(40).optional(),
    buy_delivery_method: text(40).optional(),
    country_code: text(6).optional(),
  })
  .refine((p) => (p.sell_asset === undefined) !== (p.buy_asset === undefined), { error: 'give either sell_asset or buy_asset, not both', path: ['sell_asset'] })
  .refine((p) => p.sell_amount === undefined || p.sell_asset !== undefined, { error: 'sell_amount goes with sell_asset', path: ['sell_amount'] })
  .refine((p) => p.buy_amount === undefined || p.buy_asset !== undefined, { error: 'buy_amount goes with buy_asset', path: ['buy_amount'] });
export type QuotePricesParams = z.input<typeof QuotePricesParamsSchema>;

const DeliveryMethodSchema = responseObject({ name: z.string(), description: z.string() });

/** `GET /info`: the assets the anchor trades, with how off-chain ones are delivered and where. */
export const QuoteInfoSchema = responseObject({
  assets: z.array(
    responseObject({
      asset: z.string(),
      sell_delivery_methods: z.array(DeliveryMethodSchema).optional(),
      buy_delivery_methods: z.array(DeliveryMethodSchema).optional(),
      country_codes: z.array(z.string()).optional(),
    }),
  ),
});
export type QuoteInfo = z.infer<typeof QuoteInfoSchema>;

const PricedAssetSchema = responseObject({ asset: z.string(), price: z.string(), decimals: z.number().int() });

/**
 * `GET /prices`: with `sell_asset`, `buy_assets` (the price of one unit of each, in `sell_asset`);
 * with `buy_asset`, `sell_assets` (the price of one `buy_asset` in each).
 */
export const QuotePricesSchema = responseObject({
  buy_assets: z.array(PricedAssetSchema).optional(),
  sell_assets: z.array(PricedAssetSchema).optional(),
});
export type QuotePrices = z.infer<typeof QuotePricesSchema>;

/** SEP-38's `fee`: `total` in `asset`, and what it is made of. */
export const QuoteFeeSchema = responseObject({
  total: z.string(),
  asset: z.string(),
  details: z.array(responseObject({ name: z.string(), description: z.string().optional(), amount: z.string() })).optional(),
});
export type QuoteFee = z.infer<typeof QuoteFeeSchema>;

const priceAnswer = {
  /** One unit of `buy_asset` in `sell_asset`, fees included: `sell_amount = total_price * buy_amount`. */
  total_price: z.string(),
  /** One unit of `buy_asset` in `sell_asset`, fees not included. */
  price: z.string(),
  sell_amount: z.string(),
  buy_amount: z.string(),
  fee: QuoteFeeSchema,
};

/** `GET /price`: an indicative price for an amount. */
export const QuotePriceSchema = responseObject(priceAnswer);
export type QuotePrice = z.infer<typeof QuotePriceSchema>;

/** A firm quote, as `POST /quote` and `GET /quote/:id` answer it. */
export const QuoteSchema = responseObject({
  id: z.string(),
  /** ISO 8601: the quote holds until then (the anchor's clock). */
  expires_at: z.string(),
  sell_asset: z.string(),
  buy_asset: z.string(),
  /** The delivery methods the request named, repeated (SEP-38). */
  sell_delivery_method: z.string().optional(),
  buy_delivery_method: z.string().optional(),
  ...priceAnswer,
});
export type Quote = z.infer<typeof QuoteSchema>;

/** `{ANCHOR_QUOTE_SERVER}`: SEP-38 `GET /info`, `GET /prices`, `GET /price`, `POST /quote`, `GET /quote/:id`. */
export class AnchorQuotes extends Resource {
  /** The assets the anchor trades. No sign-in needed. */
  async info(opts?: RequestOptions): Promise<QuoteInfo> {
    return this.core.get('info', { ...opts, auth: false, unwrap: false, schema: QuoteInfoSchema });
  }

  /** Indicative prices of what `sell_asset` buys (`buy_assets`), or of what buys `buy_asset` (`sell_assets`). No sign-in needed. */
  async prices(params: QuotePricesParams, opts?: RequestOptions): Promise<QuotePrices> {
    const query = parseInput(QuotePricesParamsSchema, params);
    return this.core.get('prices', { ...opts, auth: false, unwrap: false, query, schema: QuotePricesSchema });
  }

  /** An indicative price, with its fee, for selling or buying an amount. No sign-in needed. */
  async price(params: QuotePriceParams, opts?: RequestOptions): Promise<QuotePrice> {
    const query = parseInput(QuotePriceParamsSchema, params);
    return this.core.get('price', { ...opts, auth: false, unwrap: false, query, schema: QuotePriceSchema });
  }

  /** A firm quote for the signed-in account, held until `expires_at`: pass its `id` as SEP-24 `quote_id`. */
  async create(params: QuoteCreateParams, opts?: RequestOptions): Promise<Quote> {
    return this.core.post('quote', { ...opts, unwrap: false, body: parseInput(QuoteCreateParamsSchema, params), schema: QuoteSchema });
  }

  /** A quote of the signed-in account, also after it expired. */
  async get(id: string, opts?: RequestOptions): Promise<Quote> {
    return this.core.get(`quote/${segment(parseInput(pathSegment, id, 'id'))}`, { ...opts, unwrap: false, schema: QuoteSchema });
  }
}

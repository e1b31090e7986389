/**
 * SEP-38 (Anchor RFQ API, v2) at `{anchor_url}/sep38`, the stellar.toml's
 * `ANCHOR_QUOTE_SERVER`: `GET /info`, `GET /prices`, `GET /price` (no token needed),
 * `POST /quote` and `GET /quote/:id` (SEP-10 token required, 403 without). Errors are the
 * SEP body `{error}`, 400 for any bad request. Pricing and quote state live in ../../quotes.ts.
 *
 * Beside SEP-38's fields, `GET /price` and `POST /quote` take an optional `api_key`, the
 * merchant's public key, as SEP-24 requests take the merchant fields: the answer is priced
 * with that merchant's fees, and a quote priced so can be used in that merchant's transactions.
 */
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../../context.js';
import { parse } from '../../http/body.js';
import { badRequest } from '../../http/errors.js';
import { route } from '../../http/respond.js';
import {
  COUNTRY_CODES,
  createQuote,
  decimal,
  DELIVERY_METHOD,
  findQuote,
  GHS_ASSET,
  kindOfPair,
  priceRequest,
  priceView,
  QUOTE_CONTEXT,
  quoteView,
  unitPrice,
  usdcAsset,
} from '../../quotes.js';
import { readFields } from './fields.js';
import { requireSep10 } from './sep10.js';

/** A positive decimal, as SEP-38 sends amounts (a string; a JSON number is taken too). */
const amount = z
  .union([z.number(), z.string().trim().regex(/^\d+(\.\d{1,7})?$/, 'must be a decimal number').transform(Number)], {
    error: 'must be a decimal number',
  })
  .pipe(z.number().positive('must be greater than 0').max(1e12, 'is too large').finite());
const asset = z.string({ error: 'is required' }).trim().min(1, 'is required').max(120);
const deliveryMethod = z.literal(DELIVERY_METHOD, { error: `the only delivery method is ${DELIVERY_METHOD}` }).optional();
const countryCode = z
  .string()
  .trim()
  .refine((c) => COUNTRY_CODES.includes(c.toUpperCase()), 'this anchor operates in Ghana only (GH)')
  .optional();
const context = z.literal(QUOTE_CONTEXT, { error: 'this anchor quotes for sep24 only (it offers no SEP-6 or SEP-31)' });
const apiKey = z.string().trim().min(1).max(200).optional();

const common = {
  sell_asset: asset,
  buy_asset: asset,
  sell_amount: amount.optional(),
  buy_amount: amount.optional(),
  sell_delivery_method: deliveryMethod,
  buy_delivery_method: deliveryMethod,
  country_code: countryCode,
  context,
  api_key: apiKey,
};
const PriceQuery = z.object(common);
const QuoteBody = z.object({ ...common, expire_after: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date and time' }).optional() });
/** Exactly one of `sell_asset` (answered with `buy_assets`) and `buy_asset` (answered with `sell_assets`), each with its own amount. */
const PricesQuery = z.object({
  sell_asset: asset.optional(),
  sell_amount: amount.optional(),
  buy_asset: asset.optional(),
  buy_amount: amount.optional(),
  sell_delivery_method: deliveryMethod,
  buy_delivery_method: deliveryMethod,
  country_code: countryCode,
});

/** SEP-38 `decimals`: what an amount of the asset needs (USDC has Stellar's 7). */
const decimalsOf = (ctx: MockContext, asset: string) => (asset === usdcAsset(ctx) ? 7 : 2);

const query = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

export function sep38Handlers(ctx: MockContext) {
  const base = `${ctx.urls.anchor}/sep38`;
  const methods = [{ name: DELIVERY_METHOD, description: 'MTN MoMo, Telecel Cash or AirtelTigo Money, in Ghana' }];
  return [
    http.get(`${base}/info`, () =>
      HttpResponse.json({
        assets: [
          { asset: usdcAsset(ctx) },
          { asset: GHS_ASSET, country_codes: ['GH'], sell_delivery_methods: methods, buy_delivery_methods: methods },
        ],
      }),
    ),
    http.get(
      `${base}/prices`,
      route(ctx, 'sep', async ({ request }) => {
        const q = parse(PricesQuery, query(request));
        if ((q.sell_asset === undefined) === (q.buy_asset === undefined)) throw badRequest('send either sell_asset or buy_asset, not both');
        if (q.sell_asset === undefined && q.sell_amount !== undefined) throw badRequest('sell_amount: only with sell_asset');
        if (q.buy_asset === undefined && q.buy_amount !== undefined) throw badRequest('buy_amount: only with buy_asset');
        const usdc = usdcAsset(ctx);
        const given = (q.sell_asset ?? q.buy_asset)!;
        if (given !== GHS_ASSET && given !== usdc) {
          throw badRequest(`${q.sell_asset ? 'sell_asset' : 'buy_asset'}: not offered; use ${GHS_ASSET} or ${usdc}`);
        }
        const other = given === GHS_ASSET ? usdc : GHS_ASSET;
        const [sell, buy] = q.sell_asset ? [given, other] : [other, given];
        // An amount outside the limits is refused as GET /price would refuse it.
        if (q.sell_amount !== undefined || q.buy_amount !== undefined) {
          await priceRequest(ctx, { sell_asset: sell, buy_asset: buy, sell_amount: q.sell_amount, buy_amount: q.buy_amount });
        }
        // Either way `price` is one unit of the bought asset in the sold one (SEP-38's examples).
        const entry = { asset: other, price: decimal(unitPrice(ctx, kindOfPair(ctx, sell, buy))), decimals: decimalsOf(ctx, other) };
        return HttpResponse.json(q.sell_asset ? { buy_assets: [entry] } : { sell_assets: [entry] });
      }),
    ),
    http.get(
      `${base}/price`,
      route(ctx, 'sep', async ({ request }) => {
        const q = parse(PriceQuery, query(request));
        const { kind, price } = await priceRequest(ctx, q);
        const { total_price, price: unit, sell_amount, buy_amount, fee } = priceView(ctx, kind, price);
        return HttpResponse.json({ total_price, price: unit, sell_amount, buy_amount, fee });
      }),
    ),
    http.post(
      `${base}/quote`,
      route(ctx, 'sep', async ({ request }) => {
        const client = await requireSep10(ctx, request);
        const body = parse(QuoteBody, await readFields(request));
        const quote = await createQuote(ctx, client.sub, body);
        return HttpResponse.json(quoteView(ctx, quote), { status: 201 });
      }),
    ),
    http.get(
      `${base}/quote/:id`,
      route(ctx, 'sep', async ({ request, params }) => {
        const client = await requireSep10(ctx, request);
        return HttpResponse.json(quoteView(ctx, findQuote(ctx, String(params.id), client.sub)));
      }),
    ),
  ];
}

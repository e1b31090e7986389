/**
 * SEP-24 at `{anchor_url}`: `GET /info`, `POST /transactions/deposit/interactive` and
 * `/withdraw/interactive` (JSON, form-urlencoded or multipart, as SEP-24 clients send them),
 * `GET /transaction` and `GET /transactions` (the signed-in account's transactions, and with
 * merchant fields the merchant's for the session's customer).
 *
 * Who a request is for (000 section 4; docs/choices.md, "who an interactive request is for"):
 * a merchant only when the request carries that merchant's five merchant fields, valid and
 * agreeing (see readMerchantFields), on either network; they are required on the main
 * network (400 naming the missing ones). Without them (test network only) the transaction
 * belongs to no merchant: starter fees and limits, no order, no webhook, no volume; a lone
 * `user_id` must then be a customer the signing account created at the anchor.
 */
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../../context.js';
import { requireAccepted } from '../../customers.js';
import { requirePermission } from '../../http/auth.js';
import { badRequest, notFound } from '../../http/errors.js';
import { parse } from '../../http/body.js';
import { route } from '../../http/respond.js';
import { GHS_ASSET, quoteForRequest, quoteSellAmount, usdcAsset } from '../../quotes.js';
import type { CustomerRecord } from '../../store.js';
import type { StellarMemo, TransactionKind, TransactionRecord } from '../../state/anchor.js';
import { pickLang } from '../interactive/strings.js';
import { isStellarAccount } from '../../transactions/accounts.js';
import { createTransaction, findTransaction } from '../../transactions/create.js';
import { transactionView } from '../../transactions/view.js';
import { MIN_CRYPTO_USDC, MIN_FIAT_GHS } from '../../volume.js';
import { MERCHANT_FIELDS, readFields, readMerchantFields } from './fields.js';
import { requireSep10, type Sep10Client } from './sep10.js';

export { MERCHANT_FIELDS } from './fields.js';

const text = z.string().trim().min(1).max(200);
/** A decimal amount, as a JSON number or a form string. */
const amountField = z
  .union([z.number(), z.string().trim().regex(/^\d+(\.\d{1,7})?$/).transform(Number)], { error: 'must be a decimal number' })
  .pipe(z.number().positive('must be greater than 0').finite());

const InteractiveFieldsSchema = z.object({
  asset_code: z.string({ error: 'is required' }).refine((v) => v === 'USDC', 'only USDC is offered'),
  account: z.string().trim().refine(isStellarAccount, 'must be a Stellar account (G… or M…)').optional(),
  amount: amountField.optional(),
  merchant_id: text.optional(),
  session_id: text.optional(),
  session_token: text.optional(),
  api_key: text.optional(),
  user_id: text.optional(),
  quote_id: text.optional(),
  /** SEP-24's name for the customer (its SEP-12 id); the same as `user_id`. */
  customer_id: text.optional(),
  /** Any RFC 4646 tag (`en`, `fr-CA`, `es-419`); the page falls back to `en` for a language it lacks. */
  lang: z.string().trim().regex(/^[A-Za-z]{1,8}([-_][A-Za-z0-9]{1,8})*$/, 'must be a language tag such as en or fr-CA').optional(),
  /** The only Stellar asset, USDC of its issuer (SEP-24: the anchor's own when left out). */
  asset_issuer: z.string().trim().optional(),
  /** Deposit: what the customer pays with; withdrawal: what the customer receives. Only the cedi, by Mobile Money. */
  source_asset: z.string().trim().optional(),
  destination_asset: z.string().trim().optional(),
  /** Deposit: the memo the USDC payment carries (`memo_type` `id` unless named). */
  memo: z.string().optional(),
  memo_type: z.string().optional(),
  /** Withdrawal: the memo refunds carry, with its type (both or neither). */
  refund_memo: z.string().optional(),
  refund_memo_type: z.string().optional(),
});

/** A Stellar memo as SEP-24 passes it: `id` a 64-bit unsigned integer, `text` up to 28 bytes, `hash` 32 bytes in base64. */
function stellarMemo(field: string, value: string, type: string): StellarMemo {
  if (type === 'id') {
    if (!/^(0|[1-9]\d{0,19})$/.test(value) || BigInt(value) >= 2n ** 64n) throw badRequest(`${field}: an id memo is a 64-bit unsigned integer`);
    return { type, value };
  }
  if (type === 'text') {
    if (new TextEncoder().encode(value).length > 28) throw badRequest(`${field}: a text memo is at most 28 bytes`);
    return { type, value };
  }
  if (type === 'hash') {
    let bytes = -1;
    try {
      bytes = atob(value).length;
    } catch {}
    if (bytes !== 32) throw badRequest(`${field}: a hash memo is 32 bytes in base64`);
    return { type, value };
  }
  throw badRequest(`${field}_type: must be id, text or hash`);
}

/** The answer of an interactive request (000 section 2). */
export interface InteractiveResponse {
  type: 'interactive_customer_info_needed';
  url: string;
  id: string;
}

export interface StartInteractiveOptions {
  /** Without `account`, the token's account receives a deposit's USDC and sends a withdrawal's. Default true. */
  defaultAccount?: boolean;
}

/**
 * Starts an interactive deposit or withdrawal for a SEP-10 client, checking the merchant
 * fields as described above. The transaction is the client's (`account`); at `GET /transaction`
 * the merchant it is for also reads it, with merchant fields for its customer. Shared by the
 * anchor's endpoints and the widget backend, so both answer the same `{type, url, id}`.
 */
export async function startInteractive(
  ctx: MockContext,
  kind: TransactionKind,
  input: Record<string, unknown>,
  client: Sep10Client,
  options: StartInteractiveOptions = {},
): Promise<InteractiveResponse> {
  const f = parse(InteractiveFieldsSchema, input);
  if (f.customer_id !== undefined) {
    if (f.user_id !== undefined && f.user_id !== f.customer_id) throw badRequest('customer_id: names another customer than user_id');
    f.user_id = f.customer_id;
  }
  if (f.asset_issuer !== undefined && `stellar:USDC:${f.asset_issuer}` !== usdcAsset(ctx)) {
    throw badRequest(`asset_issuer: this anchor offers USDC of ${usdcAsset(ctx).split(':')[2]} only`);
  }
  const offChain = kind === 'deposit' ? 'source_asset' : 'destination_asset';
  if (f[offChain] !== undefined && f[offChain] !== GHS_ASSET) throw badRequest(`${offChain}: this anchor ${kind === 'deposit' ? 'takes' : 'pays'} ${GHS_ASSET} only`);
  let depositMemo: StellarMemo | undefined;
  if (kind === 'deposit' && (f.memo !== undefined || f.memo_type !== undefined)) {
    if (f.memo === undefined) throw badRequest('memo: required with memo_type');
    depositMemo = stellarMemo('memo', f.memo, f.memo_type ?? 'id');
  } else if (kind === 'deposit' && (f.account ?? client.account) === client.account && client.memo !== null) {
    // A shared account's user (a SEP-10 memo) gets its USDC with that memo, or the account could not tell whose it is.
    depositMemo = { type: 'id', value: client.memo };
  }
  let refundMemo: StellarMemo | undefined;
  if (kind === 'withdrawal' && (f.refund_memo !== undefined || f.refund_memo_type !== undefined)) {
    if (f.refund_memo === undefined || f.refund_memo_type === undefined) throw badRequest('refund_memo: send refund_memo and refund_memo_type together');
    refundMemo = stellarMemo('refund_memo', f.refund_memo, f.refund_memo_type);
  }
  if (ctx.options.network === 'public') {
    const missing = MERCHANT_FIELDS.filter((name) => !f[name]);
    if (missing.length > 0) throw badRequest(`${missing.join(', ')}: required on the main network`);
  }
  const quote = f.quote_id ? quoteForRequest(ctx, kind, client.sub, f.quote_id, input) : undefined;

  const auth = await readMerchantFields(ctx, f);
  let customer: CustomerRecord | undefined;
  if (auth) {
    requirePermission(auth.key, kind === 'deposit' ? 'onramp' : 'offramp');
    customer = ctx.store.customers.get(auth.session.user_id);
    if (!customer || customer.merchant_id !== auth.merchant.id) throw notFound('customer');
  } else if (f.user_id) {
    customer = ctx.store.customers.get(f.user_id);
    if (!customer || customer.account !== client.sub) throw notFound('customer');
  }
  if (customer) requireAccepted(customer);

  // The request's `account` (else the signed-in one): where a deposit's USDC goes, where a withdrawal's comes from.
  const wallet = f.account ?? (options.defaultAccount === false ? undefined : client.account);
  const { transaction, url } = await createTransaction(ctx, {
    kind,
    merchant: auth?.merchant ?? null,
    customer: customer ?? null,
    account: client.sub,
    ...(f.amount === undefined ? {} : { amount: f.amount }),
    // Priced at the quote: its sell amount is the amount (the request's, when given, is the same).
    ...(quote ? { amount: quoteSellAmount(quote), quote_id: quote.id } : {}),
    ...(wallet ? (kind === 'deposit' ? { destination_address: wallet } : { source_account: wallet }) : {}),
    ...(depositMemo ? { deposit_memo: depositMemo } : {}),
    ...(refundMemo ? { refund_memo: refundMemo } : {}),
    lang: pickLang(f.lang),
    embed_origins: auth?.key.allowed_domains ?? [],
    ...(auth && f.api_key ? { merchant_session: { session_id: auth.session.session_id, api_key: f.api_key } } : {}),
  });
  return { type: 'interactive_customer_info_needed', url, id: transaction.id };
}

const ListQuery = z.object({
  asset_code: z.literal('USDC', { error: 'asset_code: USDC is required' }),
  kind: z.enum(['deposit', 'withdrawal']).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  no_older_than: z.iso.datetime({ offset: true }).optional(),
  paging_id: z.string().optional(),
});

export function sep24Handlers(ctx: MockContext) {
  const base = ctx.urls.anchor;
  const interactive = (kind: TransactionKind) =>
    route(ctx, 'sep', async ({ request }) => {
      const client = await requireSep10(ctx, request);
      return HttpResponse.json(await startInteractive(ctx, kind, await readFields(request), client));
    });
  /**
   * Which transactions a GET request reaches: those the SEP-10 account (and memo) started, and,
   * with valid merchant fields in the query, the merchant's for the session's customer (a
   * session never reads another customer's). Wrong fields are refused as at SEP-12.
   */
  const reader = async (request: Request, query: Record<string, unknown>) => {
    const client = await requireSep10(ctx, request);
    const auth = await readMerchantFields(ctx, query);
    return (t: TransactionRecord) =>
      t.account === client.sub || (auth !== undefined && t.merchant_id === auth.merchant.id && t.customer_id === auth.session.user_id);
  };
  return [
    http.get(`${base}/info`, () => {
      const { maxPerTransaction } = ctx.options.limits;
      return HttpResponse.json({
        // Deposit amounts are GHS and withdrawal amounts USDC (000 section 4); merchants' own maximums may be lower.
        deposit: { USDC: { enabled: true, min_amount: MIN_FIAT_GHS, max_amount: maxPerTransaction } },
        withdraw: { USDC: { enabled: true, min_amount: MIN_CRYPTO_USDC } },
        fee: { enabled: false },
        features: { account_creation: false, claimable_balances: false },
      });
    }),
    http.post(`${base}/transactions/deposit/interactive`, interactive('deposit')),
    http.post(`${base}/transactions/withdraw/interactive`, interactive('withdrawal')),
    http.get(
      `${base}/transaction`,
      route(ctx, 'sep', async ({ request }) => {
        const q = new URL(request.url).searchParams;
        const reaches = await reader(request, Object.fromEntries(q));
        const id = q.get('id');
        const stellarId = q.get('stellar_transaction_id');
        const externalId = q.get('external_transaction_id');
        if (!id && !stellarId && !externalId) throw badRequest('id, stellar_transaction_id or external_transaction_id is required');
        const tx = id
          ? findTransaction(ctx, id)
          : [...ctx.store.anchor.transactions.values()].find(
              (t) => reaches(t) && ((stellarId && t.stellar_transaction_id === stellarId) || (externalId && t.external_transaction_id === externalId)),
            );
        // To anyone it does not reach, a transaction does not exist.
        if (!tx || !reaches(tx)) throw notFound('transaction');
        return HttpResponse.json({ transaction: transactionView(ctx, tx) });
      }),
    ),
    http.get(
      `${base}/transactions`,
      route(ctx, 'sep', async ({ request }) => {
        const q = Object.fromEntries(new URL(request.url).searchParams);
        const reaches = await reader(request, q);
        const query = parse(ListQuery, q);
        let list = [...ctx.store.anchor.transactions.values()]
          .filter((t) => reaches(t) && (!query.kind || t.kind === query.kind))
          .filter((t) => !query.no_older_than || t.started_at >= Date.parse(query.no_older_than))
          .reverse();
        if (query.paging_id) {
          const at = list.findIndex((t) => t.id === query.paging_id);
          if (at < 0) throw badRequest('paging_id: not a transaction of this list');
          list = list.slice(at + 1);
        }
        return HttpResponse.json({ transactions: list.slice(0, query.limit ?? 50).map((t) => transactionView(ctx, t)) });
      }),
    ),
  ];
}

/**
 * SEP-24 at `{anchor_url}`: `GET /info`, `POST /transactions/deposit/interactive` and
 * `/withdraw/interactive` (JSON, form-urlencoded or multipart, as SEP-24 clients send them),
 * `GET /transaction` and `GET /transactions`.
 *
 * Who a request is for (000 section 4): the five merchant fields (merchant_id, session_id,
 * session_token, api_key, user_id) are required on the main network (400 without them) and
 * optional on the test network. Whatever is given must agree: the api_key is an active public
 * key of the merchant, the session is live and the merchant's, the user_id is the session's
 * customer and ACCEPTED. Without them, a client that authenticated with a merchant's Stellar
 * key acts for that merchant; any other client is a direct client without a merchant
 * (starter fees and limits, no order, no webhook).
 */
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../../context.js';
import { findAcceptedCustomer } from '../../customers.js';
import { findKey, findSession, requirePermission } from '../../http/auth.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { parse } from '../../http/body.js';
import { route } from '../../http/respond.js';
import { quoteForRequest, quoteSellAmount } from '../../quotes.js';
import type { MerchantRecord, SessionRecord } from '../../store.js';
import {
  createTransaction,
  findTransaction,
  isStellarAccount,
  transactionView,
  type TransactionKind,
} from '../../transactions.js';
import { MIN_CRYPTO_USDC, MIN_FIAT_GHS } from '../../volume.js';
import { readFields } from './fields.js';
import { ownerOf } from './sep12.js';
import { requireSep10, type Sep10Client } from './sep10.js';

/** The merchant fields of an interactive request, required on the main network. */
export const MERCHANT_FIELDS = ['merchant_id', 'session_id', 'session_token', 'api_key', 'user_id'] as const;

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
  lang: z.string().trim().regex(/^[a-z]{2}(-[A-Za-z]{2})?$/, 'must be a language code such as en').optional(),
});

/** The answer of an interactive request (000 section 2). */
export interface InteractiveResponse {
  type: 'interactive_customer_info_needed';
  url: string;
  id: string;
}

export interface StartInteractiveOptions {
  /** A deposit's USDC goes to the token's account unless `account` says otherwise. Default true. */
  defaultAccount?: boolean;
}

/**
 * Starts an interactive deposit or withdrawal for a SEP-10 client, checking the merchant
 * fields as described above. Shared by the anchor's endpoints and the widget backend, so
 * both answer the same `{type, url, id}`.
 */
export async function startInteractive(
  ctx: MockContext,
  kind: TransactionKind,
  input: Record<string, unknown>,
  client: Sep10Client,
  options: StartInteractiveOptions = {},
): Promise<InteractiveResponse> {
  const f = parse(InteractiveFieldsSchema, input);
  if (ctx.options.network === 'public') {
    const missing = MERCHANT_FIELDS.filter((name) => !f[name]);
    if (missing.length > 0) throw badRequest(`${missing.join(', ')}: required on the main network`);
  }
  const quote = f.quote_id ? quoteForRequest(ctx, kind, client.sub, f.quote_id, input) : undefined;

  let merchant: MerchantRecord | undefined;
  const claim = (m: MerchantRecord, field: string) => {
    if (merchant && merchant.id !== m.id) throw forbidden(`${field}: belongs to another merchant`);
    merchant = m;
  };
  if (f.merchant_id) {
    const m = ctx.store.merchants.get(f.merchant_id);
    if (!m) throw forbidden('merchant_id: unknown merchant');
    claim(m, 'merchant_id');
  }
  let embedOrigins: string[] = [];
  if (f.api_key) {
    const auth = await findKey(ctx, f.api_key);
    if (!auth || auth.key.key_type !== 'public') throw forbidden('api_key: not an active public key');
    claim(auth.merchant, 'api_key');
    requirePermission(auth.key, kind === 'deposit' ? 'onramp' : 'offramp');
    embedOrigins = auth.key.allowed_domains;
  }
  let session: SessionRecord | undefined;
  if (f.session_id || f.session_token) {
    if (!f.session_id || !f.session_token) throw badRequest('session_id and session_token: send both');
    session = findSession(ctx, f.session_id, f.session_token);
    const m = ctx.store.merchants.get(session.merchant_id);
    if (m) claim(m, 'session_id');
  }
  const owner = merchant?.id ?? ownerOf(ctx, client);
  merchant ??= ctx.store.merchants.get(owner);

  if (session && f.user_id && f.user_id !== session.user_id) throw forbidden("user_id: not the session's customer");
  const userId = f.user_id ?? session?.user_id;
  const customer = userId ? findAcceptedCustomer(ctx, owner, userId) : undefined;

  const destination = f.account ?? (options.defaultAccount === false ? undefined : client.account);
  const { transaction, url } = await createTransaction(ctx, {
    kind,
    merchant: merchant ?? null,
    customer: customer ?? null,
    account: client.sub,
    ...(f.amount === undefined ? {} : { amount: f.amount }),
    // Priced at the quote: its sell amount is the amount (the request's, when given, is the same).
    ...(quote ? { amount: quoteSellAmount(quote), quote_id: quote.id } : {}),
    ...(kind === 'deposit' && destination ? { destination_address: destination } : {}),
    lang: f.lang?.slice(0, 2).toLowerCase() ?? 'en',
    embed_origins: embedOrigins,
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
        await requireSep10(ctx, request);
        const q = new URL(request.url).searchParams;
        const id = q.get('id');
        const stellarId = q.get('stellar_transaction_id');
        const externalId = q.get('external_transaction_id');
        if (!id && !stellarId && !externalId) throw badRequest('id, stellar_transaction_id or external_transaction_id is required');
        const tx = id
          ? findTransaction(ctx, id)
          : [...ctx.store.anchor.transactions.values()].find(
              (t) => (stellarId && t.stellar_transaction_id === stellarId) || (externalId && t.external_transaction_id === externalId),
            );
        if (!tx) throw notFound('transaction');
        return HttpResponse.json({ transaction: transactionView(ctx, tx) });
      }),
    ),
    http.get(
      `${base}/transactions`,
      route(ctx, 'sep', async ({ request }) => {
        const client = await requireSep10(ctx, request);
        const q = Object.fromEntries(new URL(request.url).searchParams);
        const query = parse(ListQuery, q);
        let list = [...ctx.store.anchor.transactions.values()]
          .filter((t) => t.account === client.sub && (!query.kind || t.kind === query.kind))
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

import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { poll, type WaitOptions, type WaitResult } from '../../core/poll.js';
import { Resource } from '../../core/resource.js';
import { openEnum, parseInput, pathSegment, responseObject, stellarAmount, text } from '../../core/schema.js';
import { InteractiveTransactionSchema, type InteractiveTransaction } from '../widget/interactive.js';
import { merchantFields, type AnchorMerchantFields } from './sep12.js';


/** A SEP-24 interactive request with the five merchant fields (required on the main network). */
export const AnchorInteractiveParamsSchema = z.strictObject({
  /** `USDC`; the default. */
  asset_code: z.literal('USDC').default('USDC'),
  /** Stellar account receiving (deposit) or sending (withdraw) the USDC; defaults to the authenticated one. */
  account: z.string().regex(/^[GM][A-Z2-7]{55,68}$/, 'must be a Stellar account (G… or M…)').optional(),
  /** GHS for a deposit, USDC for a withdrawal. */
  amount: stellarAmount.optional(),
  merchant_id: text(100).optional(),
  /** From `widget.sessions.create()`. */
  session_id: text(100).optional(),
  session_token: text(100).optional(),
  /** The merchant's public key. */
  api_key: z.string().max(200).regex(/_public_[A-Za-z0-9]+$/, 'must be the public key (xx_public_…), never the secret key').optional(),
  /** The customer's id; must be ACCEPTED. */
  user_id: text(100).optional(),
  /** A SEP-38 quote, for a guaranteed rate. */
  quote_id: text(100).optional(),
  /** Language of the interactive page, an RFC 4646 tag such as `fr` or `fr-CA`; the anchor falls back to `en` for one it lacks. */
  lang: z.string().regex(/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/, 'must be a language tag such as en or fr-CA').optional(),
});
export type AnchorInteractiveParams = z.input<typeof AnchorInteractiveParamsSchema>;

/** Statuses after which a transaction no longer changes. */
export const FINAL_TRANSACTION_STATUSES = ['completed', 'expired', 'error', 'failed', 'refunded', 'no_market', 'too_small', 'too_large'] as const;

/** One payment that sent money back: a Stellar transaction hash, or the off-chain (Mobile Money) payment's id. */
export const AnchorRefundPaymentSchema = responseObject({
  id: z.string(),
  id_type: openEnum(['stellar', 'external']),
  /** Decimal string, in the asset that was sent back. */
  amount: z.string(),
  /** Decimal string: what the anchor kept of this payment. */
  fee: z.string(),
});
export type AnchorRefundPayment = z.infer<typeof AnchorRefundPaymentSchema>;

/** SEP-24's `refunds`: what was sent back, in total and payment by payment. */
export const AnchorRefundsSchema = responseObject({
  /** Decimal string, fees included, in the asset of `amount_in`. */
  amount_refunded: z.string(),
  /** Decimal string: the fees kept over all refund payments. */
  amount_fee: z.string(),
  payments: z.array(AnchorRefundPaymentSchema),
});
export type AnchorRefunds = z.infer<typeof AnchorRefundsSchema>;

/** One part of SEP-24's `fee_details`. */
export const AnchorFeeDetailSchema = responseObject({
  name: z.string(),
  /** Decimal string in the asset of `fee_details.asset`. */
  amount: z.string(),
  description: z.string().optional(),
});
export type AnchorFeeDetail = z.infer<typeof AnchorFeeDetailSchema>;

/** SEP-24's `fee_details`: the total fee, its asset (SEP-38 style, e.g. `iso4217:GHS`) and its parts, `breakdown`. */
export const AnchorFeeDetailsSchema = responseObject({
  /** Decimal string. */
  total: z.string(),
  asset: z.string(),
  /** The parts, summing to `total` (SEP-24 calls them `breakdown`; SEP-38's `fee` calls them `details`). */
  breakdown: z.array(AnchorFeeDetailSchema).optional(),
});
export type AnchorFeeDetails = z.infer<typeof AnchorFeeDetailsSchema>;

/** A SEP-24 transaction record. */
export const AnchorTransactionSchema = responseObject({
  id: z.string(),
  kind: openEnum(['deposit', 'withdrawal']),
  status: openEnum([
    'incomplete',
    'pending_user_transfer_start',
    'pending_user_transfer_complete',
    'pending_anchor',
    'pending_stellar',
    'pending_external',
    'pending_payout_confirmation',
    'pending_trust',
    'pending_user',
    'on_hold',
    ...FINAL_TRANSACTION_STATUSES,
  ]),
  /** Seconds until the status is expected to change, when the anchor says. */
  status_eta: z.number().nullish(),
  kyc_verified: z.boolean().nullish(),
  more_info_url: z.string().nullish(),
  /** ISO 8601: by when the customer must act (finish the form, send the USDC), while the anchor waits on them. */
  user_action_required_by: z.string().nullish(),
  /** Decimal strings in the asset of the matching `_asset` field. */
  amount_in: z.string().nullish(),
  amount_in_asset: z.string().nullish(),
  amount_out: z.string().nullish(),
  amount_out_asset: z.string().nullish(),
  /** Deprecated by SEP-24 in favour of `fee_details`; kept for older wallets. */
  amount_fee: z.string().nullish(),
  amount_fee_asset: z.string().nullish(),
  /** The fees, once the price is fixed: the total and what it is made of. */
  fee_details: AnchorFeeDetailsSchema.nullish(),
  /** ISO 8601. */
  started_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  stellar_transaction_id: z.string().nullish(),
  external_transaction_id: z.string().nullish(),
  /** Deposit: the Stellar account receiving the USDC. Withdrawal: the Mobile Money number paid, once the form is finished. */
  to: z.string().nullish(),
  /** Deposit: the memo the USDC payment to `to` carries (a shared account's user), and its type (`id`, `text`, `hash`). */
  deposit_memo: z.string().nullish(),
  deposit_memo_type: z.string().nullish(),
  /** Deposit: the claimable balance the USDC was sent as, if it was. */
  claimable_balance_id: z.string().nullish(),
  /** Deposit: the Mobile Money number paying, once the form is finished. Withdrawal: the Stellar account sending the USDC. */
  from: z.string().nullish(),
  /** Withdrawal: where to send the USDC, with `withdraw_memo`. */
  withdraw_anchor_account: z.string().nullish(),
  withdraw_memo: z.string().nullish(),
  withdraw_memo_type: z.string().nullish(),
  /** Why the transaction failed, on `error`. */
  message: z.string().nullish(),
  /** The SEP-38 quote the transaction is priced at, when the request named one. */
  quote_id: z.string().nullish(),
  /** `true` once the money is back in full; `false` while none or only part of it is (SEP-24 keeps it beside `refunds`). */
  refunded: z.boolean().optional(),
  /** The money sent back, once a refund has been sent; absent while none has. */
  refunds: AnchorRefundsSchema.nullish(),
});
export type AnchorTransaction = z.infer<typeof AnchorTransactionSchema>;

export const TransactionBodySchema = responseObject({ transaction: AnchorTransactionSchema });
export const TransactionListSchema = responseObject({ transactions: z.array(AnchorTransactionSchema) });

/** `GET /transactions`: which of the reachable transactions, newest first. */
export const AnchorTransactionListParamsSchema = z.strictObject({
  /** `USDC`; the default. */
  asset_code: z.literal('USDC').default('USDC'),
  kind: z.enum(['deposit', 'withdrawal']).optional(),
  /** At most this many, 1 to 200; the anchor's default is 50. */
  limit: z.number().int().min(1).max(200).optional(),
  /** ISO 8601: only transactions started at or after it. */
  no_older_than: z.iso.datetime({ offset: true }).optional(),
  /** The `id` of the last transaction of the previous page. */
  paging_id: pathSegment.optional(),
});
export type AnchorTransactionListParams = z.input<typeof AnchorTransactionListParamsSchema>;

export interface AnchorTransactionOptions extends RequestOptions {
  /**
   * The merchant fields of a session for the transaction's customer, sent as query parameters
   * (checked before sending): the anchor then also answers the merchant's transactions of that
   * customer, those started through the widget backend included. Without them it answers only
   * the transactions this SEP-10 account started; anything else is NotFoundError.
   */
  merchant?: AnchorMerchantFields;
}

export interface WatchTransactionOptions extends WaitOptions<AnchorTransaction>, AnchorTransactionOptions {}

/** Polling interval of watchTransaction, seconds. */
const TRANSACTION_POLL_SECONDS = 5;
/** Default longest watch, seconds: an incomplete transaction expires after 30 minutes. */
const TRANSACTION_WATCH_SECONDS = 60 * 60;

/** SEP-24 at `{anchor_url}`: interactive deposit and withdraw, transaction lookup, list and watch. */
export class AnchorTransfers extends Resource {
  /** Buy USDC: the interactive deposit URL. */
  async deposit(params: AnchorInteractiveParams, opts?: RequestOptions): Promise<InteractiveTransaction> {
    return this.#interactive('deposit', params, opts);
  }

  /** Sell USDC: the interactive withdraw URL. */
  async withdraw(params: AnchorInteractiveParams, opts?: RequestOptions): Promise<InteractiveTransaction> {
    return this.#interactive('withdraw', params, opts);
  }

  /** One transaction, `GET /transaction?id=`; another's (or another customer's, with `merchant`) is NotFoundError. */
  async get(id: string, opts: AnchorTransactionOptions = {}): Promise<AnchorTransaction> {
    const { merchant, ...request } = opts;
    const body = await this.core.get('transaction', {
      ...request,
      unwrap: false,
      query: { id: parseInput(pathSegment, id, 'transaction id'), ...merchantFields(merchant) },
      schema: TransactionBodySchema,
    });
    return body.transaction;
  }

  /**
   * `GET /transactions`, newest first: those this account started, and with `merchant` the
   * merchant's transactions of the session's customer (never its other customers').
   */
  async list(params: AnchorTransactionListParams = {}, opts: AnchorTransactionOptions = {}): Promise<AnchorTransaction[]> {
    const { merchant, ...request } = opts;
    const body = await this.core.get('transactions', {
      ...request,
      unwrap: false,
      query: { ...parseInput(AnchorTransactionListParamsSchema, params, 'transaction list'), ...merchantFields(merchant) },
      schema: TransactionListSchema,
    });
    return body.transactions;
  }

  /**
   * Polls the transaction, reporting each status change to `onStatus`, and resolves on a final
   * status (`completed`, `expired`, `error`, `failed`, and SEP-24's `refunded`, `no_market`,
   * `too_small`, `too_large`) with `{ succeeded, status, value }`: only `completed` succeeds;
   * `value` is the transaction.
   */
  async watch(id: string, options: WatchTransactionOptions = {}): Promise<WaitResult<AnchorTransaction, AnchorTransaction['status']>> {
    const { interval = TRANSACTION_POLL_SECONDS, maxDuration, onStatus, clock, ...request } = options;
    return poll({
      fetch: (signal) => this.get(id, { ...request, signal }),
      status: (tx) => tx.status,
      isFinal: (status) => (FINAL_TRANSACTION_STATUSES as readonly string[]).includes(status),
      succeeded: (status) => status === 'completed',
      interval: () => interval,
      defaultMaxDuration: TRANSACTION_WATCH_SECONDS,
      maxDuration,
      onStatus,
      clock,
      signal: request.signal,
    });
  }

  async #interactive(kind: 'deposit' | 'withdraw', params: AnchorInteractiveParams, opts?: RequestOptions) {
    return this.core.post(`transactions/${kind}/interactive`, {
      ...opts,
      unwrap: false,
      body: parseInput(AnchorInteractiveParamsSchema, params),
      schema: InteractiveTransactionSchema,
    });
  }
}

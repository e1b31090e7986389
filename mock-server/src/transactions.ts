/**
 * Interactive (SEP-24) transactions: buying USDC (`deposit`) and selling it (`withdrawal`).
 * One domain for every surface that touches them: the anchor's SEP-24 endpoints, the widget
 * backend's interactive endpoints, the interactive page (handlers/interactive) and the
 * control API. Statuses move only through the tables in machines/transaction.ts.
 *
 * The life of a transaction:
 *   - created `incomplete` with a single-use token for the page; expires after 30 minutes;
 *   - the customer finishes the form ({@link completeInteractive}): phone checked by OTP,
 *     amount within limits, price fixed, an `ord_` order recorded for the merchant;
 *   - deposit: a Mobile Money prompt; approved -> the anchor sends the USDC a few seconds
 *     later -> completed on chain confirmation; declined -> `error`; unanswered -> `expired`;
 *   - withdrawal: the page shows the anchor's account and memo; the USDC with that memo and
 *     amount arrives -> payout a few seconds later -> completed on confirmation; no USDC within
 *     30 minutes -> `expired`; a failed payout attempt is retried as the ramp API retries its
 *     payouts, and after the last one -> `error` with the USDC sent back to its wallet;
 *     USDC the withdrawal cannot take (another amount, a second transfer, after expiry) is
 *     sent back at once.
 * Final statuses update the order and send the merchant's order webhook.
 */
import { hash, Keypair, StrKey } from '@stellar/stellar-sdk';
import { iso } from './clock.js';
import type { MockContext } from './context.js';
import { sha256Hex } from './crypto.js';
import { badRequest, HttpError } from './http/errors.js';
import { receivePayment, sendPayment, toStroops, type StellarPaymentRecord } from './ledger.js';
import { MAX_ATTEMPTS, RETRY_DELAY_SECONDS } from './retries.js';
import { canTransition, transition, type Machine } from './machines/machine.js';
import { TRANSACTION_MACHINES, type TransactionEvent, type TransactionStatus } from './machines/transaction.js';
import { parseProvider, PROVIDERS, startCollection, startPayout, type CollectionRecord, type PayoutRecord } from './mobile-money.js';
import { checkOtp, sendOtp } from './otp.js';
import { DIRECT_FEES, quoteBuy, quoteSell, type FeeTerms, type Quote } from './pricing.js';
import { priceAtQuote, usdcAsset } from './quotes.js';
import type { TransactionKind, TransactionRecord, TransactionRefund } from './state/anchor.js';
import type { CustomerRecord, MerchantRecord, OrderRecord } from './store.js';
import { addVolume, checkLimits, MIN_CRYPTO_USDC, MIN_FIAT_GHS } from './volume.js';
import { enqueueDelivery } from './webhooks/deliver.js';

export type { TransactionKind, TransactionRecord, TransactionRefund } from './state/anchor.js';
// Tests name the asset through this module.
export { usdcAsset } from './quotes.js';

/** An unfinished form expires after this long, seconds (design.md section 4). */
export const INCOMPLETE_TTL_SECONDS = 30 * 60;
/** A withdrawal whose USDC has not arrived this long after the form expires, seconds. */
export const TRANSFER_WINDOW_SECONDS = 30 * 60;
/** How long the anchor takes to submit the USDC once the cedis arrived, seconds. */
export const SUBMIT_DELAY_SECONDS = 2;
/** How long the anchor takes to start the payout once the USDC arrived, seconds. */
export const PAYOUT_START_DELAY_SECONDS = 2;
const GHS_ASSET = 'iso4217:GHS';

const PHONE = /^\+\d{7,15}$/;

// A status of the other kind has no row in a kind's table, so it is refused like any other.
const machineOf = (tx: TransactionRecord) => TRANSACTION_MACHINES[tx.kind] as Machine<TransactionStatus, TransactionEvent>;

/** The status `event` leads to from the transaction's status; 409 INVALID_STATE where its table has no row. */
const next = (tx: TransactionRecord, event: TransactionEvent): TransactionStatus => transition(machineOf(tx), tx.status, event);

/** Whether the transaction's table has a row for `event` in its status. */
const can = (tx: TransactionRecord, event: TransactionEvent) => canTransition(machineOf(tx), tx.status, event);

const distributionKeys = new WeakMap<Keypair, Keypair>();

/**
 * The anchor's distribution account: it sends the USDC of deposits and receives the USDC of
 * withdrawals (`withdraw_anchor_account`). Derived from the SEP-10 signing key, which itself
 * holds no funds, as SEP-10 recommends.
 */
export function anchorAccount(ctx: MockContext): string {
  let keys = distributionKeys.get(ctx.anchorKeypair);
  if (!keys) {
    keys = Keypair.fromRawEd25519Seed(hash(new Uint8Array([...ctx.anchorKeypair.rawSecretKey(), ...new TextEncoder().encode('distribution')])));
    distributionKeys.set(ctx.anchorKeypair, keys);
  }
  return keys.publicKey();
}

/** The page that shows a transaction's status (SEP-24 `more_info_url`), served by handlers/interactive. */
export const moreInfoUrl = (ctx: MockContext, tx: TransactionRecord) =>
  `${ctx.urls.interactive}/transaction?id=${encodeURIComponent(tx.id)}`;

export interface CreateTransactionInput {
  kind: TransactionKind;
  /** Null for a direct anchor client on the test network. */
  merchant: MerchantRecord | null;
  /** Must be ACCEPTED (the caller checks); null on the test network without a `user_id`. */
  customer: CustomerRecord | null;
  /** The SEP-10 account making the request. */
  account: string;
  /** GHS for a deposit, USDC for a withdrawal; checked against the limits now when given. */
  amount?: number;
  /** Deposit only: where the USDC goes. */
  destination_address?: string;
  /** Withdrawal only: the wallet the USDC is to come from (SEP-24 `from`), when known. */
  source_account?: string;
  /** The SEP-38 quote that prices it (checked by the caller with quoteForRequest). */
  quote_id?: string;
  /** A merchant's session and public key, from the request's merchant fields. */
  merchant_session?: { session_id: string; api_key: string };
  /** Page language, default `en`. */
  lang?: string;
  /** Origins the page may post its status to. */
  embed_origins?: string[];
}

/**
 * Starts an interactive transaction in `incomplete` and returns it with the page's URL
 * (`{interactive_url}?token=…`). The token is single-use: it stops working once the form is
 * finished or the transaction expires (30 minutes of clock time). Throws 422
 * AMOUNT_OUT_OF_RANGE for an amount outside the limits.
 */
export async function createTransaction(
  ctx: MockContext,
  input: CreateTransactionInput,
): Promise<{ transaction: TransactionRecord; url: string }> {
  const now = ctx.clock.now();
  const tx: TransactionRecord = {
    id: ctx.random.uuid(),
    kind: input.kind,
    status: 'incomplete',
    merchant_id: input.merchant?.id ?? null,
    customer_id: input.customer?.id ?? null,
    account: input.account,
    asset_code: 'USDC',
    requested_amount: input.amount ?? null,
    destination_address: input.kind === 'deposit' ? (input.destination_address ?? null) : null,
    lang: input.lang ?? 'en',
    embed_origins: input.embed_origins ?? [],
    token_hash: null,
    quote: null,
    quote_id: input.quote_id ?? null,
    merchant_session: input.merchant_session ?? null,
    provider: null,
    phone: null,
    verified_phone: null,
    withdraw_anchor_account: null,
    withdraw_memo: null,
    source_account: input.kind === 'withdrawal' ? (input.source_account ?? null) : null,
    collection_id: null,
    payout_id: null,
    payout_attempts: 0,
    refunds: [],
    stellar_transaction_id: null,
    external_transaction_id: null,
    message: null,
    order_id: null,
    started_at: now,
    updated_at: now,
    completed_at: null,
  };
  if (input.amount !== undefined) {
    const quote = priceFor(ctx, tx, checkAmount(input.amount));
    checkLimits(ctx, limitTerms(ctx, tx), { fiat: quote.fiat_amount, crypto: quote.crypto_amount });
  }
  const token = ctx.secrets.hex(24);
  tx.token_hash = await sha256Hex(token);
  ctx.store.anchor.transactions.set(tx.id, tx);
  ctx.store.anchor.tokens.set(tx.token_hash, tx.id);
  ctx.clock.schedule(now + INCOMPLETE_TTL_SECONDS * 1000, () => {
    const t = ctx.store.anchor.transactions.get(tx.id);
    if (t?.status === 'incomplete') end(ctx, t, 'expire', `The interactive form was not finished within ${INCOMPLETE_TTL_SECONDS / 60} minutes.`);
  });
  return { transaction: tx, url: `${ctx.urls.interactive}?token=${token}` };
}

/** The transaction with this id, or undefined. */
export function findTransaction(ctx: MockContext, id: string): TransactionRecord | undefined {
  return ctx.store.anchor.transactions.get(id);
}

/**
 * The transaction an interactive page token opens. An unknown token, or one already used
 * (the form was finished) or expired (the transaction expired), gives undefined.
 */
export async function findTransactionByToken(ctx: MockContext, token: string): Promise<TransactionRecord | undefined> {
  if (!token) return undefined;
  const id = ctx.store.anchor.tokens.get(await sha256Hex(token));
  const tx = id ? ctx.store.anchor.transactions.get(id) : undefined;
  return tx?.status === 'incomplete' ? tx : undefined;
}

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
    ...(deposit
      ? { from: tx.phone, to: tx.destination_address }
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

/** SEP-24's `fee_details`: the total in cedis and what it is made of (the spread is in the rate, not a fee). */
function feeDetails(q: Quote) {
  return {
    total: q.fees.total.toFixed(2),
    asset: GHS_ASSET,
    details: [
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

/**
 * Sends a one-time password to `phone` for this transaction (readable in test mode through
 * `GET /_mock/otp?phone=`). Only while the form is open (409 INVALID_STATE otherwise); a
 * phone not written as `+` and 7–15 digits is 400 VALIDATION_ERROR.
 */
export function sendInteractiveOtp(ctx: MockContext, tx: TransactionRecord, phone: string): { phone: string; expires_at: string } {
  next(tx, 'complete_form');
  const number = checkPhone(phone);
  const otp = sendOtp(ctx, number, otpPurpose(tx));
  return { phone: otp.phone, expires_at: iso(otp.expires_at) };
}

/**
 * Checks the code sent by {@link sendInteractiveOtp} and remembers the phone as verified
 * (for this transaction, and on the customer's record). A wrong, expired or used code is 422
 * VALIDATION_ERROR; a code sent to another number 422 PHONE_NOT_VERIFIED.
 */
export function verifyInteractivePhone(ctx: MockContext, tx: TransactionRecord, phone: string, code: string): TransactionRecord {
  next(tx, 'complete_form');
  const number = checkPhone(phone);
  const otp = checkOtp(ctx, otpPurpose(tx), code);
  if (otp.phone !== number) throw new HttpError(422, 'PHONE_NOT_VERIFIED', 'the code was sent to another number');
  tx.verified_phone = number;
  const customer = tx.customer_id ? ctx.store.customers.get(tx.customer_id) : undefined;
  if (customer && !customer.verified_phones.includes(number)) customer.verified_phones.push(number);
  return tx;
}

export interface CompleteInteractiveInput {
  /** A provider id (`mtn`, `telecel`, `airteltigo`) or its display name. */
  provider: string;
  /** The Mobile Money number, `+` and country code. */
  phone: string;
  /** The code sent to `phone`; not needed when the phone was verified before. */
  otp_code?: string;
  /** GHS for a deposit, USDC for a withdrawal; default: the amount of the request. */
  amount?: number;
  /** Deposit: the Stellar account to receive the USDC; default: the one of the request. */
  destination_address?: string;
}

/**
 * Checks a finished form without changing anything: the transition, provider, phone, amount,
 * destination, the customer's KYC and the limits. Throws the error the customer would see.
 */
export function checkCompletion(ctx: MockContext, tx: TransactionRecord, input: Omit<CompleteInteractiveInput, 'otp_code'>) {
  const provider = parseProvider(input.provider ?? '');
  if (!provider) throw badRequest(`provider: must be one of ${Object.keys(PROVIDERS).join(', ')}`);
  const phone = checkPhone(input.phone);
  const amountValue = input.amount ?? tx.requested_amount;
  if (amountValue === null || amountValue === undefined) throw badRequest('amount: is required');
  const amount = checkAmount(amountValue);
  let destination: string | null = null;
  if (tx.kind === 'deposit') {
    destination = input.destination_address?.trim() || tx.destination_address;
    if (!destination) throw badRequest('destination_address: is required');
    if (!isStellarAccount(destination)) throw badRequest('destination_address: must be a Stellar account (G… or M…)');
  }
  // The input is judged first (400), whatever the state: the same bad request always gets the same answer.
  const status = next(tx, 'complete_form');
  const customer = tx.customer_id ? ctx.store.customers.get(tx.customer_id) : undefined;
  if (tx.customer_id && customer?.status !== 'ACCEPTED') {
    throw new HttpError(403, 'KYC_NOT_APPROVED', `customer KYC status is ${customer?.status ?? 'deleted'}, not ACCEPTED`);
  }
  const quote = priceFor(ctx, tx, amount);
  checkLimits(ctx, limitTerms(ctx, tx), { fiat: quote.fiat_amount, crypto: quote.crypto_amount });
  return { status, provider, phone, destination, customer, quote };
}

/**
 * Finishes the form as the customer does on the page: checks the phone (the OTP when given,
 * else an earlier verification), the customer's KYC, the amount against the limits, fixes
 * the price, and moves `incomplete` -> `pending_user_transfer_start`. A deposit then sends
 * the Mobile Money prompt; a withdrawal shows `withdraw_anchor_account` and `withdraw_memo`.
 * A merchant's transaction gets its `ord_` order here. The token is used from now on.
 *
 * Refusals change nothing: 409 INVALID_STATE (not `incomplete`), 400 VALIDATION_ERROR
 * (provider, phone, amount, address), 403 KYC_NOT_APPROVED, 422 AMOUNT_OUT_OF_RANGE,
 * 422 PHONE_NOT_VERIFIED, 422 VALIDATION_ERROR (wrong code).
 */
export async function completeInteractive(
  ctx: MockContext,
  tx: TransactionRecord,
  input: CompleteInteractiveInput,
): Promise<TransactionRecord> {
  const { status, provider, phone, destination, customer, quote } = checkCompletion(ctx, tx, input);
  if (input.otp_code !== undefined) {
    verifyInteractivePhone(ctx, tx, phone, input.otp_code);
  } else if (tx.verified_phone !== phone && !customer?.verified_phones.includes(phone)) {
    throw new HttpError(422, 'PHONE_NOT_VERIFIED', 'phone number not OTP-verified; send a code and enter it');
  }

  const now = ctx.clock.now();
  tx.status = status;
  tx.updated_at = now;
  tx.quote = quote;
  tx.provider = provider;
  tx.phone = phone;
  tx.destination_address = destination;
  if (tx.token_hash) ctx.store.anchor.tokens.delete(tx.token_hash);
  tx.token_hash = null;
  recordOrder(ctx, tx);

  if (tx.kind === 'deposit') {
    const collection = startCollection(ctx, {
      merchant_id: tx.merchant_id ?? '',
      owner: { kind: 'transaction', id: tx.id },
      provider,
      phone,
      amount: quote.fiat_amount,
    });
    tx.collection_id = collection.id;
    return tx;
  }
  tx.withdraw_anchor_account = anchorAccount(ctx);
  // An id memo (a uint64 without leading zero) that every wallet can attach.
  tx.withdraw_memo = `${1 + ctx.random.int(9)}${ctx.random.digits(11)}`;
  ctx.clock.schedule(now + TRANSFER_WINDOW_SECONDS * 1000, () => {
    const t = ctx.store.anchor.transactions.get(tx.id);
    if (t?.status === 'pending_user_transfer_start') {
      end(ctx, t, 'expire', `No USDC with memo ${t.withdraw_memo} arrived within ${TRANSFER_WINDOW_SECONDS / 60} minutes.`);
    }
  });
  const auto = ctx.options.autoAdvance;
  if (auto && auto.walletPays) {
    // Auto-advance plays the customer too: their wallet sends the USDC with the memo.
    ctx.clock.schedule(now + auto.chainSeconds * 1000, async () => {
      const t = ctx.store.anchor.transactions.get(tx.id);
      if (t?.status !== 'pending_user_transfer_start' || !t.quote) return;
      await receivePayment(ctx, {
        from: Keypair.fromRawEd25519Seed(ctx.random.bytes(32)).publicKey(),
        to: anchorAccount(ctx),
        amount: t.quote.crypto_amount.toFixed(2),
        asset_code: 'USDC',
        memo: t.withdraw_memo,
      });
    });
  }
  return tx;
}

/**
 * Lets the rails report to transactions: Mobile Money prompts and payouts, inbound USDC
 * (a withdrawal's, by memo) and outbound USDC confirmed (a deposit's delivery or a refund).
 * Called once when the handlers are created.
 */
export function registerTransactionHooks(ctx: MockContext): void {
  const get = (id: string) => ctx.store.anchor.transactions.get(id);
  ctx.hooks.collection.set('transaction', (c: CollectionRecord) => {
    const tx = get(c.owner.id);
    if (!tx) return;
    tx.external_transaction_id = c.provider_ref;
    if (c.status === 'approved') {
      move(ctx, tx, 'prompt_approved');
      scheduleSubmit(ctx, tx.id);
      return;
    }
    if (c.status === 'declined') end(ctx, tx, 'prompt_declined', 'The customer declined the Mobile Money prompt.');
    else end(ctx, tx, 'prompt_timed_out', 'The Mobile Money prompt was not answered in time.');
  });
  ctx.hooks.sendConfirmed.set('transaction', (p: StellarPaymentRecord) => {
    const tx = p.matched ? get(p.matched.id) : undefined;
    if (!tx) return;
    const refund = tx.refunds.find((r) => r.stellar_transaction_id === p.hash);
    if (refund) refund.status = 'completed';
    else end(ctx, tx, 'payment_confirmed', null);
  });
  ctx.hooks.stellarPayment.set('transaction', (p: StellarPaymentRecord) => {
    if (p.to !== anchorAccount(ctx) || p.asset_code !== 'USDC' || !p.memo) return undefined;
    const withMemo = [...ctx.store.anchor.transactions.values()].filter((t) => t.kind === 'withdrawal' && t.withdraw_memo === p.memo);
    const tx = withMemo.find((t) => can(t, 'usdc_received')) ?? withMemo.at(-1);
    if (!tx?.quote) return undefined;
    if (can(tx, 'usdc_received') && toStroops(p.amount) === toStroops(tx.quote.crypto_amount)) {
      tx.stellar_transaction_id = p.hash;
      tx.source_account = p.from;
      move(ctx, tx, 'usdc_received');
      schedulePayout(ctx, tx.id);
      return tx.id;
    }
    const reason = can(tx, 'usdc_received')
      ? `expected exactly ${tx.quote.crypto_amount.toFixed(2)} USDC, received ${p.amount}`
      : `USDC arrived when the transaction was ${tx.status}`;
    move(ctx, tx, 'usdc_refused');
    refund(ctx, tx, p, reason);
    return tx.id;
  });
  ctx.hooks.payout.set('transaction', (p: PayoutRecord) => {
    const tx = get(p.owner.id);
    if (!tx) return;
    tx.external_transaction_id = p.provider_ref;
    if (p.status === 'succeeded') return end(ctx, tx, 'payout_confirmed', null);
    const reason = p.failure_reason ?? 'unknown reason';
    if (tx.payout_attempts < MAX_ATTEMPTS) {
      move(ctx, tx, 'payout_failed');
      ctx.clock.schedule(ctx.clock.now() + RETRY_DELAY_SECONDS * 1000, () => {
        const t = get(tx.id);
        if (t && can(t, 'retry_payout')) startPayoutAttempt(ctx, t, 'retry_payout');
      });
      return;
    }
    const received = tx.stellar_transaction_id ? ctx.store.stellar.payments.get(tx.stellar_transaction_id) : undefined;
    if (!received) throw new Error(`transaction ${tx.id} failed its payout with no USDC received to send back`);
    end(ctx, tx, 'payouts_exhausted', `The Mobile Money payout failed after ${MAX_ATTEMPTS} attempts: ${reason}. The USDC was sent back.`);
    // The table moves into `error` once, so the USDC goes back exactly once.
    refund(ctx, tx, received, 'the Mobile Money payout failed');
  });
}

function scheduleSubmit(ctx: MockContext, id: string) {
  ctx.clock.schedule(ctx.clock.now() + SUBMIT_DELAY_SECONDS * 1000, () => {
    const tx = ctx.store.anchor.transactions.get(id);
    if (tx?.status !== 'pending_anchor' || !tx.quote || !tx.destination_address) return;
    move(ctx, tx, 'submit_payment');
    const payment = sendPayment(
      ctx,
      { kind: 'transaction', id },
      { from: anchorAccount(ctx), to: tx.destination_address, amount: tx.quote.crypto_amount.toFixed(2), memo: null },
    );
    tx.stellar_transaction_id = payment.hash;
  });
}

function schedulePayout(ctx: MockContext, id: string) {
  ctx.clock.schedule(ctx.clock.now() + PAYOUT_START_DELAY_SECONDS * 1000, () => {
    const tx = ctx.store.anchor.transactions.get(id);
    if (tx && can(tx, 'start_payout')) startPayoutAttempt(ctx, tx, 'start_payout');
  });
}

/** Starts a Mobile Money payout of the quoted cedis: the first attempt, or a retry after a failed one. */
function startPayoutAttempt(ctx: MockContext, tx: TransactionRecord, event: 'start_payout' | 'retry_payout') {
  if (!tx.quote || !tx.provider || !tx.phone) throw new Error(`transaction ${tx.id} has no payout details`);
  move(ctx, tx, event);
  tx.payout_attempts++;
  const payout = startPayout(ctx, {
    merchant_id: tx.merchant_id ?? '',
    owner: { kind: 'transaction', id: tx.id },
    provider: tx.provider,
    phone: tx.phone,
    amount: tx.quote.fiat_amount,
  });
  tx.payout_id = payout.id;
}

/** Sends the USDC of `payment` back to the wallet it came from, in full, and lists it on the transaction. */
function refund(ctx: MockContext, tx: TransactionRecord, payment: StellarPaymentRecord, reason: string) {
  const back = sendPayment(ctx, { kind: 'transaction', id: tx.id }, { from: payment.to, to: payment.from, amount: payment.amount, memo: null });
  const entry: TransactionRefund = { stellar_transaction_id: back.hash, refunded_payment: payment.hash, amount: payment.amount, reason, status: 'pending' };
  tx.refunds.push(entry);
}

/** Applies `event` through the table (refused when it has no row) and mirrors it on the order. */
function move(ctx: MockContext, tx: TransactionRecord, event: TransactionEvent) {
  tx.status = next(tx, event);
  tx.updated_at = ctx.clock.now();
  const order = tx.order_id ? ctx.store.orders.get(tx.order_id) : undefined;
  if (order) order.status = orderStatus(tx.status);
}

/** Moves into a final status: volume, order and webhook follow, exactly once (the table allows one final move). */
function end(ctx: MockContext, tx: TransactionRecord, event: TransactionEvent, message: string | null) {
  move(ctx, tx, event);
  if (message !== null) tx.message = message;
  if (tx.token_hash) ctx.store.anchor.tokens.delete(tx.token_hash);
  tx.token_hash = null;
  const merchant = tx.merchant_id ? ctx.store.merchants.get(tx.merchant_id) : undefined;
  if (tx.status === 'completed') {
    tx.completed_at = tx.updated_at;
    if (merchant && tx.quote) addVolume(ctx, merchant, tx.quote.fiat_amount);
  }
  const order = tx.order_id ? ctx.store.orders.get(tx.order_id) : undefined;
  if (!merchant || !order) return;
  const event_name = ORDER_EVENTS[tx.status];
  if (!event_name || !merchant.webhook.url) return;
  enqueueDelivery(ctx, {
    kind: 'order',
    event: event_name,
    merchantId: merchant.id,
    url: merchant.webhook.url,
    payload: {
      event: event_name,
      order_id: order.id,
      type: order.type,
      fiat_amount: order.fiat_amount.toFixed(2),
      fiat_currency: order.fiat_currency,
      crypto_amount: order.crypto_amount.toFixed(2),
      crypto_currency: order.crypto_currency,
      destination_address: order.destination_address,
      timestamp: iso(ctx.clock.now()),
    },
  });
}

/** The order webhook each final status sends (000 section 6). */
const ORDER_EVENTS: Partial<Record<TransactionStatus, string>> = {
  completed: 'order.completed',
  error: 'order.failed',
  expired: 'order.expired',
};

/** The order list's status for a transaction status: pending, processing, then completed, failed or expired. */
export function orderStatus(status: TransactionStatus): string {
  switch (status) {
    case 'incomplete':
    case 'pending_user_transfer_start':
      return 'pending';
    case 'completed':
      return 'completed';
    case 'expired':
      return 'expired';
    case 'error':
      return 'failed';
    default:
      return 'processing';
  }
}

function recordOrder(ctx: MockContext, tx: TransactionRecord) {
  if (!tx.merchant_id || !tx.quote) return;
  const deposit = tx.kind === 'deposit';
  const order: OrderRecord = {
    id: `ord_${ctx.random.uuid()}`,
    merchant_id: tx.merchant_id,
    status: orderStatus(tx.status),
    type: deposit ? 'onramp' : 'offramp',
    fiat_currency: 'GHS',
    fiat_amount: tx.quote.fiat_amount,
    crypto_currency: 'USDC',
    crypto_amount: tx.quote.crypto_amount,
    payment_method: 'mobile_money',
    // Where the USDC goes: the customer's wallet (buy) or the anchor's account (sell).
    destination_address: deposit ? tx.destination_address : anchorAccount(ctx),
    transaction_id: tx.id,
    created_at: iso(ctx.clock.now()),
    seq: ctx.store.seq++,
  };
  ctx.store.orders.set(order.id, order);
  tx.order_id = order.id;
}

function feeTerms(ctx: MockContext, tx: TransactionRecord): FeeTerms {
  return (tx.merchant_id ? ctx.store.merchants.get(tx.merchant_id) : undefined) ?? DIRECT_FEES;
}

/** A direct client has the starter limits per transaction and no volume count. */
function limitTerms(ctx: MockContext, tx: TransactionRecord): Pick<MerchantRecord, 'limits' | 'daily_volume'> {
  return (tx.merchant_id ? ctx.store.merchants.get(tx.merchant_id) : undefined) ?? { limits: ctx.options.limits, daily_volume: {} };
}

function priceFor(ctx: MockContext, tx: TransactionRecord, amount: number): Quote {
  const quoted = priceAtQuote(ctx, tx, amount);
  if (quoted) return quoted;
  const terms = feeTerms(ctx, tx);
  return tx.kind === 'deposit' ? quoteBuy(ctx, terms, amount) : quoteSell(ctx, terms, amount);
}

function checkAmount(amount: number): number {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) throw badRequest('amount: must be a positive number');
  return amount;
}

function checkPhone(phone: string): string {
  const number = typeof phone === 'string' ? phone.replace(/[\s-]/g, '') : '';
  if (!PHONE.test(number)) throw badRequest('phone: must be a number with country code, e.g. +233201234567');
  return number;
}

const otpPurpose = (tx: TransactionRecord) => `interactive:${tx.id}`;

/** A Stellar account address: `G…` or a muxed `M…`. */
export const isStellarAccount = (value: string) =>
  StrKey.isValidEd25519PublicKey(value) || StrKey.isValidMed25519PublicKey(value);

/** State of the anchor surface; part of the one store (see ../store.ts). */
import type { TransactionStatus } from '../machines/transaction.js';
import type { ProviderId, Quote, QuoteRecord, TransactionKind } from '../types.js';

export type { TransactionKind } from '../types.js';

/** USDC the anchor sent back to the wallet it came from (a withdrawal's SEP-24 `refunds`). */
export interface TransactionRefund {
  /** Hash of the Stellar payment sending it back (SEP-24 `refunds.payments[].id`). */
  stellar_transaction_id: string;
  /** Hash of the inbound payment it returns. */
  refunded_payment: string;
  /** USDC, the inbound payment's amount as written on the ledger (in full: no fee is kept). */
  amount: string;
  /** Why the USDC went back, e.g. `the Mobile Money payout failed`. */
  reason: string;
  /** `completed` once the payment back is confirmed on the ledger. */
  status: 'pending' | 'completed';
}

/** An interactive (SEP-24) transaction, started at the anchor or through the widget backend. */
/** A Stellar memo as SEP-24 names one: its type and its value (a hash in base64). */
export interface StellarMemo {
  type: 'id' | 'text' | 'hash';
  value: string;
}

export interface TransactionRecord {
  /** UUID, the `id` of GET /transaction. */
  id: string;
  kind: TransactionKind;
  status: TransactionStatus;
  /** The merchant it is for; null for a direct anchor client on the test network (no order, no webhook). */
  merchant_id: string | null;
  /** The KYC'd customer (`user_id`); null when a test-network request named none. */
  customer_id: string | null;
  /** The SEP-10 account that started it (`G…`, `M…`, or `G…:memo`). */
  account: string;
  asset_code: 'USDC';
  /** Amount asked for in the request: GHS for a deposit, USDC for a withdrawal; null: the customer enters it. */
  requested_amount: number | null;
  /** Deposit: the Stellar account that receives the USDC; null until known. */
  destination_address: string | null;
  /** Language of the interactive page, e.g. `en`. */
  lang: string;
  /** Origins the interactive page may post status messages to (the public key's allowed domains). */
  embed_origins: string[];
  /** SHA-256 of the interactive token; null once the form is finished (the token is then used). */
  token_hash: string | null;
  /** Price fixed when the form is finished. */
  quote: Quote | null;
  /** The SEP-38 quote it is priced at (SEP-24 `quote_id`), or null. */
  quote_id: string | null;
  /**
   * The session and public key of a merchant's request (its merchant fields): the
   * interactive page confirms the order with them at POST /api/v1/widget/orders.
   */
  merchant_session: { session_id: string; api_key: string } | null;
  provider: ProviderId | null;
  /** The Mobile Money number paying (deposit) or paid (withdrawal). */
  phone: string | null;
  /** A phone that passed OTP for this transaction. */
  verified_phone: string | null;
  /** Withdrawal: where the customer sends the USDC, and the memo that identifies the transfer. */
  withdraw_anchor_account: string | null;
  withdraw_memo: string | null;
  /** Deposit: the memo the USDC payment carries (SEP-24 `memo`, or the SEP-10 memo of a shared account); absent: none. */
  deposit_memo?: StellarMemo | null;
  /** Withdrawal: the memo refunds carry (SEP-24 `refund_memo`); absent: the memo the USDC came with. */
  refund_memo?: StellarMemo | null;
  /** Withdrawal: the wallet the USDC comes from: the request's `account` (or the signed-in one) from the start, then the one it came from. */
  source_account: string | null;
  collection_id: string | null;
  /** Withdrawal: the newest Mobile Money payout attempt. */
  payout_id: string | null;
  /** Withdrawal: payout attempts started so far. */
  payout_attempts: number;
  /** Withdrawal: USDC sent back, oldest first. */
  refunds: TransactionRefund[];
  /** Hash of the Stellar payment (USDC sent out, or received). */
  stellar_transaction_id: string | null;
  /** The Mobile Money provider's reference. */
  external_transaction_id: string | null;
  /** Why it ended in `error` or `expired`. */
  message: string | null;
  /** The `ord_` order recorded once the form is finished (merchant transactions only). */
  order_id: string | null;
  /** ms since epoch. */
  started_at: number;
  updated_at: number;
  completed_at: number | null;
}

export function createAnchorState() {
  return {
    transactions: new Map<string, TransactionRecord>(),
    /** Interactive token hash -> transaction id. */
    tokens: new Map<string, string>(),
    /** SEP-10 challenges already exchanged for a token: transaction hash -> when it stops mattering (ms). */
    usedChallenges: new Map<string, number>(),
    /** SEP-38 firm quotes by id (../quotes.ts). */
    quotes: new Map<string, QuoteRecord>(),
    /** `<merchant id> <X-Idempotency-Key>` of POST /api/v1/widget/orders -> the transaction it confirmed. */
    orderKeys: new Map<string, string>(),
  };
}

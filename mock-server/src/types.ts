/**
 * Record types the shared rails and the store's surfaces all speak of. They import nothing of
 * the mock, so the store, the context and the rails can each name them without a circle.
 */

/** What can own a Mobile Money prompt, a payout or a Stellar payment. */
export type OwnerKind = 'transaction' | 'ramp_order';

/** The three supported providers (000 section 1); mobile-money.ts holds their display names. */
export type ProviderId = 'mtn' | 'telecel' | 'airteltigo';

/** SEP-24 `kind`: buying USDC is a `deposit`, selling it a `withdrawal`. */
export type TransactionKind = 'deposit' | 'withdrawal';

export interface Owner {
  kind: OwnerKind;
  id: string;
  /** Another name control calls may use for the owner, e.g. a ramp order's reference. */
  reference?: string;
}

/** What a prompt and a payout share: who started it, whose phone, how much. */
export interface RailRecord {
  id: string;
  merchant_id: string;
  owner: Owner;
  provider: ProviderId;
  phone: string;
  /** GHS. */
  amount: number;
  /** The provider's reference for the payment. */
  provider_ref: string;
  created_at: string;
  settled_at?: string;
}

export interface CollectionRecord extends RailRecord {
  status: 'pending' | 'approved' | 'declined' | 'timed_out';
}

export interface PayoutRecord extends RailRecord {
  status: 'pending' | 'succeeded' | 'failed';
  failure_reason?: string;
}

export interface StellarPaymentRecord {
  /** Stellar transaction hash (64 hex). */
  hash: string;
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  /** USDC, as a decimal string with up to 7 places, as Stellar writes amounts. */
  amount: string;
  asset_code: string;
  memo: string | null;
  status: 'pending' | 'confirmed' | 'failed';
  /** What the payment settled: the first owner whose hook claimed it. */
  matched: { kind: OwnerKind; id: string } | null;
  created_at: string;
}

export interface OtpRecord {
  id: string;
  phone: string;
  /** What the code proves, e.g. `ramp_kyc:<kyc_id>` or `interactive:<transaction id>`. */
  purpose: string;
  code: string;
  /** ms since epoch. */
  expires_at: number;
  attempts: number;
  used: boolean;
  created_at: string;
}

export interface Quote {
  direction: 'buy' | 'sell';
  /** GHS per USDC, spread included. */
  rate: number;
  /** GHS the customer pays (buy) or receives (sell). */
  fiat_amount: number;
  /** USDC the customer receives (buy) or sends (sell). */
  crypto_amount: number;
  fees: {
    /** Platform fee, GHS. */
    platform_fee: number;
    /** Network fee, GHS. */
    network_fee: number;
    /** Sum of the fees, GHS. */
    total: number;
    /** fee_base_bps + fee_markup_bps. */
    fee_bps: number;
  };
}

/** A firm quote, as POST /quote made it. */
export interface QuoteRecord {
  id: string;
  /** The SEP-10 token's `sub` that asked for it: the only client that reads or uses it. */
  account: string;
  /** The merchant whose fees price it; null for a direct client (starter fees). */
  merchant_id: string | null;
  /** `deposit`: GHS sold for USDC; `withdrawal`: USDC sold for GHS. */
  kind: TransactionKind;
  /** The price, as a transaction priced at this quote takes it. */
  price: Quote;
  /** ms since epoch, clock time. */
  created_at: number;
  expires_at: number;
  /** The delivery methods the request named (SEP-38 repeats them in the quote). */
  sell_delivery_method?: string;
  buy_delivery_method?: string;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'exhausted';

/** One POST of a webhook delivery, as sent and as answered (webhooks/deliver.ts). */
export interface DeliveryAttempt {
  /** ISO 8601 time the attempt was sent (clock time). */
  at: string;
  /** Sent on request (a redelivery or the checkout retry route), outside the schedule. */
  manual: boolean;
  /** The request as sent: its headers (signature and timestamp of this attempt) and raw body. */
  request: { headers: Record<string, string>; body: string };
  /** HTTP status the receiver answered, if it answered. */
  status?: number;
  /** The receiver's answer, if it answered: its headers and the start of its body. */
  response?: { headers: Record<string, string>; body: string; truncated: boolean };
  /** Why the attempt failed without an answer (refused, timed out, the handler threw). */
  error?: string;
  /** Wall-clock milliseconds from sending to the answer or the failure (a manual clock stands still meanwhile). */
  duration_ms: number;
  /** ISO 8601 clock time of the retry this attempt's failure scheduled; null when none follows. */
  next_attempt_at: string | null;
}

export interface DeliveryRecord {
  id: string;
  /** Which scheme signs it: order and ramp payment webhooks, or checkout webhooks. */
  kind: 'order' | 'ramp_payment' | 'checkout';
  event: string;
  /** Stable across attempts and manual retries: the receiver's de-duplication key. */
  event_id: string;
  merchant_id: string;
  /** Checkout only: the subscribed endpoint whose secret signs it. */
  endpoint_id: string | null;
  url: string;
  body: string;
  attempts: DeliveryAttempt[];
  state: DeliveryState;
  /** ISO 8601 time of the next scheduled attempt, while pending. */
  next_attempt_at: string | null;
  created_at: string;
  /** Sent by `control.webhooks.fire`, not by a change of the record it tells of. */
  fired: boolean;
}

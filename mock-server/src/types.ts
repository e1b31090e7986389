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
}

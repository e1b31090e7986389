/**
 * All of the mock's state, in one object of Maps keyed by id. Every surface reads the same
 * store, so a customer created at the widget backend is the one the anchor sees, an
 * interactive transaction shows up in the merchant's order list, and so on.
 *
 * Handlers read `ctx.store` on every request (never a copy), because `reset()` swaps it.
 */
import { createAnchorState } from './state/anchor.js';
import { createCheckoutState } from './state/checkout.js';
import { IndexedMap, keyHash } from './state/indexed-map.js';
import { createRampState } from './state/ramp.js';
import type { CollectionRecord, DeliveryRecord, OtpRecord, PayoutRecord, StellarPaymentRecord } from './types.js';

export type MerchantStatus = 'pending' | 'active';
export type KybStatus = 'not_submitted' | 'submitted' | 'approved' | 'rejected';

export interface MerchantLimits {
  /** Largest single transaction, GHS. */
  maxPerTransaction: number;
  /** Volume allowed per calendar day (UTC), GHS. */
  daily: number;
  /** `monthly_volume_limit`, GHS. */
  monthly: number;
}

export interface MerchantRecord {
  id: string;
  name: string;
  legal_name: string;
  email: string;
  /** scrypt (or PBKDF2 in a browser) hash; the password itself is never kept. */
  password_hash: string;
  status: MerchantStatus;
  tier: string;
  fee_base_bps: number;
  fee_markup_bps: number;
  limits: MerchantLimits;
  current_month_volume: number;
  /** Volume per UTC day, `YYYY-MM-DD` -> GHS. */
  daily_volume: Record<string, number>;
  stellar_public_key: string;
  /** The merchant's Stellar secret seed: the widget backend signs SEP-10 challenges with it. */
  stellar_secret: string;
  is_test_mode: boolean;
  created_at: string;
  updated_at: string;
  kyb: {
    status: KybStatus;
    submitted_at?: string;
    reviewed_at?: string;
    rejection_reason?: string;
    submission?: { registration_number: string; country: string; documents: { type: string; url: string }[] };
  };
  widget_config: {
    theme: { primary_color: string; border_radius: string };
    allowed_coins: string[];
    redirect_url: string | null;
  };
  webhook: {
    url: string | null;
    secret: string | null;
    /** After a rotation the old secret keeps signing-verification valid until `previous_expires_at` (ms). */
    previous_secret?: string;
    previous_expires_at?: number;
  };
  /** Activated for the ramp order API by the operator (control call). */
  ramp_enabled: boolean;
}

export interface ApiKeyRecord {
  id: string;
  merchant_id: string;
  key_type: 'public' | 'secret';
  key_prefix: string;
  /** SHA-256 of the full key; the key text itself is shown once and never stored. */
  key_hash: string;
  allowed_domains: string[];
  allowed_ips: string[];
  permissions: string[];
  rate_limit_rpm: number;
  is_active: boolean;
  created_at: string;
  revoked_at?: string;
}

export type CustomerStatus = 'ACCEPTED' | 'PROCESSING' | 'NEEDS_INFO' | 'REJECTED';

export interface CustomerRecord {
  id: string;
  /**
   * The merchant it belongs to. Null for a customer made at the anchor without merchant
   * fields, until the first merchant that presents it with its secret key adopts it.
   */
  merchant_id: string | null;
  /** The SEP-10 `sub` (`G…`, `M…` or `G…:memo`) that created it at the anchor; null when made at the widget backend. */
  account: string | null;
  fields: Record<string, string>;
  status: CustomerStatus;
  /** Phone numbers that passed OTP verification. */
  verified_phones: string[];
  created_at: string;
  updated_at: string;
}

export interface SessionRecord {
  session_id: string;
  session_token: string;
  merchant_id: string;
  user_id: string;
  /** ms since epoch. */
  expires_at: number;
}

/** An `ord_` order as the merchant's order list shows it. */
export interface OrderRecord {
  id: string;
  merchant_id: string;
  status: string;
  type: 'onramp' | 'offramp';
  fiat_currency: 'GHS';
  fiat_amount: number;
  crypto_currency: 'USDC';
  crypto_amount: number;
  payment_method: 'mobile_money';
  destination_address: string | null;
  transaction_id: string | null;
  created_at: string;
  /** Insertion order, for stable cursor paging. */
  seq: number;
}

// The webhook delivery records live beside the other shared record types.
export type { DeliveryAttempt, DeliveryRecord, DeliveryState } from './types.js';

/**
 * The requests a rate-limit bucket admitted within its window, oldest first: `times[head]`
 * onwards. Expired times are skipped by moving `head`, and the array is compacted now and
 * then, so that a request costs the same however many the window holds.
 */
export interface RateWindow {
  times: number[];
  head: number;
}

export function createStore() {
  return {
    merchants: new Map<string, MerchantRecord>(),
    /** Found by `key_hash` as well (keyHash). */
    apiKeys: new IndexedMap<ApiKeyRecord>(keyHash),
    customers: new Map<string, CustomerRecord>(),
    sessions: new Map<string, SessionRecord>(),
    orders: new Map<string, OrderRecord>(),
    deliveries: new Map<string, DeliveryRecord>(),
    /** Recent request times per rate-limit bucket, for sliding windows (see rateLimit in http/auth.ts). */
    rateWindows: new Map<string, RateWindow>(),
    /** One-time passwords sent to phones. */
    otps: new Map<string, OtpRecord>(),
    /** The simulated Mobile Money rail: prompts (collections) and payouts. */
    mobileMoney: { collections: new Map<string, CollectionRecord>(), payouts: new Map<string, PayoutRecord>() },
    /** The simulated Stellar ledger, by transaction hash. */
    stellar: { payments: new Map<string, StellarPaymentRecord>() },
    /** Monotonic counter for insertion order. */
    seq: 0,
    anchor: createAnchorState(),
    ramp: createRampState(),
    checkout: createCheckoutState(),
  };
}

export type Store = ReturnType<typeof createStore>;

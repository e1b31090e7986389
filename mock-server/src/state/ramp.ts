/** State of the ramp order API (001); part of the one store (see ../store.ts). */
import type { RampOrderStatus, RampType } from '../machines/ramp-order.js';
import type { ProviderId, Quote } from '../types.js';

/** A phone-number KYC: initiated with an OTP, verified with the code. */
export interface RampKycRecord {
  /** `kyc_id`. */
  id: string;
  merchant_id: string;
  first_name: string;
  last_name: string;
  /** Local format, e.g. `0241234567`. */
  phone: string;
  provider: ProviderId;
  status: 'pending' | 'verified';
  created_at: string;
  verified_at: string | null;
}

/** Money sent back to the user for a payment the order could not take. */
export interface RampRefund {
  /** `mobile_money`: cedis to the user's phone; `usdc`: USDC to the wallet that sent it. */
  method: 'mobile_money' | 'usdc';
  /** GHS (mobile_money) or USDC (usdc). */
  amount: number;
  reason: string;
  status: 'pending' | 'completed';
  /** The payout (mobile_money) or the outgoing Stellar transaction hash (usdc). */
  rail_id: string;
  created_at: string;
}

export interface RampOrderRecord {
  /** Internal UUID; `meta.ramp_order_id` of payment webhooks. */
  id: string;
  /** `RMP-<YYYYMMDD>-<uuid>`: the lookup key. */
  reference: string;
  merchant_id: string;
  type: RampType;
  status: RampOrderStatus;
  /** GHS the user pays (on-ramp) or receives (off-ramp). */
  fiat_amount: number;
  /** USDC the user receives (on-ramp) or sends (off-ramp). */
  crypto_amount: number;
  /** GHS per USDC, spread included. */
  rate: number;
  fees: Quote['fees'];
  payment_method: 'mobile_money';
  /** On-ramp: where the USDC goes. */
  destination_wallet: string | null;
  user: { first_name: string; last_name: string; phone: string; network: ProviderId };
  /** Off-ramp: where and with which memo the user sends USDC. */
  deposit: { stellar_address: string; memo: string } | null;
  /** Off-ramp: the wallet named by the confirm call. */
  source_wallet: string | null;
  /** Off-ramp: the user's payment, once it arrived with the right asset and amount. */
  received: { hash: string; from: string } | null;
  /** On-ramp: the Mobile Money prompt. */
  collection_id: string | null;
  /** Off-ramp: the payout of the current attempt. */
  payout_id: string | null;
  /** On-ramp: the outgoing USDC transaction of the current send attempt. */
  send_tx_hash: string | null;
  /** USDC send attempts (on-ramp) or payout attempts (off-ramp) made so far. */
  attempts: number;
  /** On-ramp: the USDC send that confirmed. Off-ramp: the user's USDC payment. */
  crypto_tx_hash: string | null;
  completed_at: string | null;
  failure_reason: string | null;
  /** When the rate lock ends, ms since epoch. */
  expires_at: number;
  refunds: RampRefund[];
  created_at: string;
  updated_at: string;
}

export function createRampState() {
  return {
    /** By `kyc_id`. */
    kyc: new Map<string, RampKycRecord>(),
    /** By internal id. */
    orders: new Map<string, RampOrderRecord>(),
    /** `<merchant id> <X-Idempotency-Key>` -> order id. */
    idempotencyKeys: new Map<string, string>(),
  };
}

/**
 * State of the checkout surface (002); part of the one store (see ../store.ts). It holds both
 * sides of the document: the service's own records (organizations, keys, transactions,
 * idempotency, webhook subscriptions and events) and the simulated payment gateway behind it
 * (sessions, injected faults, held creations, the dashboard's selected organization).
 */
import type { CheckoutSessionStatus } from '../machines/checkout-session.js';
import { IndexedMap, keyHash } from './indexed-map.js';

export type OrganizationStatus = 'active' | 'inactive';

export interface CheckoutOrganization {
  id: string;
  name: string;
  status: OrganizationStatus;
  /** The dashboard user who owns it; written into `meta.user_id`. */
  user_id: string;
  created_at: string;
}

export interface CheckoutKeyRecord {
  id: string;
  /** Null for a key not linked to any organization (creation answers 401). */
  organization_id: string | null;
  user_id: string;
  /** `sika_checkout_` plus 6 hex characters, for display. */
  key_prefix: string;
  /** SHA-256 of the full key; the key text is shown once and never stored. */
  key_hash: string;
  /** Issued before the checkout route existed: refused there (401) until rotated once. */
  legacy: boolean;
  /** Written into `meta.svc_environment`. */
  environment: 'test' | 'live';
  /** Caller addresses allowed to use the key; empty allows any. */
  allowed_ips: string[];
  is_active: boolean;
  created_at: string;
  rotated_at?: string;
}

/** A checkout session at the simulated gateway. */
export interface GatewaySession {
  /** Session reference (`cs_...`), sent back on the redirect as `sessionRef`. */
  id: string;
  /** Gateway payment reference, `PAY-<YYYYMMDD>-<uuid>` as ramp payments' (../references.ts). */
  reference: string;
  /** Where the gateway attributes the payment: the key's organization, or (earlier routes) the selected one. */
  organization_id: string;
  status: CheckoutSessionStatus;
  /** Smallest currency unit. */
  amount: number;
  /** Amount the session confirmed, smallest unit; 0 until paid. */
  final_amount: number;
  currency: string;
  recipient: { name: string; email: string };
  redirect_url: string;
  meta: Record<string, unknown>;
  checkout_url: string;
  created_at: string;
  updated_at: string;
  /** Until then (ms) the customer can pay; afterwards a still `pending` session is gone. */
  expires_at: number;
}

/** The service's own record of a payment, synchronized from the gateway on verification. */
export interface CheckoutTransaction {
  id: string;
  organization_id: string;
  reference: string;
  session_id: string;
  /** Raw gateway status as of the last synchronization. */
  status: CheckoutSessionStatus;
  amount: number;
  final_amount: number;
  currency: string;
  recipient: { name: string; email: string };
  meta: Record<string, unknown>;
  /** Which route created it: the checkout API or a direct call to the earlier gateway route. */
  source: 'checkout_api' | 'gateway';
  created_at: string;
  updated_at: string;
  /** Last synchronization with the gateway (ISO 8601), null until first verified. */
  synced_at: string | null;
  /** Insertion order, for stable cursor paging. */
  seq: number;
}

/** One `payment.succeeded` / `payment.failed` event: created at the first synchronization of a status. */
export interface CheckoutEvent {
  id: string;
  type: 'payment.succeeded' | 'payment.failed';
  organization_id: string;
  transaction_id: string;
  status: CheckoutSessionStatus;
  /** The webhook body, fixed at creation so that every delivery of the event is identical. */
  payload: CheckoutEventPayload;
}

export interface CheckoutEventPayload {
  id: string;
  type: CheckoutEvent['type'];
  created_at: string;
  data: {
    reference: string;
    session_id: string;
    status: CheckoutSessionStatus;
    amount: number;
    final_amount: number;
    currency: string;
    meta: Record<string, unknown>;
  };
}

export interface IdempotencyRecord {
  /** Stored response once the first request finished; absent while it is in flight. */
  response?: { status: number; body: Record<string, unknown> };
  /** SHA-256 of the canonical JSON body: a repeat with another body is a conflict. */
  fingerprint: string;
  /** First use + 24 h (ms); afterwards the key is new work. */
  expires_at: number;
}

export interface CheckoutWebhookEndpoint {
  id: string;
  organization_id: string;
  url: string;
  /** Signing secret of this endpoint (`X-Svc-Signature`). */
  secret: string;
  created_at: string;
}

export interface GatewayFaults {
  /** What the next `remaining` gateway API calls answer. */
  status: 502 | 429;
  remaining: number;
}

// What the indexed Maps below are also found by (see findBy).
export const sessionReference = (session: GatewaySession) => session.reference;
export const transactionSession = (txn: CheckoutTransaction) => txn.session_id;
export const eventOf = (event: Pick<CheckoutEvent, 'transaction_id' | 'status'>) => `${event.transaction_id} ${event.status}`;

export function createCheckoutState() {
  return {
    organizations: new Map<string, CheckoutOrganization>(),
    /** Found by `key_hash` as well (keyHash). */
    keys: new IndexedMap<CheckoutKeyRecord>(keyHash),
    /** Found by gateway `reference` as well (sessionReference). */
    sessions: new IndexedMap<GatewaySession>(sessionReference),
    /** Found by `session_id` as well (transactionSession): one transaction per gateway session. */
    transactions: new IndexedMap<CheckoutTransaction>(transactionSession),
    /** By `<endpoint> <organization id> <key>`. */
    idempotency: new Map<string, IdempotencyRecord>(),
    /** Subscribed webhook endpoints, by id. */
    webhookEndpoints: new Map<string, CheckoutWebhookEndpoint>(),
    /** By event id; found by `<transaction id> <status>` as well (eventOf): one event per status a transaction reaches. */
    events: new IndexedMap<CheckoutEvent>(eventOf),
    /** The dashboard's most recently selected organization: where the earlier gateway routes attribute payments. */
    selectedOrganizationId: null as string | null,
    gateway: {
      faults: undefined as GatewayFaults | undefined,
      /** While set, every gateway creation waits for `release()`. */
      hold: undefined as GatewayHold | undefined,
    },
  };
}

export interface GatewayHold {
  /** Creations waiting. */
  waiting: number;
  /** Resolves the held creations. */
  release: () => void;
  released: Promise<void>;
  /** Callbacks waiting for a creation to be held. */
  watchers: (() => void)[];
}

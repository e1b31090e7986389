/**
 * The dashboard's snapshot, as GET /_mock/snapshot sends it (../../control/dashboard.ts) and
 * ./browser/main.ts reads it. Types only, importing nothing: the browser code shares them.
 */

/** One entry of a record's history; the first is its creation (`from` null). */
export interface HistoryEntry {
  field: string;
  from: string | null;
  to: string;
  event: string;
  /** Clock time, ISO 8601. */
  at: string;
}

export interface DashboardSnapshot {
  clock: { now: string; kind: 'real' | 'manual' };
  /** Each number that was sent a code, a prompt or money: its SMS inbox, its Mobile Money prompts and payouts, newest first. */
  phones: {
    number: string;
    sms: { id: string; code: string; purpose: string; sent_at: string; expires_at: string; used: boolean }[];
    prompts: { id: string; provider: string; amount: number; status: string; owner: string; sent_at: string; settled_at: string | null; history: HistoryEntry[] }[];
    /** Cedis paid out to the phone (a sell); a pending one can be failed (control.rails.failPayout). */
    payouts: {
      id: string;
      provider: string;
      amount: number;
      status: string;
      owner: string;
      sent_at: string;
      settled_at: string | null;
      failure_reason: string | null;
      history: HistoryEntry[];
    }[];
  }[];
  merchants: {
    id: string;
    name: string;
    email: string;
    status: string;
    kyb_status: string;
    ramp_enabled: boolean;
    webhook_url: string | null;
    created_at: string;
    history: HistoryEntry[];
  }[];
  /** Prefixes only: a key's text is shown once to its owner and never kept. */
  keys: { id: string; owner: string; kind: string; prefix: string; active: boolean; created_at: string }[];
  customers: { id: string; merchant_id: string | null; name: string; email: string; status: string; verified_phones: string[]; created_at: string; history: HistoryEntry[] }[];
  /** The ramp API's phone KYC records. */
  phone_kyc: { id: string; merchant_id: string; phone: string; status: string; created_at: string; history: HistoryEntry[] }[];
  /** What a test sets up to reach each outcome (docs/guides/testing-with-the-mock.md). */
  triggers: { kyc: { last_name: string; outcome: string }[]; phones: { number: string; outcome: string }[] };
  transactions: {
    id: string;
    kind: string;
    status: string;
    merchant_id: string | null;
    amount: number | null;
    currency: string;
    phone: string | null;
    message: string | null;
    started_at: string;
    history: HistoryEntry[];
  }[];
  ramp_orders: {
    id: string;
    reference: string;
    type: string;
    status: string;
    merchant_id: string;
    fiat_amount: number;
    crypto_amount: number;
    phone: string;
    failure_reason: string | null;
    created_at: string;
    history: HistoryEntry[];
  }[];
  checkout_sessions: {
    id: string;
    reference: string;
    status: string;
    organization_id: string;
    amount: number;
    final_amount: number;
    currency: string;
    created_at: string;
    expires_at: string;
    history: HistoryEntry[];
  }[];
  /** As control.webhooks.list() gives them: each attempt's request as sent and the answer. */
  webhooks: DeliveryView[];
}

/**
 * A webhook delivery as the page reads it: what every version of the delivery record has, and
 * what each attempt may carry (the request as sent, the answer, its timing, the retry it scheduled).
 */
export interface DeliveryView {
  id: string;
  kind: string;
  event: string;
  event_id: string;
  merchant_id: string;
  url: string;
  body: string;
  state: string;
  next_attempt_at: string | null;
  created_at: string;
  attempts: {
    at: string;
    manual?: boolean;
    request?: { headers: Record<string, string>; body: string };
    status?: number;
    response?: { headers: Record<string, string>; body: string; truncated: boolean };
    error?: string;
    duration_ms?: number;
    next_attempt_at?: string | null;
  }[];
}

/** What the page's script needs besides the snapshot. */
export interface DashboardConfig {
  /** The control API's base, e.g. `http://127.0.0.1:4010/_mock`. */
  control: string;
  /** How often the page asks for news, milliseconds of real time (the viewer's browser). */
  pollMs: number;
  snapshot: DashboardSnapshot;
}

/** The types that `<ramp-widget>` exchanges with the page. Types only: nothing here ships code. */

/** A SEP-24 transaction status. `error` and `failed` both mean the transaction failed; from `completed` on, each is final. */
export type RampStatus =
  | 'incomplete'
  | 'pending_user_transfer_start'
  | 'pending_anchor'
  | 'pending_stellar'
  | 'pending_external'
  | 'pending_payout_confirmation'
  | 'completed'
  | 'expired'
  | 'error'
  | 'failed'
  | 'refunded'
  | 'no_market'
  | 'too_small'
  | 'too_large';

/**
 * A SEP-24 transaction, as the interactive page posts it (`{ transaction }`) and as the
 * anchor's `GET /transaction` answers it. Only `id` and `status` are always present.
 */
export interface RampTransaction {
  id: string;
  status: RampStatus;
  /** `deposit` for a buy, `withdraw` for a sell. */
  kind?: 'deposit' | 'withdrawal';
  /** Why the transaction failed, on `error` / `failed`. */
  message?: string;
  /** Decimal strings: GHS in and USDC out for a buy, the reverse for a sell. */
  amount_in?: string;
  amount_out?: string;
  amount_fee?: string;
  /** Sell: the anchor's Stellar address and the memo the customer's payment must carry. */
  withdraw_anchor_account?: string;
  withdraw_memo?: string;
  [field: string]: unknown;
}

/** The merchant's widget config (`GET /api/v1/widget/config`, `data`). */
export interface RampWidgetConfig {
  merchant_id: string;
  theme: { primary_color: string; border_radius: string };
  allowed_coins: string[];
  redirect_url?: string;
}

/** What the widget asks the merchant backend for (the JSON body POSTed to `session-url`). */
export interface RampSessionRequest {
  flow: 'buy' | 'sell';
  /** GHS to spend on a buy, USDC to sell on a sell; absent when the customer enters it. */
  amount?: number;
  /** Always `USDC` today. */
  asset: string;
  /** Buy: the Stellar address to receive the USDC, when the page or Freighter gave one. */
  destination?: string;
  /**
   * Language of the flow, from the element's or the page's `lang`, in the form the service takes
   * (`fr`, `fr-gh`; `zh-Hant-TW` becomes `zh`; absent for a language without a two-letter code,
   * such as `fil`: the flow is then in English). Pass it on as `lang` when you start the transaction.
   */
  lang?: string;
}

/** What the merchant backend answers: the interactive URL and the transaction id. */
export interface RampSession {
  url: string;
  id: string;
}

/** Why `ramp-error` fired. */
export type RampErrorCode =
  /** `data-api-key` is not a public key (`<prefix>_public_<hex>`): a secret or checkout key, or a typo. Nothing was sent; rotate a secret key. */
  | 'secret_key'
  /** The widget config could not be read (no `api-base`, network, unknown key, page origin not allowed). */
  | 'config_failed'
  /** The merchant backend gave no `{ url, id }`, or a `url` the widget does not open (not `https:`; `http:` only on `localhost` and `127.0.0.1`). Nothing was opened. */
  | 'session_failed'
  /** The browser blocked the popup; a "Continue" button is shown. */
  | 'popup_blocked'
  /** The transaction ended in a final status other than `completed` (`error`, `failed`, `expired`, `refunded`, `no_market`, `too_small`, `too_large`). */
  | 'transaction_failed'
  /** Freighter is not installed, or the customer refused access. */
  | 'wallet_unavailable';

/** What `open()` resolves with: the transaction in its final `completed` state (`ramp-complete`'s `detail`). */
export interface RampResult {
  transaction: RampTransaction;
}

/**
 * What `open()` rejects with: an `Error` named `RampError` whose `code` is the one `ramp-error`
 * carries, or `closed` when the iframe or popup was closed before the transaction ended (no
 * `ramp-error` then: the transaction goes on, and its events still come).
 */
export interface RampError extends Error {
  name: 'RampError';
  code: RampErrorCode | 'closed';
  /** The transaction as last reported, once there is one. */
  transaction?: RampTransaction;
}

/** `detail` of each event, by event name. */
export interface RampEventMap {
  /** The widget can open: its config is applied (`config` is absent without `data-api-key`). */
  'ramp-ready': { config?: RampWidgetConfig };
  /** The interactive flow was opened (or, in redirect mode, is being navigated to). */
  'ramp-open': { id: string; url: string; mode: 'iframe' | 'popup' | 'redirect' };
  /** The transaction moved to a new SEP-24 status. Not settlement: fulfil from the signed webhook. */
  'ramp-status': { transaction: RampTransaction };
  /** The transaction reached `completed`. Not settlement: fulfil from the signed webhook. */
  'ramp-complete': RampResult;
  'ramp-error': { code: RampErrorCode; message: string; transaction?: RampTransaction };
  /** The iframe or popup was closed, by the customer or by `close()`. */
  'ramp-close': { transaction?: RampTransaction };
}

/** A `<ramp-widget>` event: bubbling and composed, so it reaches `document`. */
export type RampEvent<K extends keyof RampEventMap = keyof RampEventMap> = CustomEvent<RampEventMap[K]>;

/**
 * What the server tells the interactive page's script (./browser/main.ts): written by ./page.ts
 * into the `#ramp-config` JSON element. Type-only and free of Node, so the browser code reads it too.
 */
import type { TransactionKind } from '../../types.js';
import type { Lang, Strings } from './strings.js';

/** Everything the page shows and its script needs; also sent to the script as JSON. */
export interface PageModel {
  lang: Lang;
  /** SEP-24 kind: `deposit` is a buy, `withdrawal` a sell. */
  kind: TransactionKind;
  /** The interactive token; the script sends it with each call to the page's API. */
  token: string;
  /** Absolute base of the page's JSON API, `{interactive_url}/api`. */
  api: string;
  /** Null for a direct anchor client that is no merchant's. */
  merchant: string | null;
  /** Test network: a banner says that no real money moves. */
  testMode: boolean;
  /** The SEP-24 transaction object, as the first postMessage reports it. */
  transaction: Record<string, unknown> & { id: string; status: string };
  amount: {
    /** Set by the merchant's request: the customer cannot change it. GHS (buy) or USDC (sell). */
    preset: number | null;
    /** Smallest amount the limits allow, in `currency`. */
    min: number;
    /** Largest amount the merchant's per-transaction limit allows, in `currency`. */
    max: number;
    currency: 'GHS' | 'USDC';
  };
  /** Buy only: the Stellar address set by the request, or null when the customer enters it. */
  destination: string | null;
  /** Where status postMessages go; null sends none (see ./origin.ts). */
  targetOrigin: string | null;
  /** The merchant's widget_config.redirect_url, for the full-page flow's way back. */
  redirectUrl: string | null;
  /** How often the page asks for the status, milliseconds of real time. */
  pollMs: number;
  /**
   * The form's answers when it was finished before the page loaded (elsewhere, or in another
   * window): the page shows the status instead of the form. Null while the form waits.
   */
  finished: { provider: string; phone: string } | null;
  /** A merchant's transaction: where and with what the page confirms the order (null: through its own API). */
  order: { url: string; api_key: string; session_id: string; session_token: string } | null;
  /** The SEP-38 quote's rate (GHS per USDC) and its expiry, when the transaction has one. */
  guaranteed: { rate: number; expires_at: string } | null;
}

/** The `#ramp-config` JSON: the model and the page's texts in its language. */
export type PageConfig = PageModel & { strings: Strings };

/**
 * The two endpoints `<ramp-widget>` calls on the merchant's backend, as web-standard
 * `(Request) => Promise<Response>` handlers:
 *
 * - `session` (`session-url`): POST `{ flow, amount?, asset?, destination?, lang? }`; opens a
 *   widget session for the customer `authorize(request)` names and starts the interactive
 *   transaction, answering `{ url, id }`.
 * - `status` (`status-url`): GET `?id=`; answers `{ transaction }`, only to the customer the
 *   transaction was started for.
 *
 * Clients are passed in, so this module loads neither @stellar/stellar-sdk nor a schema library.
 */
import type { WidgetClient } from '../clients/widget.js';
import { STELLAR_AMOUNT_PATTERN } from '../core/amount.js';
import type { AnchorTransaction, AnchorTransfers } from '../resources/anchor/sep24.js';
import type { TransactionOwners } from './owners.js';
import { DEFAULT_BODY_TIMEOUT_MS, error, json, methodNotAllowed, readBody, reportInternal, upstream, type ErrorReporter } from './response.js';
import { MAX_TIMER_MS } from '../core/retry.js';

/** Owners in this process's memory, the newest `maxEntries` (default 100000); a restart forgets them. */
export class MemoryTransactionOwners implements TransactionOwners {
  readonly #owners = new Map<string, string>();
  readonly #max: number;
  constructor(maxEntries = 100_000) {
    this.#max = maxEntries;
  }
  set(transactionId: string, customerId: string): void {
    if (this.#owners.size >= this.#max) this.#owners.delete(this.#owners.keys().next().value!);
    this.#owners.set(transactionId, customerId);
  }
  get(transactionId: string): string | undefined {
    return this.#owners.get(transactionId);
  }
}

export interface RampHandlersOptions {
  /** The widget backend with the secret key: opens the customer's session (and, without `anchor`, starts the transaction). */
  widget: Pick<WidgetClient, 'sessions' | 'interactive'>;
  /**
   * An `AnchorClient` (`@sikaramp/sdk/anchor`): transactions start at the anchor with the five
   * merchant fields and `status` reads them there. Without it they start at the widget backend,
   * where the anchor shows them to no merchant: pass `getTransaction` for `status`.
   */
  anchor?: { transfers: Pick<AnchorTransfers, 'deposit' | 'withdraw' | 'get'> };
  /** Your public key (`xx_public_…`), the merchant field `api_key`. Required with `anchor`; default the WidgetClient's. */
  publicKey?: string;
  /**
   * The Sikaramp customer id (`user_id`, an ACCEPTED customer) of whoever is signed in to your
   * site, from your own login (cookie, session, token); null or undefined when nobody is: 401.
   * Never from the request body.
   */
  authorize: (request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /**
   * Which customer started which transaction. Default: this process's memory. When several
   * processes serve `status`, or it must answer after a restart: `RedisTransactionOwners`
   * (`@sikaramp/sdk/redis`), `SqliteTransactionOwners`, or your database.
   */
  owners?: TransactionOwners;
  /**
   * The amounts `session` takes, in what the customer enters: GHS for a buy, USDC for a sell.
   * Anything outside is refused 400 `amount_out_of_range` before the service is asked. Default:
   * at least 10 GHS to buy and 1 USDC to sell (the ramp document's minimums), and no maximum:
   * the service holds each merchant to the maximum its onboarding configured (422
   * `AMOUNT_OUT_OF_RANGE`, passed on). Set `max` to yours to refuse earlier.
   */
  limits?: { buy?: Partial<AmountLimits>; sell?: Partial<AmountLimits> };
  /** Reads a transaction for `status` without `anchor`, e.g. from your webhook records. */
  getTransaction?: (id: string) => Promise<AnchorTransaction | Record<string, unknown>>;
  /** How long the body of a `session` request may take to arrive, ms; a slower one is answered 408. Default 10 s. */
  bodyTimeoutMs?: number;
  /** Called with each error answered 5xx. Default `console.error`. */
  onError?: ErrorReporter;
}

/** The smallest and the largest amount of one flow, both included. */
export interface AmountLimits {
  min: number;
  max: number;
}

/** 001 section 8: at least 10 GHS and 1 USDC; the maximum per transaction is configured per merchant, and not shown. */
const DEFAULT_LIMITS = { buy: { min: 10, max: Infinity }, sell: { min: 1, max: Infinity } } as const;
const CURRENCY = { buy: 'GHS', sell: 'USDC' } as const;

export interface RampHandlers {
  /** `session-url`: POST. */
  session: (request: Request) => Promise<Response>;
  /** `status-url`: GET `?id=`. */
  status: (request: Request) => Promise<Response>;
}

/** What the widget sends to `session-url`, checked. */
interface SessionRequest {
  flow: 'buy' | 'sell';
  amount?: number;
  destination?: string;
  lang?: string;
}

/** Largest `session-url` body, bytes: the widget sends well under 1 KB. */
const MAX_SESSION_BODY = 16 * 1024;
const LANG = /^[a-z]{2}(-[A-Za-z]{2})?$/;
const ID = /^[\w.:-]{1,100}$/;
/** `application/json`, with parameters such as a charset. */
const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** The customer's mistake in the body, or the request; null values count as absent (the widget sends NaN as null). */
function parseSession(body: unknown, anchor: boolean): SessionRequest | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the body must be a JSON object';
  const { flow, amount, asset, destination, lang } = body as Record<string, unknown>;
  if (flow !== 'buy' && flow !== 'sell') return 'flow must be "buy" or "sell"';
  if (asset != null && asset !== 'USDC') return 'asset must be "USDC"';
  if (amount != null && !(typeof amount === 'number' && amount > 0 && STELLAR_AMOUNT_PATTERN.test(String(amount)))) {
    return 'amount must be a positive number with at most 7 decimal places';
  }
  // The anchor takes a muxed account too; the widget backend only a G… address.
  if (destination != null && !(typeof destination === 'string' && (anchor ? /^(G[A-Z2-7]{55}|M[A-Z2-7]{68})$/ : /^G[A-Z2-7]{55}$/).test(destination))) {
    return 'destination must be a Stellar address (G…)';
  }
  // Without a destination the anchor would send a buy's USDC to this backend's own account.
  if (anchor && flow === 'buy' && destination == null) return 'destination: the Stellar address that receives the USDC is required';
  if (lang != null && !(typeof lang === 'string' && LANG.test(lang))) return 'lang must be a language code such as en or fr-gh';
  return {
    flow,
    amount: (amount ?? undefined) as number | undefined,
    destination: (destination ?? undefined) as string | undefined,
    lang: (lang ?? undefined) as string | undefined,
  };
}

export function createRampHandlers(options: RampHandlersOptions): RampHandlers {
  const { widget, anchor, publicKey, authorize, getTransaction, bodyTimeoutMs = DEFAULT_BODY_TIMEOUT_MS } = options;
  if (anchor && !publicKey) throw new TypeError('createRampHandlers: `publicKey` is required with `anchor` (the merchant field api_key)');
  const limits = { buy: { ...DEFAULT_LIMITS.buy, ...options.limits?.buy }, sell: { ...DEFAULT_LIMITS.sell, ...options.limits?.sell } };
  for (const { min, max } of Object.values(limits)) {
    if (!(Number.isFinite(min) && min > 0 && max >= min)) {
      throw new RangeError('createRampHandlers: each of `limits` must have 0 < min <= max, min a finite number');
    }
  }
  if (!(bodyTimeoutMs > 0 && bodyTimeoutMs <= MAX_TIMER_MS)) throw new RangeError('createRampHandlers: `bodyTimeoutMs` must be a number of ms from 1 to 2^31 - 1');
  const owners = options.owners ?? new MemoryTransactionOwners();
  const onError = options.onError ?? ((e: unknown) => console.error(e));

  /** The signed-in customer, or the answer to give instead. */
  async function customer(request: Request): Promise<string | Response> {
    let id: string | null | undefined;
    try {
      id = await authorize(request);
    } catch (cause) {
      return reportInternal(onError, cause, request);
    }
    return typeof id === 'string' && id !== '' ? id : error(401, 'unauthorized', 'Sign in first.');
  }

  /** The SDK call failed: 4xx for the customer's own mistakes, else reported and 5xx. */
  function failed(cause: unknown, request: Request): Response {
    const response = upstream(cause);
    if (response.status >= 500) onError(cause, request);
    return response;
  }

  async function session(request: Request): Promise<Response> {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    // A form on another site can POST urlencoded, multipart or text/plain with the customer's
    // cookie and no CORS preflight; only JSON needs one, which the browser refuses cross-origin.
    if (!JSON_TYPE.test(request.headers.get('content-type') ?? '')) {
      return error(415, 'unsupported_media_type', 'The body must be JSON (content-type: application/json).');
    }
    const user_id = await customer(request);
    if (user_id instanceof Response) return user_id;
    const raw = await readBody(request, MAX_SESSION_BODY, bodyTimeoutMs);
    if (raw instanceof Response) return raw;
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(raw));
    } catch {
      return error(400, 'invalid_json', 'The body is not valid JSON.');
    }
    const input = parseSession(body, anchor !== undefined);
    if (typeof input === 'string') return error(400, 'invalid_request', input);
    const { flow, amount, destination, lang } = input;
    const { min, max } = limits[flow];
    if (amount !== undefined && (amount < min || amount > max)) {
      return error(400, 'amount_out_of_range', max < Infinity ? `amount must be from ${min} to ${max} ${CURRENCY[flow]}` : `amount must be at least ${min} ${CURRENCY[flow]}`);
    }
    let started: { url: string; id: string };
    try {
      if (anchor) {
        // The five merchant fields make the transaction this merchant's, for this customer.
        const { merchant_id, session_id, session_token } = await widget.sessions.create({ user_id });
        const fields = { merchant_id, session_id, session_token, api_key: publicKey, user_id, amount, lang };
        started = flow === 'sell' ? await anchor.transfers.withdraw(fields) : await anchor.transfers.deposit({ ...fields, account: destination });
      } else {
        const key = publicKey === undefined ? {} : { api_key: publicKey };
        started =
          flow === 'sell'
            ? await widget.interactive.withdraw({ ...key, user_id, onchain_amount: amount, lang })
            : await widget.interactive.deposit({ ...key, user_id, fiat_amount: amount, destination_address: destination, lang });
      }
    } catch (cause) {
      return failed(cause, request);
    }
    try {
      await owners.set(started.id, user_id);
    } catch (cause) {
      return reportInternal(onError, cause, request);
    }
    return json(200, { url: started.url, id: started.id });
  }

  async function status(request: Request): Promise<Response> {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    const user_id = await customer(request);
    if (user_id instanceof Response) return user_id;
    const id = new URL(request.url).searchParams.get('id');
    if (id === null || !ID.test(id)) return error(400, 'invalid_request', 'id must be a transaction id.');
    let owner: string | undefined;
    try {
      owner = await owners.get(id);
    } catch (cause) {
      return reportInternal(onError, cause, request);
    }
    // Another customer's transaction reads as an unknown one; the service is not asked.
    if (owner !== user_id) return error(404, 'not_found', 'No such transaction.');
    const read = anchor ? (tx: string) => anchor.transfers.get(tx) : getTransaction;
    if (!read) return error(501, 'status_unavailable', 'This backend reads no statuses: give createRampHandlers `anchor` or `getTransaction`.');
    try {
      return json(200, { transaction: await read(id) });
    } catch (cause) {
      return failed(cause, request);
    }
  }

  return { session, status };
}

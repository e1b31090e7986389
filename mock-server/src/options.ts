import { createClock, type Clock } from './clock.js';
import type { MerchantLimits } from './store.js';

export interface MockBackendOptions {
  /**
   * Origin that every surface lives under unless given its own URL, laid out as the
   * standalone server serves them. Default `https://mock.sikaramp.test`.
   */
  origin?: string;
  /** Widget backend and merchant dashboard, `{base_url}`. Default: the origin. */
  baseUrl?: string;
  /** Stellar anchor, `{anchor_url}`. Default: `<origin>/anchor`. */
  anchorUrl?: string;
  /** Ramp order API, `{ramp_base_url}`, sandbox. Default: the origin. */
  rampBaseUrl?: string;
  /** Ramp order API, production address; served by the same mock. Default: none. */
  rampProductionUrl?: string;
  /** Checkout API, `{checkout_base_url}`. Default: the origin. */
  checkoutBaseUrl?: string;
  /** The earlier payment gateway routes, `{gateway_url}`. Default: `<origin>/gateway`. */
  gatewayUrl?: string;
  /** Host of the interactive page, `{interactive_url}`. Default: `<origin>/interactive`. */
  interactiveUrl?: string;
  /** `real` (default), `manual`, or a clock of your own. */
  clock?: Clock | 'real' | 'manual';
  /**
   * Where the clock starts (ms or ISO 8601). Default: the wall clock, which is what wallets
   * check SEP-10 time bounds and tokens against; with `seed` and a manual clock, the wall
   * clock rounded down to the minute. Name a time for timestamps that reproduce too.
   */
  clockStart?: number | string | Date;
  /**
   * Makes ids, references, memos and one-time passwords reproducible. Keys, secrets and
   * tokens always come from the platform's CSPRNG: a 32-bit seed would let anyone forge them.
   */
  seed?: number;
  /** Stellar network the anchor runs on. On `public` the five merchant fields are required. Default `testnet`. */
  network?: 'testnet' | 'public';
  /** How long a ramp quote stays locked, seconds. Default 300. */
  rateLifetimeSeconds?: number;
  /** Limits of a new (starter tier) merchant, GHS. */
  limits?: Partial<MerchantLimits>;
  /** GHS per USDC, before the spread. Default 15.5. */
  exchangeRate?: number;
  /**
   * Let the simulated world move by itself: a Mobile Money prompt approves itself and the
   * chain confirms after a few seconds of clock time. Default off (tests drive it with control calls).
   */
  autoAdvance?:
    | boolean
    | {
        mobileMoneySeconds?: number;
        chainSeconds?: number;
        payoutSeconds?: number;
        /** Whether the customer's wallet sends a sell's USDC by itself, after `chainSeconds`. Default true; false leaves it to `POST /_mock/stellar/payments`. */
        walletPays?: boolean;
      };
  /** In-process only: the caller's IP address that IP allowlists see. Default `127.0.0.1`. */
  clientIp?: string;
  /** Log each request and webhook delivery to the console. Default false. */
  log?: boolean;
  /**
   * Receives every webhook delivery in-process instead of over the network: a web-standard
   * handler such as `createWebhookHandler()` of `@sikaramp/sdk/handlers`, so a test needs no
   * HTTP listener. Called with the `Request` as it would be sent (the delivery's URL, headers,
   * raw body); signing, time-outs and retries are as over the network. Default: POST to the URL.
   */
  webhookHandler?: WebhookHandler;
}

/** Where webhook deliveries go in-process (`MockBackendOptions.webhookHandler`). */
export type WebhookHandler = (request: Request) => Response | Promise<Response>;

export interface Urls {
  origin: string;
  base: string;
  anchor: string;
  ramp: string[];
  checkout: string;
  gateway: string;
  interactive: string;
  control: string;
}

export interface ResolvedOptions {
  urls: Urls;
  clock: Clock;
  seed: number | undefined;
  network: 'testnet' | 'public';
  rateLifetimeSeconds: number;
  limits: MerchantLimits;
  exchangeRate: number;
  autoAdvance: { mobileMoneySeconds: number; chainSeconds: number; payoutSeconds: number; walletPays: boolean } | false;
  clientIp: string;
  log: boolean;
  webhookHandler: WebhookHandler | undefined;
}

/**
 * A URL as the WHATWG URL parser writes it (so `http://host:80` is `http://host`, as every
 * request URL is), without query, fragment or trailing slash.
 */
function normalizeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`not an absolute URL: ${url}`);
  }
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
}
const trim = normalizeUrl;

/** Where the clock starts: the named time, else now (a seeded manual clock: the whole minute). */
function clockStartOf(options: MockBackendOptions): number | string | Date | undefined {
  if (options.clockStart !== undefined) return options.clockStart;
  if (options.clock === 'manual' && options.seed !== undefined) return Math.floor(Date.now() / 60_000) * 60_000;
  return undefined;
}

export function resolveOptions(options: MockBackendOptions = {}): ResolvedOptions {
  const origin = trim(options.origin ?? 'https://mock.sikaramp.test');
  const ramp = [trim(options.rampBaseUrl ?? origin)];
  if (options.rampProductionUrl) ramp.push(trim(options.rampProductionUrl));
  const auto = options.autoAdvance;
  const clock =
    typeof options.clock === 'object'
      ? options.clock
      : createClock({ kind: options.clock ?? 'real', start: clockStartOf(options) });
  return {
    urls: {
      origin,
      base: trim(options.baseUrl ?? origin),
      anchor: trim(options.anchorUrl ?? `${origin}/anchor`),
      ramp,
      checkout: trim(options.checkoutBaseUrl ?? origin),
      gateway: trim(options.gatewayUrl ?? `${origin}/gateway`),
      interactive: trim(options.interactiveUrl ?? `${origin}/interactive`),
      control: `${origin}/_mock`,
    },
    clock,
    seed: options.seed,
    network: options.network ?? 'testnet',
    rateLifetimeSeconds: options.rateLifetimeSeconds ?? 300,
    limits: { maxPerTransaction: 5_000, daily: 20_000, monthly: 100_000, ...options.limits },
    exchangeRate: options.exchangeRate ?? 15.5,
    autoAdvance: auto
      ? { mobileMoneySeconds: 5, chainSeconds: 5, payoutSeconds: 5, walletPays: true, ...(auto === true ? {} : auto) }
      : false,
    clientIp: options.clientIp ?? '127.0.0.1',
    log: options.log ?? false,
    webhookHandler: options.webhookHandler,
  };
}

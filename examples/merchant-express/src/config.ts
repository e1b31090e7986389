/**
 * Everything the merchant backend reads from its environment, in one place. The demo
 * (`pnpm demo`) fills it in by itself from the mock server it starts; against a real Sikaramp
 * sandbox, set these variables and run `pnpm --filter @sikaramp/example-merchant-express start`.
 */
import { Keypair } from '@sikaramp/sdk/anchor';

/** The environment variables this example reads, with what each one is. */
export const ENVIRONMENT = {
  PORT: 'port the merchant backend listens on (default 3000)',
  PUBLIC_URL: 'address customers and Sikaramp reach this backend at, for redirects and webhooks (default http://localhost:<PORT>)',
  DATABASE_PATH: 'SQLite file with orders and processed webhook events (default .data/merchant.sqlite)',
  REDIS_URL: "Redis shared by every process of the shop, for the handled webhook keys, the widget transactions' owners and the anchor's SEP-10 token (default none: keys and owners in the SQLite file, the token per process)",
  CLUSTER_WORKERS: 'processes src/cluster.ts starts on this host (default one per core)',
  CLUSTER_PORTS: 'src/cluster.ts: shared (default), every process on PORT; or each, process i alone on PORT + i, for a load balancer of your own',
  SIKARAMP_BASE_URL: 'widget backend and dashboard, {base_url}',
  SIKARAMP_RAMP_BASE_URL: 'ramp order API, {ramp_base_url} (default SIKARAMP_BASE_URL)',
  SIKARAMP_CHECKOUT_BASE_URL: 'checkout API, {checkout_base_url} (default SIKARAMP_BASE_URL)',
  SIKARAMP_ANCHOR_URL: 'the anchor, {anchor_url}, where the status endpoint reads transactions (SEP-24)',
  SIKARAMP_STELLAR_SECRET: "secret seed (S…) of this backend's own Stellar account, which signs in to the anchor (SEP-10); never logged (default a new account at each start)",
  SIKARAMP_PUBLIC_KEY: 'public key (…_public_…), allowed on PUBLIC_URL; the only key the page sees',
  SIKARAMP_SECRET_KEY: 'secret key (…_secret_…), server-side only',
  SIKARAMP_WEBHOOK_SECRET: 'secret of the order and payment webhooks (dashboard: webhook settings)',
  SIKARAMP_CUSTOMER_ID: 'an ACCEPTED customer (KYC) who buys and sells through the widget',
  SIKARAMP_CHECKOUT_API_KEY: 'checkout API key',
  SIKARAMP_CHECKOUT_WEBHOOK_SECRET: 'secret of the checkout webhook subscription pointing at PUBLIC_URL/webhooks/checkout',
  SIKARAMP_RAMP_PHONE: 'the customer phone, local format (0241234567), verified by ramp phone KYC, for the server-side order',
  SIKARAMP_RAMP_NETWORK: 'its Mobile Money provider: MTN, Telecel or AirtelTigo (default MTN)',
  SIKARAMP_WALLET: "the customer's Stellar address that receives bought USDC (default a demo address)",
  MOCK_PORT: "demo only: the mock server's port (default 4010)",
} as const;

export type EnvironmentName = keyof typeof ENVIRONMENT;

/** A Stellar address that stands for the demo customer's wallet: the USDC of a buy goes there. */
export const DEMO_WALLET = 'GDJVPGUDIQ5VAP6VAPHOQY5DWCV7GW6UO5DFLRHE5M6PCAUJFEY7AJVZ';

export interface Config {
  port: number;
  /** This backend's address as customers and Sikaramp reach it, without a trailing slash. */
  publicUrl: string;
  databasePath: string;
  baseUrl: string;
  rampBaseUrl: string;
  checkoutBaseUrl: string;
  /** The anchor, `{anchor_url}`: the status endpoint reads transactions there. */
  anchorUrl: string;
  /**
   * The Stellar account this backend signs in to the anchor with (SEP-10): from
   * SIKARAMP_STELLAR_SECRET, else a new one made at start, which is enough to read transactions.
   */
  stellarAccount: Keypair;
  publicKey: string;
  secretKey: string;
  webhookSecret: string;
  checkoutApiKey: string;
  checkoutWebhookSecret: string;
  /** Who buys and sells: the widget's customer and the ramp order's user. */
  customer: {
    id: string;
    firstName: string;
    lastName: string;
    /** Local format, `0` and nine digits. */
    phone: string;
    /** Mobile Money provider. */
    network: string;
    /** Stellar address that receives bought USDC. */
    wallet: string;
  };
  /**
   * Test mode only: the mock server's address. The page then offers what only a test world
   * can do (read the code sent to the test phone, simulate the customer's USDC payment),
   * through this backend's `/api/test/*` routes, which call the mock's control API.
   */
  mockUrl?: string;
}

const REQUIRED: EnvironmentName[] = [
  'SIKARAMP_BASE_URL',
  'SIKARAMP_ANCHOR_URL',
  'SIKARAMP_PUBLIC_KEY',
  'SIKARAMP_SECRET_KEY',
  'SIKARAMP_WEBHOOK_SECRET',
  'SIKARAMP_CUSTOMER_ID',
  'SIKARAMP_CHECKOUT_API_KEY',
  'SIKARAMP_CHECKOUT_WEBHOOK_SECRET',
  'SIKARAMP_RAMP_PHONE',
];

/** Reads the configuration from `env`; throws naming every required variable that is missing. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const missing = REQUIRED.filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new Error(
      `Missing environment variables: ${missing.join(', ')}.\n` +
        `Run \`pnpm demo\` for the demo on the bundled mock server, or set them (see examples/merchant-express/src/config.ts).`,
    );
  }
  const port = Number(env.PORT ?? 3000);
  const baseUrl = trim(env.SIKARAMP_BASE_URL!);
  return {
    port,
    publicUrl: trim(env.PUBLIC_URL ?? `http://localhost:${port}`),
    databasePath: env.DATABASE_PATH ?? '.data/merchant.sqlite',
    baseUrl,
    rampBaseUrl: trim(env.SIKARAMP_RAMP_BASE_URL ?? baseUrl),
    checkoutBaseUrl: trim(env.SIKARAMP_CHECKOUT_BASE_URL ?? baseUrl),
    anchorUrl: trim(env.SIKARAMP_ANCHOR_URL!),
    stellarAccount: env.SIKARAMP_STELLAR_SECRET ? stellarAccount(env.SIKARAMP_STELLAR_SECRET) : Keypair.random(),
    publicKey: env.SIKARAMP_PUBLIC_KEY!,
    secretKey: env.SIKARAMP_SECRET_KEY!,
    webhookSecret: env.SIKARAMP_WEBHOOK_SECRET!,
    checkoutApiKey: env.SIKARAMP_CHECKOUT_API_KEY!,
    checkoutWebhookSecret: env.SIKARAMP_CHECKOUT_WEBHOOK_SECRET!,
    customer: {
      id: env.SIKARAMP_CUSTOMER_ID!,
      firstName: 'Ama',
      lastName: 'Mensah',
      phone: env.SIKARAMP_RAMP_PHONE!,
      network: env.SIKARAMP_RAMP_NETWORK ?? 'MTN',
      wallet: env.SIKARAMP_WALLET ?? DEMO_WALLET,
    },
  };
}

const trim = (url: string) => url.replace(/\/+$/, '');

function stellarAccount(seed: string): Keypair {
  try {
    return Keypair.fromSecret(seed);
  } catch {
    // Named, never shown: the value is a secret even when it is a wrong one.
    throw new Error('SIKARAMP_STELLAR_SECRET is not a Stellar secret seed (S…, 56 characters).');
  }
}

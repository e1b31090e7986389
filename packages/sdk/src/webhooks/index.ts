/**
 * @sikaramp/sdk/webhooks: verify, sign and de-duplicate Sikaramp webhooks. This build
 * computes the HMAC with Web Crypto (edge runtimes, browsers, the default); Node, Bun and Deno
 * load `node.ts` instead, the same API on node:crypto. Loads neither ky, zod nor @stellar/stellar-sdk. Order webhooks do not sign their timestamp,
 * so de-duplicate in a store that survives a restart (`@sikaramp/sdk/webhooks/sqlite`).
 *
 * ```ts
 * import { verifyWebhook } from '@sikaramp/sdk/webhooks';
 * app.post('/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
 *   const event = await verifyWebhook({ body: req.body, headers: req.headers, secret: process.env.SIKARAMP_WEBHOOK_SECRET! });
 *   …
 * });
 * ```
 */
import { webHmac } from './crypto.js';
import type { CheckoutWebhookEvent, WebhookEvent } from './events.js';
import { signCheckout, signOrder, type SignCheckoutWebhookInput, type SignedWebhook, type SignOrderWebhookInput } from './sign.js';
import { verify, type VerifiedWebhook, type VerifyOrderWebhookInput, type VerifyWebhookInput } from './verify.js';

/**
 * Verifies an order or ramp payment webhook and returns its body, typed; tell the two
 * apart by `event` (`order.*` or `payment.*`). Throws WebhookVerificationError.
 * {@link verifyWebhookDelivery} also says whether the timestamp was signed.
 */
export const verifyWebhook = async (input: VerifyOrderWebhookInput): Promise<WebhookEvent> => verify(input, 1, webHmac);

/**
 * Verifies an order or ramp payment webhook and returns its body with what the signature
 * covered: `timestampSigned` false means the tolerance cannot stop a replay. Throws
 * WebhookVerificationError.
 */
export const verifyWebhookDelivery = async (input: VerifyOrderWebhookInput): Promise<VerifiedWebhook<WebhookEvent>> => verify(input, 0, webHmac);

/** Verifies a checkout webhook and returns its body, typed. Throws WebhookVerificationError. */
export const verifyCheckoutWebhook = async (input: VerifyWebhookInput): Promise<CheckoutWebhookEvent> => verify(input, 2, webHmac);

/**
 * Signs an order or ramp payment webhook as the service does, for your own tests: `X-Webhook-Signature`,
 * the lowercase hex HMAC-SHA256 of the body (or of `<timestamp>.<body>` with `scheme`), and `X-Webhook-Timestamp`.
 */
export const signWebhook = (input: SignOrderWebhookInput): Promise<SignedWebhook> => signOrder(input, webHmac);

/**
 * Signs a checkout webhook as the service does, for your own tests: `X-Svc-Signature: v1=<hex HMAC-SHA256 of
 * "<timestamp>.<body>">` with `X-Svc-Timestamp`, `X-Svc-Event-ID` and `X-Svc-Event-Type`.
 */
export const signCheckoutWebhook = (input: SignCheckoutWebhookInput): Promise<SignedWebhook> => signCheckout(input, webHmac);

export {
  WebhookVerificationError,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyWebhookInput,
  type VerifyOrderWebhookInput,
  type VerifiedWebhook,
  type WebhookSignatureScheme,
  type WebhookSignatureEncoding,
  type WebhookVerificationReason,
  type HeadersInput,
} from './verify.js';
export { type SignWebhookInput, type SignOrderWebhookInput, type SignCheckoutWebhookInput, type SignedWebhook } from './sign.js';
export {
  createDeduplicator,
  MemoryDedupeStore,
  webhookEventKey,
  DEFAULT_DEDUPE_TTL_SECONDS,
  DEFAULT_DEDUPE_LEASE_SECONDS,
  type DedupeStore,
  type Deduplicator,
  type DeduplicatorOptions,
  type DedupeResult,
  type MemoryDedupeStoreOptions,
} from './dedupe.js';
export {
  isOrderEvent,
  isRampPaymentEvent,
  type WebhookEvent,
  type OrderWebhookEvent,
  type OrderEventName,
  type RampPaymentWebhookEvent,
  type RampPaymentEventName,
  type CheckoutWebhookEvent,
  type CheckoutEventName,
} from './events.js';
export type { WebCrypto } from './crypto.js';
export { SikarampError, CredentialError } from '../core/errors.js';

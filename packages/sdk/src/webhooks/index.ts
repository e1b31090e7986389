/**
 * @sikaramp/sdk/webhooks: verify Sikaramp webhooks. This build computes the HMAC with Web
 * Crypto (edge runtimes, browsers, the default); Node, Bun and Deno load `node.ts` instead, the
 * same API on node:crypto. Loads neither ky, zod nor @stellar/stellar-sdk. Order webhooks do
 * not sign their timestamp, so de-duplicate (`@sikaramp/sdk/webhooks/dedupe`) in a store that
 * survives a restart (`@sikaramp/sdk/webhooks/sqlite`); `@sikaramp/sdk/webhooks/testing` signs
 * deliveries for your own tests.
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
import { verify, type VerifiedWebhook, type VerifyOrderWebhookInput, type VerifyWebhookInput } from './verify.js';

/**
 * Verifies an order or ramp payment webhook and returns its body, typed; tell the two
 * apart by `event` (`order.*` or `payment.*`). Throws WebhookVerificationError.
 * {@link verifyWebhookDelivery} also says whether the timestamp was signed.
 */
export const verifyWebhook = (input: VerifyOrderWebhookInput): Promise<WebhookEvent> => verify(input, 1, webHmac);

/**
 * Verifies an order or ramp payment webhook and returns its body with what the signature
 * covered: `timestampSigned` false means the tolerance cannot stop a replay. Throws
 * WebhookVerificationError.
 */
export const verifyWebhookDelivery = (input: VerifyOrderWebhookInput): Promise<VerifiedWebhook<WebhookEvent>> => verify(input, 0, webHmac);

/** Verifies a checkout webhook and returns its body, typed. Throws WebhookVerificationError. */
export const verifyCheckoutWebhook = (input: VerifyWebhookInput): Promise<CheckoutWebhookEvent> => verify(input, 2, webHmac);

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

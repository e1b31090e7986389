/**
 * @sikaramp/sdk/webhooks: verify, sign and de-duplicate Sikaramp webhooks. Web Crypto only;
 * loads neither ky, zod nor @stellar/stellar-sdk. Order webhooks do not sign their timestamp,
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
export {
  verifyWebhook,
  verifyWebhookDelivery,
  verifyCheckoutWebhook,
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
export { signWebhook, signCheckoutWebhook, type SignWebhookInput, type SignOrderWebhookInput, type SignCheckoutWebhookInput, type SignedWebhook } from './sign.js';
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

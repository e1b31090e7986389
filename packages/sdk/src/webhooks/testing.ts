/**
 * @sikaramp/sdk/webhooks/testing: signed webhook requests, exactly as the service sends them,
 * for your own tests: post `body` with `headers` to your endpoint and it must accept them. This
 * build signs with Web Crypto; Node, Bun and Deno load `testing-node.ts`, the same API on
 * node:crypto.
 *
 * ```ts
 * import { signWebhook } from '@sikaramp/sdk/webhooks/testing';
 * const { body, headers } = await signWebhook({ payload: event, secret: 'whsec_test' });
 * ```
 */
import { webHmac } from './crypto.js';
import { signCheckout, signOrder, type SignCheckoutWebhookInput, type SignedWebhook, type SignOrderWebhookInput } from './sign.js';

/**
 * Signs an order or ramp payment webhook as the service does: `X-Webhook-Signature`, the
 * lowercase hex HMAC-SHA256 of the body (or of `<timestamp>.<body>` with `scheme`), and `X-Webhook-Timestamp`.
 */
export const signWebhook = (input: SignOrderWebhookInput): Promise<SignedWebhook> => signOrder(input, webHmac);

/**
 * Signs a checkout webhook as the service does: `X-Svc-Signature: v1=<hex HMAC-SHA256 of
 * "<timestamp>.<body>">` with `X-Svc-Timestamp`, `X-Svc-Event-ID` and `X-Svc-Event-Type`.
 */
export const signCheckoutWebhook = (input: SignCheckoutWebhookInput): Promise<SignedWebhook> => signCheckout(input, webHmac);

export type { SignWebhookInput, SignOrderWebhookInput, SignCheckoutWebhookInput, SignedWebhook } from './sign.js';
export type { WebCrypto } from './crypto.js';

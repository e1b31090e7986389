/**
 * @sikaramp/sdk/webhooks on Node, Bun and Deno (the `node`, `bun` and `deno` export
 * conditions): the same API as `index.ts`, with node:crypto's synchronous HMAC, which costs a
 * fraction of Web Crypto's asynchronous `subtle.sign` per delivery. A `crypto` option still
 * selects Web Crypto.
 */
import type { CheckoutWebhookEvent, WebhookEvent } from './events.js';
import { nodeHmac } from './node-crypto.js';
import { verify, type VerifiedWebhook, type VerifyOrderWebhookInput, type VerifyWebhookInput } from './verify.js';

export * from './index.js';

/** Verifies an order or ramp payment webhook and returns its body, typed. Throws WebhookVerificationError. */
export const verifyWebhook = (input: VerifyOrderWebhookInput): Promise<WebhookEvent> => verify(input, 1, nodeHmac);

/** Verifies an order or ramp payment webhook and returns its body with what the signature covered. Throws WebhookVerificationError. */
export const verifyWebhookDelivery = (input: VerifyOrderWebhookInput): Promise<VerifiedWebhook<WebhookEvent>> => verify(input, 0, nodeHmac);

/** Verifies a checkout webhook and returns its body, typed. Throws WebhookVerificationError. */
export const verifyCheckoutWebhook = (input: VerifyWebhookInput): Promise<CheckoutWebhookEvent> => verify(input, 2, nodeHmac);

/**
 * @sikaramp/sdk/webhooks on Node, Bun and Deno (the `node`, `bun` and `deno` export
 * conditions): the same API as `index.ts`, with node:crypto's synchronous HMAC, which costs a
 * fraction of Web Crypto's asynchronous `subtle.sign` per delivery. A `crypto` option still
 * selects Web Crypto.
 */
import { createHmac } from 'node:crypto';
import type { Hmac } from './crypto.js';
import type { CheckoutWebhookEvent, WebhookEvent } from './events.js';
import { signCheckout, signOrder, type SignCheckoutWebhookInput, type SignedWebhook, type SignOrderWebhookInput } from './sign.js';
import { verify, type VerifiedWebhook, type VerifyOrderWebhookInput, type VerifyWebhookInput } from './verify.js';

export * from './index.js';

// No await anywhere on this path: the delivery is verified at once, with no turn of the microtask queue.
const nodeHmac: Hmac = (secret, prefix, body) => createHmac('sha256', secret).update(prefix).update(body).digest('hex');

/** Verifies an order or ramp payment webhook and returns its body, typed. Throws WebhookVerificationError. */
export const verifyWebhook = async (input: VerifyOrderWebhookInput): Promise<WebhookEvent> => verify(input, 1, nodeHmac);

/** Verifies an order or ramp payment webhook and returns its body with what the signature covered. Throws WebhookVerificationError. */
export const verifyWebhookDelivery = async (input: VerifyOrderWebhookInput): Promise<VerifiedWebhook<WebhookEvent>> => verify(input, 0, nodeHmac);

/** Verifies a checkout webhook and returns its body, typed. Throws WebhookVerificationError. */
export const verifyCheckoutWebhook = async (input: VerifyWebhookInput): Promise<CheckoutWebhookEvent> => verify(input, 2, nodeHmac);

/** Signs an order or ramp payment webhook as the service does, for your own tests. */
export const signWebhook = (input: SignOrderWebhookInput): Promise<SignedWebhook> => signOrder(input, nodeHmac);

/** Signs a checkout webhook as the service does, for your own tests. */
export const signCheckoutWebhook = (input: SignCheckoutWebhookInput): Promise<SignedWebhook> => signCheckout(input, nodeHmac);

/**
 * @sikaramp/sdk/webhooks on Node, Bun and Deno (the `node`, `bun` and `deno` export
 * conditions): the same API as `index.ts`, with node:crypto's synchronous HMAC, which costs a
 * fraction of Web Crypto's asynchronous `subtle.sign` per delivery. A `crypto` option still
 * selects Web Crypto.
 */
import { createHmac } from 'node:crypto';
import { webHmac, type Hmac } from './crypto.js';
import type { CheckoutWebhookEvent, WebhookEvent } from './events.js';
import { signCheckout, signOrder, type SignCheckoutWebhookInput, type SignedWebhook, type SignOrderWebhookInput } from './sign.js';
import { after, verifyCheckout, verifyOrder, type VerifiedWebhook, type VerifyOrderWebhookInput, type VerifyWebhookInput } from './verify.js';

export * from './index.js';

const nodeHmac: Hmac = (secret, parts, crypto) => {
  if (crypto) return webHmac(secret, parts, crypto);
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
};

/** Verifies an order or ramp payment webhook and returns its body, typed. Throws WebhookVerificationError. */
// `after`, not `await`: the delivery is there at once, and an await would cost a turn of the microtask queue.
export const verifyWebhook = async (input: VerifyOrderWebhookInput): Promise<WebhookEvent> => after(verifyOrder(input, nodeHmac), (delivery) => delivery.event);

/** Verifies an order or ramp payment webhook and returns its body with what the signature covered. Throws WebhookVerificationError. */
export const verifyWebhookDelivery = async (input: VerifyOrderWebhookInput): Promise<VerifiedWebhook<WebhookEvent>> => verifyOrder(input, nodeHmac);

/** Verifies a checkout webhook and returns its body, typed. Throws WebhookVerificationError. */
export const verifyCheckoutWebhook = async (input: VerifyWebhookInput): Promise<CheckoutWebhookEvent> => verifyCheckout(input, nodeHmac);

/** Signs an order or ramp payment webhook as the service does, for your own tests. */
export const signWebhook = (input: SignOrderWebhookInput): Promise<SignedWebhook> => signOrder(input, nodeHmac);

/** Signs a checkout webhook as the service does, for your own tests. */
export const signCheckoutWebhook = (input: SignCheckoutWebhookInput): Promise<SignedWebhook> => signCheckout(input, nodeHmac);

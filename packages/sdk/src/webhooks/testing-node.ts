/**
 * @sikaramp/sdk/webhooks/testing on Node, Bun and Deno (the `node`, `bun` and `deno` export
 * conditions): the same API as `testing.ts`, signing with node:crypto. A `crypto` option still
 * selects Web Crypto.
 */
import { nodeHmac } from './node-crypto.js';
import { signCheckout, signOrder, type SignCheckoutWebhookInput, type SignedWebhook, type SignOrderWebhookInput } from './sign.js';

export * from './testing.js';

/** Signs an order or ramp payment webhook as the service does, for your own tests. */
export const signWebhook = (input: SignOrderWebhookInput): Promise<SignedWebhook> => signOrder(input, nodeHmac);

/** Signs a checkout webhook as the service does, for your own tests. */
export const signCheckoutWebhook = (input: SignCheckoutWebhookInput): Promise<SignedWebhook> => signCheckout(input, nodeHmac);

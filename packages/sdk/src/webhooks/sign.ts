/**
 * Builds signed webhook requests, exactly as the service sends them, for merchants' own
 * tests; `testing.ts` and `testing-node.ts` bind an HMAC.
 */
import { webHmac, type Hmac, type WebCrypto } from './crypto.js';
import type { CheckoutWebhookEvent, WebhookEvent } from './events.js';
import type { WebhookSignatureScheme } from './verify.js';

export interface SignWebhookInput<T> {
  /** The event: an object (serialised with JSON.stringify) or the body text itself. */
  payload: T | string;
  secret: string;
  /** Signing time, Unix seconds. Default: now. */
  timestamp?: number;
  /** A Web Crypto to compute the HMAC with. Default: node:crypto on Node, Bun and Deno; `globalThis.crypto` elsewhere. */
  crypto?: WebCrypto;
}

export interface SignedWebhook {
  /** The body to send, byte for byte. */
  body: string;
  headers: Record<string, string>;
}

/** The body, the timestamp and the hex HMAC of a delivery, over `<timestamp>.<body>` when `timestamped`. */
async function sign(input: SignWebhookInput<unknown>, hmac: Hmac, timestamped: boolean) {
  const body = typeof input.payload === 'string' ? input.payload : JSON.stringify(input.payload);
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000));
  return { body, timestamp, hex: await (input.crypto ? webHmac : hmac)(input.secret, timestamped ? `${timestamp}.${body}` : body, input.crypto) };
}

/** Signs an order or ramp payment webhook with `hmac`; the entries bind it (`signWebhook`). */
export async function signOrder(input: SignOrderWebhookInput, hmac: Hmac): Promise<SignedWebhook> {
  const { body, timestamp, hex } = await sign(input, hmac, input.scheme === 'timestamp.body');
  return { body, headers: { 'X-Webhook-Signature': hex, 'X-Webhook-Timestamp': timestamp } };
}

export interface SignOrderWebhookInput extends SignWebhookInput<WebhookEvent> {
  /** What the signature covers. Default `'body'`, as the mock server signs; `'timestamp.body'` to test a receiver pinned to it. */
  scheme?: WebhookSignatureScheme;
}

export interface SignCheckoutWebhookInput extends SignWebhookInput<CheckoutWebhookEvent> {
  /** `X-Svc-Event-ID`. Default: the payload's `id`. */
  eventId?: string;
  /** `X-Svc-Event-Type`. Default: the payload's `type`. */
  eventType?: string;
}

/** Signs a checkout webhook with `hmac`; the entries bind it (`signCheckoutWebhook`). */
export async function signCheckout(input: SignCheckoutWebhookInput, hmac: Hmac): Promise<SignedWebhook> {
  const { body, timestamp, hex } = await sign(input, hmac, true);
  const parsed = JSON.parse(body) as Partial<CheckoutWebhookEvent>;
  return {
    body,
    headers: {
      'X-Svc-Event-ID': input.eventId ?? parsed.id ?? `evt_${globalThis.crypto.randomUUID()}`,
      'X-Svc-Event-Type': input.eventType ?? parsed.type ?? 'payment.succeeded',
      'X-Svc-Timestamp': timestamp,
      'X-Svc-Signature': `v1=${hex}`,
    },
  };
}

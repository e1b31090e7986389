/**
 * Builds signed webhook requests, exactly as the service sends them, for merchants' own
 * tests: post `body` with `headers` to your endpoint and it must accept them.
 */
import { toHex, type Hmac, type WebCrypto } from './crypto.js';
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

const nowSeconds = () => Math.floor(Date.now() / 1000);
const serialise = (payload: unknown) => (typeof payload === 'string' ? payload : JSON.stringify(payload));

/** Signs an order or ramp payment webhook with `hmac`; the entries bind it (`signWebhook`). */
export async function signOrder(input: SignOrderWebhookInput, hmac: Hmac): Promise<SignedWebhook> {
  const body = serialise(input.payload);
  const timestamp = input.timestamp ?? nowSeconds();
  const signature = await hmac(input.secret, input.scheme === 'timestamp.body' ? [`${timestamp}.`, body] : [body], input.crypto);
  return { body, headers: { 'X-Webhook-Signature': toHex(signature), 'X-Webhook-Timestamp': String(timestamp) } };
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
  const body = serialise(input.payload);
  const parsed = (typeof input.payload === 'string' ? JSON.parse(input.payload) : input.payload) as Partial<CheckoutWebhookEvent>;
  const timestamp = input.timestamp ?? nowSeconds();
  const signature = await hmac(input.secret, [`${timestamp}.`, body], input.crypto);
  return {
    body,
    headers: {
      'X-Svc-Event-ID': input.eventId ?? parsed.id ?? `evt_${globalThis.crypto.randomUUID()}`,
      'X-Svc-Event-Type': input.eventType ?? parsed.type ?? 'payment.succeeded',
      'X-Svc-Timestamp': String(timestamp),
      'X-Svc-Signature': `v1=${toHex(signature)}`,
    },
  };
}

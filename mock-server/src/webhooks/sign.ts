/**
 * The two signing schemes. Order and ramp payment webhooks (design.md section 4):
 * `X-Webhook-Signature` = lowercase hex HMAC-SHA256 of the raw body keyed with the merchant's
 * webhook secret, `X-Webhook-Timestamp` = Unix seconds; for 24 h after a secret rotation also
 * `X-Webhook-Signature-Previous`, the same made with the previous secret. Checkout webhooks (002 section 6):
 * `X-Svc-Signature` = `v1=` + hex HMAC-SHA256 of `<timestamp>.<raw body>` with the endpoint's secret.
 */
import type { MockContext } from '../context.js';
import { hmacSha256Hex } from '../crypto.js';
import { webhookSecrets } from '../merchants.js';
import type { DeliveryRecord } from '../store.js';

/** The signature headers of one attempt of `delivery`, sent at `timestamp` (Unix seconds). */
export async function signHeaders(
  ctx: MockContext,
  delivery: DeliveryRecord,
  timestamp: number,
): Promise<Record<string, string>> {
  if (delivery.kind === 'checkout') {
    const endpoint = delivery.endpoint_id ? ctx.store.checkout.webhookEndpoints.get(delivery.endpoint_id) : undefined;
    const secret = endpoint?.secret ?? '';
    return {
      'X-Svc-Event-ID': delivery.event_id,
      'X-Svc-Event-Type': delivery.event,
      'X-Svc-Timestamp': String(timestamp),
      'X-Svc-Signature': `v1=${await hmacSha256Hex(secret, `${timestamp}.${delivery.body}`)}`,
    };
  }
  const merchant = ctx.store.merchants.get(delivery.merchant_id);
  const { current, previous } = merchant ? webhookSecrets(ctx, merchant) : { current: null, previous: null };
  return {
    'X-Webhook-Signature': await hmacSha256Hex(current ?? '', delivery.body),
    'X-Webhook-Timestamp': String(timestamp),
    ...(previous ? { 'X-Webhook-Signature-Previous': await hmacSha256Hex(previous, delivery.body) } : {}),
  };
}

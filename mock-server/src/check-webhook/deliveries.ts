/**
 * The deliveries the checker sends: event bodies of each kind and their signatures, made as
 * the mock server makes them (../webhooks/sign.ts): order and ramp payment webhooks sign the raw
 * body (`X-Webhook-Signature`), checkout webhooks `<timestamp>.<raw body>` (`X-Svc-Signature`).
 */
import { hmacSha256Hex } from '../crypto.js';

export type CheckKind = 'order' | 'checkout';

/** One event: its body (an object, serialised compactly unless a case says otherwise) and the marker that names it in the receiver's list of handled events. */
export interface CheckEvent {
  body: Record<string, unknown>;
  marker: string;
}

/** A fresh event of the kind, unique to this run and `n`. `age` seconds back dates it (out-of-order cases). */
export function makeEvent(kind: CheckKind, run: string, n: string, now: number, options: { failed?: boolean; ramp?: boolean; reference?: string; age?: number } = {}): CheckEvent {
  const at = new Date(now - (options.age ?? 0) * 1000).toISOString();
  if (kind === 'checkout') {
    const id = `evt_check_${run}_${n}`;
    return {
      marker: id,
      body: {
        id,
        type: options.failed ? 'payment.failed' : 'payment.succeeded',
        created_at: at,
        data: {
          reference: options.reference ?? `CHK-${run}-${n}`,
          session_id: `ses_check_${run}_${n}`,
          status: options.failed ? 'failed' : 'completed',
          amount: 10_000,
          final_amount: 10_000,
          currency: 'GHS',
          meta: { order: 'café №1' },
        },
      },
    };
  }
  if (options.ramp) {
    const reference = `PAY-${at.slice(0, 10).replace(/-/g, '')}-check-${run}-${n}`;
    return {
      marker: reference,
      body: {
        event: options.failed ? 'payment.failed' : 'payment.completed',
        data: {
          reference,
          status: options.failed ? 'failed' : 'completed',
          amount: 10_000,
          currency: 'GHS',
          provider_ref: `MTN-check-${run}-${n}`,
          channel: 'mobile_money',
          meta: { ramp_order_id: options.reference ?? `ramp_check_${run}`, ramp_type: 'offramp' },
        },
      },
    };
  }
  const orderId = `ord_check_${run}_${n}`;
  return {
    marker: orderId,
    body: {
      event: options.failed ? 'order.failed' : 'order.completed',
      order_id: orderId,
      type: 'onramp',
      fiat_amount: '100.00',
      fiat_currency: 'GHS',
      crypto_amount: '6.45',
      crypto_currency: 'USDC',
      destination_address: 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H',
      timestamp: at,
    },
  };
}

/** The headers of a delivery of `raw` at `timestamp` (Unix seconds), signed over `signed` (default: `raw` itself). */
export async function signFor(
  kind: CheckKind,
  raw: string,
  { secret, timestamp, signed = raw }: { secret: string; timestamp: number; signed?: string },
): Promise<Record<string, string>> {
  if (kind === 'checkout') {
    const event = JSON.parse(raw) as { id: string; type: string };
    return {
      'X-Svc-Event-ID': event.id,
      'X-Svc-Event-Type': event.type,
      'X-Svc-Timestamp': String(timestamp),
      'X-Svc-Signature': `v1=${await hmacSha256Hex(secret, `${timestamp}.${signed}`)}`,
    };
  }
  return { 'X-Webhook-Signature': await hmacSha256Hex(secret, signed), 'X-Webhook-Timestamp': String(timestamp) };
}

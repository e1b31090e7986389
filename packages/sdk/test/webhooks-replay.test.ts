/**
 * Replays and unsigned headers. Order and ramp payment webhooks are signed over the body
 * alone (as the mock server, and 000, show), so a captured delivery sent again with a fresh
 * `X-Webhook-Timestamp` passes the tolerance: the verify result must say so, a merchant must
 * be able to pin a scheme that signs the timestamp, and checkout's unsigned event headers
 * must not override the signed body. Signatures are made independently with node:crypto.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  verifyCheckoutWebhook,
  verifyWebhook,
  verifyWebhookDelivery,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '../src/webhooks/index.js';
import { signWebhook } from '../src/webhooks/testing.js';

const SECRET = 'whsec_replay_0123456789';
const CAPTURED_AT = 1_767_225_600; // 2026-01-01T00:00:00Z
const ONE_DAY = 86_400;
const hmac = (content: string, encoding: 'hex' | 'base64' = 'hex') => createHmac('sha256', SECRET).update(content).digest(encoding);
const body = JSON.stringify({ event: 'order.completed', order_id: 'ord_1', type: 'onramp', fiat_amount: '150.00', destination_address: null });

async function reasonOf(promise: Promise<unknown>): Promise<WebhookVerificationReason | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

describe('a captured order webhook replayed a day later with a fresh timestamp', () => {
  const replayedAt = CAPTURED_AT + ONE_DAY;
  // The attacker keeps the body and signature and only writes a new timestamp.
  const replayHeaders = { 'x-webhook-signature': hmac(body), 'x-webhook-timestamp': String(replayedAt) };

  it('passes the tolerance when only the body is signed, and the result says the timestamp was not signed', async () => {
    const verified = await verifyWebhookDelivery({ body, headers: replayHeaders, secret: SECRET, now: replayedAt * 1000 });
    expect(verified).toMatchObject({ scheme: 'body', encoding: 'hex', timestampSigned: false, timestamp: replayedAt });
    expect(verified.event).toEqual(JSON.parse(body));
  });

  it("is refused once the merchant pins scheme 'timestamp.body'", async () => {
    const input = { body, headers: replayHeaders, secret: SECRET, now: replayedAt * 1000, scheme: 'timestamp.body' } as const;
    expect(await reasonOf(verifyWebhook(input))).toBe('no_matching_signature');
  });

  it("with scheme 'timestamp.body', a genuine delivery passes and its replay fails the signature or the tolerance", async () => {
    const genuine = { 'x-webhook-signature': hmac(`${CAPTURED_AT}.${body}`), 'x-webhook-timestamp': String(CAPTURED_AT) };
    const verified = await verifyWebhookDelivery({ body, headers: genuine, secret: SECRET, now: CAPTURED_AT * 1000, scheme: 'timestamp.body' });
    expect(verified).toMatchObject({ scheme: 'timestamp.body', timestampSigned: true });
    // Kept as sent: too old. With a fresh timestamp: the signature no longer matches.
    expect(await reasonOf(verifyWebhook({ body, headers: genuine, secret: SECRET, now: replayedAt * 1000, scheme: 'timestamp.body' }))).toBe(
      'timestamp_too_old',
    );
    const refreshed = { ...genuine, 'x-webhook-timestamp': String(replayedAt) };
    expect(await reasonOf(verifyWebhook({ body, headers: refreshed, secret: SECRET, now: replayedAt * 1000, scheme: 'timestamp.body' }))).toBe(
      'no_matching_signature',
    );
  });

  it("scheme 'body' refuses a timestamp-signed delivery, and encoding pins hex or base64", async () => {
    const now = CAPTURED_AT * 1000;
    const tsSigned = { 'x-webhook-signature': hmac(`${CAPTURED_AT}.${body}`), 'x-webhook-timestamp': String(CAPTURED_AT) };
    expect(await reasonOf(verifyWebhook({ body, headers: tsSigned, secret: SECRET, now, scheme: 'body' }))).toBe('no_matching_signature');
    const base64 = { 'x-webhook-signature': hmac(body, 'base64'), 'x-webhook-timestamp': String(CAPTURED_AT) };
    expect(await verifyWebhookDelivery({ body, headers: base64, secret: SECRET, now })).toMatchObject({ encoding: 'base64' });
    expect(await reasonOf(verifyWebhook({ body, headers: base64, secret: SECRET, now, encoding: 'hex' }))).toBe('malformed_header');
    const hex = { 'x-webhook-signature': hmac(body), 'x-webhook-timestamp': String(CAPTURED_AT) };
    expect(await reasonOf(verifyWebhook({ body, headers: hex, secret: SECRET, now, encoding: 'base64' }))).toBe('malformed_header');
  });

  it('refuses an unknown scheme or encoding as a programming error', async () => {
    const headers = { 'x-webhook-signature': hmac(body), 'x-webhook-timestamp': String(CAPTURED_AT) };
    await expect(verifyWebhook({ body, headers, secret: SECRET, scheme: 'timestamp' as never })).rejects.toBeInstanceOf(RangeError);
    await expect(verifyWebhook({ body, headers, secret: SECRET, encoding: 'HEX' as never })).rejects.toBeInstanceOf(RangeError);
  });

  it("signWebhook signs '<timestamp>.<body>' on request, as an independent HMAC does", async () => {
    const signed = await signWebhook({ payload: body, secret: SECRET, timestamp: CAPTURED_AT, scheme: 'timestamp.body' });
    expect(signed.headers['X-Webhook-Signature']).toBe(hmac(`${CAPTURED_AT}.${body}`));
  });
});

describe('checkout event headers, which are not under the signature', () => {
  const event = { id: 'evt_signed', type: 'payment.failed', created_at: '2026-01-01T00:00:00Z', data: { reference: 'PAY-1', status: 'failed' } };
  const checkoutBody = JSON.stringify(event);
  const headers = (id: string, type: string) => ({
    'x-svc-signature': `v1=${hmac(`${CAPTURED_AT}.${checkoutBody}`)}`,
    'x-svc-timestamp': String(CAPTURED_AT),
    'x-svc-event-id': id,
    'x-svc-event-type': type,
  });
  const verify = (h: Record<string, string>, b = checkoutBody) => verifyCheckoutWebhook({ body: b, headers: h, secret: SECRET, now: CAPTURED_AT * 1000 });

  it('a changed X-Svc-Event-ID is refused (it would dodge de-duplication), not taken over the signed id', async () => {
    expect(await reasonOf(verify(headers('evt_fresh', 'payment.failed')))).toBe('header_mismatch');
  });

  it('a changed X-Svc-Event-Type is refused (a failed payment passed off as succeeded)', async () => {
    expect(await reasonOf(verify(headers('evt_signed', 'payment.succeeded')))).toBe('header_mismatch');
  });

  it('headers that agree with the body pass, and the signed values are returned', async () => {
    expect(await verify(headers('evt_signed', 'payment.failed'))).toMatchObject({ id: 'evt_signed', type: 'payment.failed' });
  });

  it('a body whose id is not a string is refused rather than replaced by the header', async () => {
    const odd = JSON.stringify({ ...event, id: 42 });
    const h = { ...headers('42', 'payment.failed'), 'x-svc-signature': `v1=${hmac(`${CAPTURED_AT}.${odd}`)}` };
    expect(await reasonOf(verify(h, odd))).toBe('invalid_json');
  });
});

import { createHmac, webcrypto } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  verifyCheckoutWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type CheckoutWebhookEvent,
  type OrderWebhookEvent,
  type VerifyWebhookInput,
  type WebCrypto,
  type WebhookVerificationReason,
} from '../src/webhooks/index.js';
import * as nodeVerifiers from '../src/webhooks/node.js';
import * as nodeTesting from '../src/webhooks/testing-node.js';
import { signCheckoutWebhook, signWebhook } from '../src/webhooks/testing.js';

/** The node:crypto build: its verifiers and its signers. */
const nodeBuild = { ...nodeVerifiers, ...nodeTesting };

const hmac = (secret: string, content: string | Buffer, encoding: 'hex' | 'base64' = 'hex') =>
  createHmac('sha256', secret).update(content).digest(encoding);

const SECRET = 'whsec_0123456789abcdef';
const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z, Unix seconds
const at = (seconds: number) => seconds * 1000;

const order: OrderWebhookEvent = {
  event: 'order.completed',
  order_id: 'ord_7d3c1a52-0a51-4c36-9a0e-0b1d6f6b7a10',
  type: 'onramp',
  fiat_amount: '150.00',
  fiat_currency: 'GHS',
  crypto_amount: '9.45',
  crypto_currency: 'USDC',
  destination_address: 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI',
  timestamp: '2026-01-01T00:00:00Z',
};
const orderBody = JSON.stringify(order);

const checkout: CheckoutWebhookEvent = {
  id: 'evt_1',
  type: 'payment.succeeded',
  created_at: '2026-01-01T00:00:00Z',
  data: {
    reference: 'ref_1',
    session_id: 'cs_1',
    status: 'completed',
    amount: 10_000,
    final_amount: 10_000,
    currency: 'GHS',
    meta: { order: 'A-1' },
  },
};
const checkoutBody = JSON.stringify(checkout);

/** Headers as the service sends them, signed independently of the SDK with node:crypto. */
const orderHeaders = (body: string | Buffer = orderBody, timestamp = NOW, signature = hmac(SECRET, body)) => ({
  'x-webhook-signature': signature,
  'x-webhook-timestamp': String(timestamp),
});
const checkoutHeaders = (body = checkoutBody, timestamp = NOW, signature = `v1=${hmac(SECRET, `${timestamp}.${body}`)}`) => ({
  'x-svc-signature': signature,
  'x-svc-timestamp': String(timestamp),
  'x-svc-event-id': 'evt_1',
  'x-svc-event-type': 'payment.succeeded',
});

async function reasonOf(promise: Promise<unknown>): Promise<WebhookVerificationReason> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as WebhookVerificationError).reason;
}

const CRYPTOS: [string, WebCrypto | undefined][] = [
  ["Node's globalThis.crypto", undefined],
  ["node:crypto's webcrypto passed explicitly", webcrypto as unknown as WebCrypto],
];

describe.each(CRYPTOS)('order and ramp payment webhooks, %s', (_name, crypto) => {
  const verify = (input: Partial<VerifyWebhookInput>) =>
    verifyWebhook({ body: orderBody, headers: orderHeaders(), secret: SECRET, now: at(NOW), crypto, ...input });

  it('accepts the lowercase hex HMAC of the raw body and returns the typed event', async () => {
    const event = await verify({});
    expect(event).toEqual(order);
  });

  it('accepts the body as a string, a Buffer, a Uint8Array or an ArrayBuffer', async () => {
    const buffer = Buffer.from(orderBody);
    for (const body of [orderBody, buffer, new Uint8Array(buffer), new TextEncoder().encode(orderBody).buffer]) {
      await expect(verify({ body })).resolves.toEqual(order);
    }
  });

  it('covers the exact bytes of a body: a byte order mark is signed and then refused as JSON, invalid UTF-8 never matches', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(orderBody)]);
    // Signed over its bytes, BOM included: the signature holds, and JSON.parse refuses it as it does the same text as a string.
    expect(await reasonOf(verify({ body: bom, headers: orderHeaders(bom) }))).toBe('invalid_json');
    expect(await reasonOf(verify({ body: bom.toString(), headers: orderHeaders(bom) }))).toBe('invalid_json');
    // A BOM put before a body signed without one is a change of the bytes.
    expect(await reasonOf(verify({ body: bom, headers: orderHeaders(orderBody) }))).toBe('no_matching_signature');
    // Invalid UTF-8, signed over its bytes, reads back as other bytes.
    const invalid = Buffer.concat([Buffer.from(orderBody.slice(0, -1)), Buffer.from([0xff, 0x7d])]);
    expect(await reasonOf(verify({ body: invalid, headers: orderHeaders(invalid) }))).toBe('no_matching_signature');
  });

  it('reads a plain object that has a header named get', async () => {
    await expect(verify({ headers: { ...orderHeaders(), get: 'x' } })).resolves.toEqual(order);
  });

  it('reads headers from a Headers object and from mixed-case keys', async () => {
    await expect(verify({ headers: new Headers(orderHeaders()) })).resolves.toEqual(order);
    const { 'x-webhook-signature': sig, 'x-webhook-timestamp': ts } = orderHeaders();
    await expect(verify({ headers: { 'X-Webhook-Signature': sig, 'X-Webhook-Timestamp': ts } })).resolves.toEqual(order);
  });

  it('accepts base64, and the HMAC of "<timestamp>.<raw body>" in hex or base64', async () => {
    for (const signature of [
      hmac(SECRET, orderBody, 'base64'),
      hmac(SECRET, `${NOW}.${orderBody}`),
      hmac(SECRET, `${NOW}.${orderBody}`, 'base64'),
      hmac(SECRET, orderBody).toUpperCase(),
    ]) {
      await expect(verify({ headers: orderHeaders(orderBody, NOW, signature) })).resolves.toEqual(order);
    }
  });

  it('accepts any of several secrets during a rotation', async () => {
    const headers = orderHeaders(orderBody, NOW, hmac('whsec_old', orderBody));
    await expect(verify({ headers, secret: ['whsec_new', 'whsec_old'] })).resolves.toEqual(order);
    expect(await reasonOf(verify({ headers, secret: ['whsec_new'] }))).toBe('no_matching_signature');
  });

  it('accepts X-Webhook-Signature-Previous, made with the secret before a rotation', async () => {
    const headers = { ...orderHeaders(orderBody, NOW, hmac('whsec_new', orderBody)), 'x-webhook-signature-previous': hmac('whsec_old', orderBody) };
    await expect(verify({ headers, secret: 'whsec_old' })).resolves.toEqual(order);
    await expect(verify({ headers, secret: 'whsec_new' })).resolves.toEqual(order);
    expect(await reasonOf(verify({ headers, secret: 'whsec_other' }))).toBe('no_matching_signature');
  });

  it('returns a ramp payment event with its data', async () => {
    const payment = {
      event: 'payment.completed',
      data: {
        reference: 'PAY-20260101-0b0f2c8e-7a8e-4f0c-9a49-3f5c3b0b8b11',
        status: 'success',
        amount: 15_000,
        currency: 'GHS',
        provider_ref: 'MTN-123',
        channel: 'mobile_money',
        meta: { ramp_order_id: '2f1d8c4e-4e8e-4a55-a0b1-7d1a0f5b9e21', ramp_type: 'onramp' },
      },
    };
    const body = JSON.stringify(payment);
    const event = await verify({ body, headers: orderHeaders(body) });
    expect(event).toEqual(payment);
  });

  it('refuses a body signed with another secret', async () => {
    expect(await reasonOf(verify({ secret: 'whsec_wrong' }))).toBe('no_matching_signature');
  });

  it('refuses a body that was parsed and serialised again, pointing at the raw body', async () => {
    const reserialised = JSON.stringify(JSON.parse(orderBody), null, 2);
    const error = await verify({ body: reserialised }).catch((e: unknown) => e as WebhookVerificationError);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toMatchObject({ reason: 'no_matching_signature' });
    expect((error as Error).message).toContain('raw request body');
    expect((error as Error).message).toContain('express.raw');
  });

  it('refuses a parsed object with a hint about the raw body', async () => {
    const error = await verify({ body: order as never }).catch((e: unknown) => e as WebhookVerificationError);
    expect(error).toMatchObject({ reason: 'body_not_raw', name: 'WebhookVerificationError' });
    expect((error as Error).message).toMatch(/got object\. Pass the raw request body/);
  });

  it.each([
    ['x-webhook-signature', 'missing_header'],
    ['x-webhook-timestamp', 'missing_header'],
  ] as const)('refuses a request without %s', async (header, reason) => {
    const headers: Record<string, string> = orderHeaders();
    delete headers[header];
    expect(await reasonOf(verify({ headers }))).toBe(reason);
  });

  it.each([
    ['a timestamp that is not Unix seconds', { 'x-webhook-timestamp': '2026-01-01T00:00:00Z' }],
    ['a signature that is neither hex nor base64', { 'x-webhook-signature': 'not a signature!' }],
    ['a signature of the wrong length', { 'x-webhook-signature': 'abcdef' }],
  ])('refuses %s as a malformed header', async (_what, override) => {
    expect(await reasonOf(verify({ headers: { ...orderHeaders(), ...override } }))).toBe('malformed_header');
  });

  it('refuses a timestamp older or newer than the tolerance, and accepts one at its edge', async () => {
    expect(await reasonOf(verify({ now: at(NOW + 301) }))).toBe('timestamp_too_old');
    expect(await reasonOf(verify({ now: at(NOW - 301) }))).toBe('timestamp_in_future');
    await expect(verify({ now: at(NOW + 300) })).resolves.toEqual(order);
    await expect(verify({ now: at(NOW - 300) })).resolves.toEqual(order);
    expect(await reasonOf(verify({ now: at(NOW + 31), tolerance: 30 }))).toBe('timestamp_too_old');
  });

  it('says how far off a refused timestamp is', async () => {
    const error = await verify({ now: at(NOW + 301) }).catch((e: unknown) => e as WebhookVerificationError);
    expect(error).toMatchObject({ reason: 'timestamp_too_old', message: 'timestamp_too_old: 301 s off' });
    await expect(verify({ now: at(NOW - 301) })).rejects.toMatchObject({ reason: 'timestamp_in_future', message: 'timestamp_in_future: 301 s off' });
  });

  it('skips the timestamp check with tolerance 0', async () => {
    await expect(verify({ now: at(NOW + 86_400 * 365), tolerance: 0 })).resolves.toEqual(order);
  });

  it('refuses a correctly signed body that is not a JSON object', async () => {
    for (const body of ['not json', '[1,2]', '{"no_event":true}']) {
      expect(await reasonOf(verify({ body, headers: orderHeaders(body) }))).toBe('invalid_json');
    }
  });

  it('refuses an empty secret instead of accepting what an empty key signs', async () => {
    const headers = orderHeaders(orderBody, NOW, hmac('', orderBody));
    await expect(verify({ headers, secret: '' })).rejects.toThrow('The webhook secret is required');
  });

  it('signs test webhooks that match an independent HMAC and verify', async () => {
    const signed = await signWebhook({ payload: order, secret: SECRET, timestamp: NOW, crypto });
    expect(signed.body).toBe(orderBody);
    expect(signed.headers).toEqual({ 'X-Webhook-Signature': hmac(SECRET, orderBody), 'X-Webhook-Timestamp': String(NOW) });
    await expect(verify({ body: signed.body, headers: signed.headers })).resolves.toEqual(order);
  });
});

describe.each(CRYPTOS)('checkout webhooks, %s', (_name, crypto) => {
  const verify = (input: Partial<VerifyWebhookInput>) =>
    verifyCheckoutWebhook({ body: checkoutBody, headers: checkoutHeaders(), secret: SECRET, now: at(NOW), crypto, ...input });

  it('accepts v1= hex HMAC of "<timestamp>.<raw body>" and returns the typed event', async () => {
    await expect(verify({})).resolves.toEqual(checkout);
  });

  it('takes the event id from X-Svc-Event-ID when the body has none', async () => {
    const { id: _id, ...rest } = checkout;
    const body = JSON.stringify(rest);
    const event = await verify({ body, headers: checkoutHeaders(body) });
    expect(event.id).toBe('evt_1');
  });

  it('accepts one matching signature among several, and ignores other versions', async () => {
    const good = checkoutHeaders()['x-svc-signature'];
    const headers = { ...checkoutHeaders(), 'x-svc-signature': `v0=abc, v1=${'0'.repeat(64)}, ${good}` };
    await expect(verify({ headers })).resolves.toEqual(checkout);
  });

  it('refuses a signature of the body alone (the timestamp is signed)', async () => {
    const headers = checkoutHeaders(checkoutBody, NOW, `v1=${hmac(SECRET, checkoutBody)}`);
    expect(await reasonOf(verify({ headers }))).toBe('no_matching_signature');
  });

  it('refuses a signature without the v1= prefix as malformed', async () => {
    const headers = checkoutHeaders(checkoutBody, NOW, hmac(SECRET, `${NOW}.${checkoutBody}`));
    expect(await reasonOf(verify({ headers }))).toBe('malformed_header');
  });

  it.each(['x-svc-signature', 'x-svc-timestamp', 'x-svc-event-id', 'x-svc-event-type'] as const)(
    'refuses a request without %s',
    async (header) => {
      const headers: Record<string, string> = checkoutHeaders();
      delete headers[header];
      expect(await reasonOf(verify({ headers }))).toBe('missing_header');
    },
  );

  it('refuses a replay signed six minutes ago and one dated ahead', async () => {
    expect(await reasonOf(verify({ now: at(NOW + 360) }))).toBe('timestamp_too_old');
    expect(await reasonOf(verify({ now: at(NOW - 360) }))).toBe('timestamp_in_future');
  });

  it('accepts the previous secret during a rotation', async () => {
    const headers = checkoutHeaders(checkoutBody, NOW, `v1=${hmac('old', `${NOW}.${checkoutBody}`)}`);
    await expect(verify({ headers, secret: [SECRET, 'old'] })).resolves.toEqual(checkout);
  });

  it('signs test webhooks that match an independent HMAC and verify', async () => {
    const signed = await signCheckoutWebhook({ payload: checkout, secret: SECRET, timestamp: NOW, crypto });
    expect(signed.headers).toEqual({
      'X-Svc-Event-ID': 'evt_1',
      'X-Svc-Event-Type': 'payment.succeeded',
      'X-Svc-Timestamp': String(NOW),
      'X-Svc-Signature': `v1=${hmac(SECRET, `${NOW}.${checkoutBody}`)}`,
    });
    await expect(verify({ body: signed.body, headers: signed.headers })).resolves.toEqual(checkout);
  });
});

describe('properties', () => {
  const secrets = fc.string({ minLength: 1, maxLength: 64, unit: 'binary' });
  const payloads = fc.record({ event: fc.constantFrom('order.completed', 'order.failed', 'payment.failed'), note: fc.string({ unit: 'binary' }), extra: fc.jsonValue() });

  it('sign then verify holds for any body and secret, in both schemes', async () => {
    await fc.assert(
      fc.asyncProperty(payloads, secrets, async (payload, secret) => {
        const body = JSON.stringify(payload);
        const signed = await signWebhook({ payload: body, secret, timestamp: NOW });
        expect(await verifyWebhook({ body: signed.body, headers: signed.headers, secret, now: at(NOW) })).toEqual(JSON.parse(body));
        const c = await signCheckoutWebhook({ payload: body, secret, timestamp: NOW, eventId: 'e', eventType: 't' });
        expect(await verifyCheckoutWebhook({ body: c.body, headers: c.headers, secret, now: at(NOW) })).toMatchObject(JSON.parse(body));
      }),
      { numRuns: 150 },
    );
  });

  it('a flipped bit anywhere in the body always fails', async () => {
    await fc.assert(
      fc.asyncProperty(payloads, secrets, fc.nat(), fc.integer({ min: 0, max: 7 }), async (payload, secret, position, bit) => {
        const signed = await signWebhook({ payload: JSON.stringify(payload), secret, timestamp: NOW });
        const bytes = Buffer.from(signed.body);
        bytes[position % bytes.length]! ^= 1 << bit;
        expect(await reasonOf(verifyWebhook({ body: bytes, headers: signed.headers, secret, now: at(NOW) }))).toBe('no_matching_signature');
        const c = await signCheckoutWebhook({ payload: JSON.stringify(payload), secret, timestamp: NOW, eventId: 'e', eventType: 't' });
        const cBytes = Buffer.from(c.body);
        cBytes[position % cBytes.length]! ^= 1 << bit;
        expect(await reasonOf(verifyCheckoutWebhook({ body: cBytes, headers: c.headers, secret, now: at(NOW) }))).toBe('no_matching_signature');
      }),
      { numRuns: 150 },
    );
  });

  it('a changed signature digit or a changed timestamp always fails', async () => {
    await fc.assert(
      fc.asyncProperty(payloads, secrets, fc.integer({ min: 0, max: 63 }), fc.integer({ min: 1, max: 15 }), async (payload, secret, i, delta) => {
        const c = await signCheckoutWebhook({ payload: JSON.stringify(payload), secret, timestamp: NOW, eventId: 'e', eventType: 't' });
        const hex = c.headers['X-Svc-Signature']!.slice(3);
        const digit = ((Number.parseInt(hex[i]!, 16) + delta) % 16).toString(16);
        const tampered = { ...c.headers, 'X-Svc-Signature': `v1=${hex.slice(0, i)}${digit}${hex.slice(i + 1)}` };
        expect(await reasonOf(verifyCheckoutWebhook({ body: c.body, headers: tampered, secret, now: at(NOW) }))).toBe('no_matching_signature');
        const moved = { ...c.headers, 'X-Svc-Timestamp': String(NOW + delta) };
        expect(await reasonOf(verifyCheckoutWebhook({ body: c.body, headers: moved, secret, now: at(NOW) }))).toBe('no_matching_signature');
      }),
      { numRuns: 150 },
    );
  });
});

describe('the node:crypto build (the node, bun and deno export conditions)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('signs as the Web Crypto build does and verifies without Web Crypto', async () => {
    const sign = vi.spyOn(globalThis.crypto.subtle, 'sign');
    const made = await nodeBuild.signWebhook({ payload: order, secret: SECRET, timestamp: NOW });
    expect(made).toEqual(await signWebhook({ payload: order, secret: SECRET, timestamp: NOW }));
    // The Web Crypto build went through the spy; the node:crypto build must not.
    expect(sign).toHaveBeenCalledTimes(1);
    sign.mockClear();
    await expect(nodeBuild.verifyWebhook({ body: made.body, headers: made.headers, secret: SECRET, now: at(NOW) })).resolves.toEqual(order);
    const c = await nodeBuild.signCheckoutWebhook({ payload: checkout, secret: SECRET, timestamp: NOW });
    await expect(nodeBuild.verifyCheckoutWebhook({ body: c.body, headers: c.headers, secret: SECRET, now: at(NOW) })).resolves.toMatchObject({ id: checkout.id });
    expect(sign).not.toHaveBeenCalled();
  });

  it('computes with the Web Crypto given as `crypto`, and refuses the same tampering', async () => {
    const subtle = webcrypto.subtle as unknown as SubtleCrypto;
    const given = { subtle: { importKey: subtle.importKey.bind(subtle), sign: vi.fn(subtle.sign.bind(subtle)) } as unknown as SubtleCrypto };
    const input = { body: orderBody, headers: orderHeaders(), secret: SECRET, now: at(NOW), crypto: given };
    await expect(nodeBuild.verifyWebhookDelivery(input)).resolves.toMatchObject({ event: order, scheme: 'body', encoding: 'hex' });
    expect(given.subtle.sign).toHaveBeenCalled();
    expect(await reasonOf(nodeBuild.verifyWebhook({ ...input, body: `${orderBody} ` }))).toBe('no_matching_signature');
  });

  it('imports each secret once for a Web Crypto, and again for another', async () => {
    const subtle = webcrypto.subtle as unknown as SubtleCrypto;
    const crypto = () => ({ subtle: { importKey: vi.fn(subtle.importKey.bind(subtle)), sign: subtle.sign.bind(subtle) } as unknown as SubtleCrypto });
    const [first, second] = [crypto(), crypto()];
    const old = hmac('whsec_old', orderBody);
    const input = { body: orderBody, headers: orderHeaders(orderBody, NOW, old), secret: ['whsec_new', 'whsec_old'], now: at(NOW) };
    for (let i = 0; i < 3; i++) await expect(nodeBuild.verifyWebhook({ ...input, crypto: first })).resolves.toEqual(order);
    expect(first.subtle.importKey).toHaveBeenCalledTimes(2);
    await expect(verifyWebhook({ ...input, crypto: second })).resolves.toEqual(order);
    await expect(verifyWebhook({ ...input, crypto: second })).resolves.toEqual(order);
    expect(second.subtle.importKey).toHaveBeenCalledTimes(2);
  });
});

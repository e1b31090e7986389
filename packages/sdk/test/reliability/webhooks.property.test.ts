/**
 * Hostile webhooks, as properties: whatever the body, the secret and the time, a delivery
 * signed with the secret verifies, and a body or signature changed by one byte, a truncated
 * signature, another secret, or a timestamp outside the tolerance (too old: a replay; too
 * far ahead) is refused. Signatures are made here with node:crypto, independently of the SDK.
 * Every property runs against both builds: Web Crypto (edge runtimes, the default) and
 * node:crypto (the node, bun and deno export conditions).
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDeduplicator } from '../../src/webhooks/dedupe.js';
import * as webVerifiers from '../../src/webhooks/index.js';
import { WebhookVerificationError, type VerifyWebhookInput, type WebhookVerificationReason } from '../../src/webhooks/index.js';
import * as nodeVerifiers from '../../src/webhooks/node.js';
import * as nodeTesting from '../../src/webhooks/testing-node.js';
import * as webTesting from '../../src/webhooks/testing.js';

/** Each build: its verifiers and its signers. */
const webBuild = { ...webVerifiers, ...webTesting };
const nodeBuild = { ...nodeVerifiers, ...nodeTesting };

const RUNS = 100;

/** 2026-01-01T00:00:00Z, Unix seconds. */
const T0 = 1_767_225_600;

type Scheme = 'order' | 'checkout';

/** Headers as the service sends them for `body`, signed with node:crypto. */
function signed(scheme: Scheme, body: Buffer, secret: string, timestamp: number): Record<string, string> {
  if (scheme === 'order') {
    return { 'x-webhook-signature': createHmac('sha256', secret).update(body).digest('hex'), 'x-webhook-timestamp': String(timestamp) };
  }
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  return { 'x-svc-signature': `v1=${mac}`, 'x-svc-timestamp': String(timestamp), 'x-svc-event-id': 'evt_1', 'x-svc-event-type': 'payment.succeeded' };
}

const SIGNATURE_HEADER: Record<Scheme, string> = { order: 'x-webhook-signature', checkout: 'x-svc-signature' };
/** The hex HMAC inside the signature header. */
const hexOf = (scheme: Scheme, header: string) => (scheme === 'order' ? header : header.slice(3));
const withHex = (scheme: Scheme, hex: string) => (scheme === 'order' ? hex : `v1=${hex}`);

/** The verifiers of one build. */
function verifiers(build: typeof webBuild) {
  const verify = (scheme: Scheme, input: VerifyWebhookInput) => (scheme === 'order' ? build.verifyWebhook(input) : build.verifyCheckoutWebhook(input));
  /** Why verification refused, or undefined when it accepted. */
  async function refusal(scheme: Scheme, input: VerifyWebhookInput): Promise<WebhookVerificationReason | undefined> {
    try {
      await verify(scheme, input);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(WebhookVerificationError);
      return (error as WebhookVerificationError).reason;
    }
  }
  return { verify, refusal, signWebhook: build.signWebhook, signCheckoutWebhook: build.signCheckoutWebhook };
}

/** Any JSON object with an `event` (order webhooks need one), written compactly or indented, unicode included. */
const bodies = fc
  .tuple(
    fc.constantFrom('order.completed', 'order.failed', 'payment.completed', 'payment.succeeded'),
    fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
    fc.constantFrom(undefined, 2, '\t'),
  )
  .map(([event, rest, indent]) => Buffer.from(JSON.stringify({ ...rest, event }, null, indent)));
/** Any non-empty secret, unicode included. */
const secrets = fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' });
const schemes = fc.constantFrom<Scheme>('order', 'checkout');
/** A signing time within ten years of 2026, Unix seconds. */
const times = fc.integer({ min: T0 - 5 * 365 * 86_400, max: T0 + 5 * 365 * 86_400 });

describe.each([
  ['Web Crypto', webBuild],
  ['node:crypto', nodeBuild],
])('webhook verification on the %s build, for any body, secret and time', (_, build) => {
  const { verify, refusal, signWebhook, signCheckoutWebhook } = verifiers(build);

  it('accepts what the service signs, from the raw bytes, and returns the body', async () => {
    await fc.assert(
      fc.asyncProperty(schemes, bodies, secrets, times, fc.integer({ min: -300, max: 300 }), async (scheme, body, secret, at, skew) => {
        const event = await verify(scheme, { body, headers: signed(scheme, body, secret, at), secret, now: (at + skew) * 1000 });
        expect(event).toMatchObject(JSON.parse(body.toString()));
      }),
      { numRuns: RUNS },
    );
  });

  it('round-trips the SDK’s own signWebhook and signCheckoutWebhook', async () => {
    await fc.assert(
      fc.asyncProperty(schemes, bodies, secrets, times, async (scheme, body, secret, timestamp) => {
        const payload = body.toString();
        const made = scheme === 'order' ? await signWebhook({ payload, secret, timestamp }) : await signCheckoutWebhook({ payload, secret, timestamp });
        expect(made.body).toBe(payload);
        expect(Object.fromEntries(Object.entries(made.headers).map(([k, v]) => [k.toLowerCase(), v]))).toMatchObject(
          scheme === 'order' ? signed(scheme, body, secret, timestamp) : { 'x-svc-signature': signed(scheme, body, secret, timestamp)['x-svc-signature'] },
        );
        await expect(verify(scheme, { body: made.body, headers: made.headers, secret, now: timestamp * 1000 })).resolves.toMatchObject(JSON.parse(payload));
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a body changed by one byte: replaced, inserted or removed', async () => {
    await fc.assert(
      fc.asyncProperty(
        schemes,
        bodies,
        secrets,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        fc.constantFrom('replace', 'insert', 'remove'),
        async (scheme, body, secret, position, delta, change) => {
          const headers = signed(scheme, body, secret, T0);
          const i = position % body.length;
          const changed =
            change === 'replace'
              ? Buffer.from(body.map((b, j) => (j === i ? (b + delta) % 256 : b)))
              : change === 'insert'
                ? Buffer.concat([body.subarray(0, i), Buffer.from([delta]), body.subarray(i)])
                : Buffer.concat([body.subarray(0, i), body.subarray(i + 1)]);
          expect(await refusal(scheme, { body: changed, headers, secret, now: T0 * 1000 })).toBe('no_matching_signature');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses a signature with one byte of the HMAC changed', async () => {
    await fc.assert(
      fc.asyncProperty(schemes, bodies, secrets, fc.integer({ min: 0, max: 31 }), fc.integer({ min: 1, max: 255 }), async (scheme, body, secret, i, delta) => {
        const headers = signed(scheme, body, secret, T0);
        const mac = Buffer.from(hexOf(scheme, headers[SIGNATURE_HEADER[scheme]]!), 'hex');
        mac[i] = (mac[i]! + delta) % 256;
        const tampered = { ...headers, [SIGNATURE_HEADER[scheme]]: withHex(scheme, mac.toString('hex')) };
        expect(await refusal(scheme, { body, headers: tampered, secret, now: T0 * 1000 })).toBe('no_matching_signature');
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a signature header with any one character changed, unless only its letter case changed', async () => {
    await fc.assert(
      fc.asyncProperty(schemes, bodies, secrets, fc.nat(), fc.integer({ min: 0x21, max: 0x7e }), async (scheme, body, secret, position, code) => {
        const headers = signed(scheme, body, secret, T0);
        const header = headers[SIGNATURE_HEADER[scheme]]!;
        const i = position % header.length;
        const replacement = String.fromCharCode(code);
        // Hex is case-insensitive: an A for an a is the same signature.
        fc.pre(replacement.toLowerCase() !== header[i]!.toLowerCase());
        const tampered = { ...headers, [SIGNATURE_HEADER[scheme]]: header.slice(0, i) + replacement + header.slice(i + 1) };
        expect(await refusal(scheme, { body, headers: tampered, secret, now: T0 * 1000 })).toMatch(/^(no_matching_signature|malformed_header)$/);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a truncated signature, in hex or in base64', async () => {
    await fc.assert(
      fc.asyncProperty(schemes, bodies, secrets, fc.constantFrom('hex', 'base64'), fc.integer({ min: 1, max: 64 }), async (scheme, body, secret, encoding, cut) => {
        const headers = signed(scheme, body, secret, T0);
        const mac = Buffer.from(hexOf(scheme, headers[SIGNATURE_HEADER[scheme]]!), 'hex').toString(encoding);
        // Base64 padding carries nothing: cut into the characters that do.
        const meaningful = mac.replace(/=+$/, '');
        const truncated = meaningful.slice(0, Math.max(0, meaningful.length - cut));
        const tampered = { ...headers, [SIGNATURE_HEADER[scheme]]: withHex(scheme, truncated) };
        expect(await refusal(scheme, { body, headers: tampered, secret, now: T0 * 1000 })).toMatch(/^(malformed_header|missing_header|no_matching_signature)$/);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a delivery signed with another secret', async () => {
    await fc.assert(
      fc.asyncProperty(schemes, bodies, secrets, secrets, async (scheme, body, secret, other) => {
        fc.pre(secret !== other);
        const headers = signed(scheme, body, other, T0);
        expect(await refusal(scheme, { body, headers, secret, now: T0 * 1000 })).toBe('no_matching_signature');
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a timestamp older than the tolerance (a replay) or further ahead, and accepts one within it', async () => {
    await fc.assert(
      fc.asyncProperty(
        schemes,
        bodies,
        secrets,
        times,
        fc.integer({ min: 1, max: 7 * 86_400 }),
        fc.integer({ min: 1, max: 10 * 365 * 86_400 }),
        async (scheme, body, secret, at, tolerance, beyond) => {
          const input = { body, headers: signed(scheme, body, secret, at), secret, tolerance };
          expect(await refusal(scheme, { ...input, now: (at + tolerance + beyond) * 1000 })).toBe('timestamp_too_old');
          expect(await refusal(scheme, { ...input, now: (at - tolerance - beyond) * 1000 })).toBe('timestamp_in_future');
          expect(await refusal(scheme, { ...input, now: (at + tolerance) * 1000 + 999 })).toBeUndefined();
          expect(await refusal(scheme, { ...input, now: (at - tolerance) * 1000 })).toBeUndefined();
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses a checkout delivery whose timestamp header was moved, whatever the tolerance', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, secrets, fc.integer({ min: -86_400, max: 86_400 }).filter((d) => d !== 0), async (body, secret, moved) => {
        const headers = { ...signed('checkout', body, secret, T0), 'x-svc-timestamp': String(T0 + moved) };
        expect(await refusal('checkout', { body, headers, secret, tolerance: 0 })).toBe('no_matching_signature');
      }),
      { numRuns: RUNS },
    );
  });
});

describe('replayed deliveries', () => {
  it('run the handler once, however many copies arrive and however they interleave', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('evt_a', 'evt_b', 'evt_c'), { minLength: 1, maxLength: 30 }), fc.scheduler(), async (deliveries, s) => {
        const dedupe = createDeduplicator();
        const handled: string[] = [];
        const runs = deliveries.map((id) => dedupe.once(id, s.scheduleFunction(async () => void handled.push(id))));
        await s.waitFor(Promise.all(runs));
        expect(handled.sort()).toEqual([...new Set(deliveries)].sort());
      }),
      { numRuns: RUNS },
    );
  });
});

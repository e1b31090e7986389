/**
 * Webhook signature verification for the two schemes the service uses:
 *
 * - order and ramp payment webhooks (the merchant's webhook URL): `X-Webhook-Signature`, an
 *   HMAC-SHA256 keyed with the webhook secret, and `X-Webhook-Timestamp`, Unix seconds; for
 *   24 h after a secret rotation also `X-Webhook-Signature-Previous`, the same made with the
 *   previous secret. The live encoding and signed content are not documented (000 shows the
 *   body alone, so the timestamp may be unsigned), so lowercase hex and base64 are accepted,
 *   over the raw body or over `<timestamp>.<raw body>`, until the merchant pins one with
 *   `scheme` and `encoding`; none of these can be made without the secret.
 * - checkout webhooks: `X-Svc-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`,
 *   `X-Svc-Timestamp`, `X-Svc-Event-ID`, `X-Svc-Event-Type`.
 *
 * Both check the timestamp against a tolerance (too old and too far in the future), accept
 * several secrets during a rotation, and compare in constant time. The tolerance stops a
 * replay only where the timestamp is signed; where it is not, de-duplication does.
 */
import { CredentialError, SikarampError } from '../core/errors.js';
import { toHex, webHmac, type Hmac, type WebCrypto } from './crypto.js';
import type { CheckoutWebhookEvent, WebhookEvent } from './events.js';

/** Default tolerance between the signed timestamp and the time of receipt, seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Why a webhook was refused; one value per failure. */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'no_matching_signature'
  | 'invalid_json'
  | 'body_not_raw'
  | 'header_mismatch';

/** The webhook is not authentic, not fresh, or not readable. Answer non-2xx and apply no side effects. */
export class WebhookVerificationError extends SikarampError {
  override name = 'WebhookVerificationError';
  /** Which check failed. */
  readonly reason: WebhookVerificationReason;
  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Request headers as a `Headers` object or a plain object such as Node's `req.headers`. */
export type HeadersInput = Headers | Record<string, string | readonly string[] | undefined>;

export interface VerifyWebhookInput {
  /** The request body exactly as received: a string, a Buffer, a Uint8Array or an ArrayBuffer, never a parsed object. */
  body: string | Uint8Array | ArrayBuffer;
  headers: HeadersInput;
  /** The webhook secret; during a rotation pass the new and the old one. */
  secret: string | readonly string[];
  /** Largest accepted difference between the signed timestamp and now, seconds. Default 300; 0 turns the check off. */
  tolerance?: number;
  /** Time of receipt, ms since the epoch or a Date. Default: now. */
  now?: number | Date;
  /** A Web Crypto to compute the HMAC with. Default: node:crypto on Node, Bun and Deno; `globalThis.crypto` elsewhere. */
  crypto?: WebCrypto;
}

/** What an order or ramp payment webhook signature covers: the raw body, or `<timestamp>.<raw body>`. */
export type WebhookSignatureScheme = 'body' | 'timestamp.body';
/** How the signature is written in the header. */
export type WebhookSignatureEncoding = 'hex' | 'base64';

export interface VerifyOrderWebhookInput extends VerifyWebhookInput {
  /**
   * Accept only this signed content. Default: either. Pin `'timestamp.body'` once you know the
   * live service signs the timestamp: then a replay with a fresh `X-Webhook-Timestamp` fails
   * the signature and the tolerance stops replays; with `'body'` (what the mock sends) it does not.
   */
  scheme?: WebhookSignatureScheme;
  /** Accept only this encoding of the signature. Default: either (hex, upper or lower case; base64, standard or URL-safe). */
  encoding?: WebhookSignatureEncoding;
}

/** A verified delivery: the event and what its signature covered. */
export interface VerifiedWebhook<E> {
  event: E;
  /** The delivery's timestamp, Unix seconds. */
  timestamp: number;
  /** The content the matching signature covers. */
  scheme: WebhookSignatureScheme;
  /** How the matching signature was written. */
  encoding: WebhookSignatureEncoding;
  /**
   * Whether the timestamp is under the signature. When false, anyone who captured a delivery
   * can send it again with a fresh timestamp and pass the tolerance: only de-duplication
   * (`createDeduplicator` with a durable store) refuses the replay.
   */
  timestampSigned: boolean;
}

/** What `verify` checks and returns: 0 an order delivery, 1 its event alone, 2 a checkout event. */
export type Kind = 0 | 1 | 2;

const SCHEMES: WebhookSignatureScheme[] = ['body', 'timestamp.body'];
/** Ends every message that may mean the body was parsed first. */
const RAW_BODY = 'Pass the raw request body (e.g. express.raw())';
const decoder = new TextDecoder();

/** The message is the reason, then what was found: `missing_header: X-Svc-Signature`. */
const fail = (reason: WebhookVerificationReason, detail: string): never => {
  throw new WebhookVerificationError(reason, `${reason}: ${detail}`);
};

/**
 * Verifies a delivery with `hmac` (or Web Crypto, when the caller passes `crypto`): raw body,
 * signature (every entry, the previous secret's too for order webhooks) and timestamp headers,
 * tolerance, then an HMAC that matches for one secret and one scheme, and a JSON object body.
 */
export async function verify(input: VerifyOrderWebhookInput, kind: Kind, hmac: Hmac): Promise<any> {
  const { headers, tolerance = DEFAULT_TOLERANCE_SECONDS, crypto } = input;
  const checkout = kind > 1;
  // Checkout has one scheme, and takes no pinning.
  const { scheme, encoding }: VerifyOrderWebhookInput = checkout ? ({} as never) : input;
  if (!(tolerance >= 0) || ![undefined, ...SCHEMES].includes(scheme) || ![undefined, 'hex', 'base64'].includes(encoding)) {
    throw new RangeError('Invalid scheme, encoding or tolerance');
  }

  // A plain object (Node's req.headers, signWebhook's) is read without regard to case, its first
  // defined value for each name. An array (a header sent twice) reads as its values joined with commas.
  const plain: Record<string, unknown> = {};
  const isPlain = typeof headers.get !== 'function';
  if (isPlain) for (const key in headers) plain[key.toLowerCase()] ??= (headers as Record<string, unknown>)[key];
  const read = (name: string) => `${(isPlain ? plain[name.toLowerCase()] : (headers as Headers).get(name)) ?? ''}`.trim();
  const need = (name: string) => read(name) || fail('missing_header', name);

  const id = checkout && need('X-Svc-Event-ID');
  const type = checkout && need('X-Svc-Event-Type');
  // A Buffer, another view or an ArrayBuffer, from any realm (a vm context, a test runner): all have a byteLength.
  let body = input.body as any;
  if (typeof body !== 'string') {
    if (!(body?.byteLength >= 0)) fail('body_not_raw', `got ${body === null ? 'null' : typeof body}. ${RAW_BODY}`);
    body = new Uint8Array(body.buffer ?? body, body.byteOffset, body.byteLength);
  }
  const prefix = checkout ? 'X-Svc-' : 'X-Webhook-';
  // For 24 h after a rotation, order webhooks also carry the previous secret's signature.
  const signature = `${need(`${prefix}Signature`)},${checkout ? '' : read('X-Webhook-Signature-Previous')}`;
  const timestamp = need(`${prefix}Timestamp`);
  if (!/^\d{1,12}$/.test(timestamp)) fail('malformed_header', `${prefix}Timestamp`);

  // Each entry as lowercase hex, with its encoding: hex (any case) or base64 (standard or URL-safe), after
  // `v1=` (checkout: only those count, other versions may appear beside them) or `sha256=` (order: optional).
  const candidates: [string, WebhookSignatureEncoding][] = [];
  for (const part of signature.split(/[\s,]+/)) {
    const [, v1, hex, base64] = /^(?:(v1=)|sha256=)?(?:([\da-fA-F]{64})|([\w+/-]{43})=?)$/.exec(part) ?? [];
    if (v1 || !checkout) {
      if (hex && encoding !== 'base64') candidates.push([hex.toLowerCase(), 'hex']);
      if (base64 && encoding !== 'hex') candidates.push([toHex(Array.from(atob(base64.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))), 'base64']);
    }
  }
  if (!candidates.length) fail('malformed_header', `${prefix}Signature`);

  const age = Math.floor(+(input.now ?? Date.now()) / 1000) - +timestamp;
  if (tolerance && Math.abs(age) > tolerance) fail(age > 0 ? 'timestamp_too_old' : 'timestamp_in_future', `${Math.abs(age)} s off, over the ${tolerance} s tolerance: a replay, or a wrong clock`);

  // A string is the common case: no array to flatten.
  const secrets = (typeof input.secret === 'string' ? [input.secret] : [input.secret].flat()).filter((secret) => secret && typeof secret === 'string');
  if (!secrets.length) throw new CredentialError('The webhook secret is required');

  // Each secret with each scheme, in turn; every candidate compared in constant time, so the time taken does not say which matched.
  for (const secret of secrets) {
    for (const signed of checkout ? SCHEMES.slice(1) : scheme ? [scheme] : SCHEMES) {
      let expected = (crypto ? webHmac : hmac)(secret, signed === 'body' ? '' : `${timestamp}.`, body, crypto);
      // node:crypto answers at once: no turn of the microtask queue for it.
      if (typeof expected !== 'string') expected = await expected;
      let matched: WebhookSignatureEncoding | undefined;
      for (const [hex, encoding] of candidates) {
        let diff = 0;
        for (let j = 0; j < 64; j++) diff |= expected.charCodeAt(j) ^ hex.charCodeAt(j);
        if (!diff) matched ??= encoding;
      }
      if (!matched) continue;

      let event: any;
      try {
        event = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
      } catch {}
      if (Object(event) !== event || Array.isArray(event) || (!checkout && typeof event.event !== 'string')) fail('invalid_json', 'not a JSON event object');
      if (!checkout) return kind ? event : { event, timestamp: +timestamp, scheme: signed, encoding: matched, timestampSigned: signed !== 'body' };
      // The event headers are not under the signature: the signed body decides, and a header
      // that says otherwise is refused, so that no one can steer de-duplication or routing with it.
      for (const [field, header] of Object.entries({ id, type })) {
        const value = event[field];
        if (value !== undefined && value !== header) fail(typeof value === 'string' ? 'header_mismatch' : 'invalid_json', `the signed body's ${field} and its header differ`);
      }
      return { ...event, id, type };
    }
  }
  fail('no_matching_signature', `check the secret. ${RAW_BODY}`);
}

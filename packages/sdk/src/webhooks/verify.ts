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
  declare readonly reason: WebhookVerificationReason;
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
const ENCODINGS: WebhookSignatureEncoding[] = ['hex', 'base64'];
/** Ends every message that may mean the body was parsed first. */
const RAW_BODY = 'Pass the raw request body (e.g. express.raw())';
/**
 * Bytes are read as UTF-8 text once, for the HMAC and for JSON.parse: re-encoded, valid UTF-8
 * is the same bytes, a byte order mark included (kept, so JSON.parse refuses it as in a string
 * body); invalid UTF-8 comes back changed and fails the signature.
 */
const decoder = new TextDecoder('utf8', { ignoreBOM: true });

/** The message is the reason, then what was found: `missing_header: x-svc-signature`, `timestamp_too_old: 412 s off`. */
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
  if (!(tolerance >= 0) || !SCHEMES.includes(scheme ?? 'body') || !ENCODINGS.includes(encoding ?? 'hex')) {
    throw new RangeError('Invalid scheme, encoding or tolerance');
  }

  // A plain object (Node's req.headers, signWebhook's) is read without regard to case, its first
  // defined value for each name (a Headers object has no enumerable keys). An array (a header sent
  // twice) reads as its values joined with commas; a `get` that is no function is a header of that name.
  const plain: Record<string, unknown> = {};
  for (const key in headers) plain[key.toLowerCase()] ??= (headers as Record<string, unknown>)[key];
  /** The header `name` (in lowercase), or `absent` when it is missing: by default a missing_header refusal. */
  const read = (name: string, absent?: string): string =>
    `${(typeof headers.get === 'function' ? headers.get(name) : plain[name]) ?? ''}`.trim() || (absent ?? fail('missing_header', name));

  // Checkout's event headers, held against the signed body once it verifies.
  const sent: Record<string, string> = {};
  if (checkout) for (const field of ['id', 'type']) sent[field] = read(`x-svc-event-${field}`);
  // A Buffer, another view or an ArrayBuffer, from any realm (a vm context, a test runner): all have a byteLength.
  let body = input.body as any;
  if (typeof body !== 'string') body = body?.byteLength >= 0 ? decoder.decode(body) : fail('body_not_raw', `got ${typeof body}. ${RAW_BODY}`);
  const prefix = checkout ? 'x-svc-' : 'x-webhook-';
  // For 24 h after a rotation, order webhooks also carry the previous secret's signature.
  const signature = `${read(`${prefix}signature`)},${checkout ? '' : read(`${prefix}signature-previous`, '')}`;
  const timestamp = read(`${prefix}timestamp`);
  if (!/^\d{1,12}$/.test(timestamp)) fail('malformed_header', `${prefix}timestamp`);

  // Each entry (comma or space apart) as lowercase hex, with its encoding: 64 hex digits (any case) or
  // 43 base64 characters (standard or URL-safe) and their padding, after `v1=` (checkout: only those
  // count, other versions may appear beside them) or `sha256=` (order: optional).
  const candidates: [string, WebhookSignatureEncoding][] = [];
  for (const [, version, value] of signature.matchAll(/(?:^|[\s,])(v1=|sha256=)?([\w+/-]{43}=?|[\da-fA-F]{64})(?=[\s,]|$)/g)) {
    const found = ENCODINGS[value![63] ? 0 : 1]!;
    if ((version === 'v1=' || !checkout) && (encoding ?? found) === found) {
      candidates.push([value![63] ? value!.toLowerCase() : toHex(Array.from(atob(value!.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))), found]);
    }
  }
  if (!candidates.length) fail('malformed_header', `${prefix}signature`);

  // In whole seconds, as the timestamp is written.
  const age = Math.floor(+(input.now ?? Date.now()) / 1000) - +timestamp;
  const off = Math.abs(age);
  if (tolerance && off > tolerance) fail(`timestamp_${age > 0 ? 'too_old' : 'in_future'}`, `${off} s off`);

  const { secret } = input;
  const secrets = (Array.isArray(secret) ? secret : [secret]).filter((secret) => secret && typeof secret === 'string');
  if (!secrets.length) throw new CredentialError('The webhook secret is required');

  // Each secret with each scheme, in turn; every candidate compared in constant time, so the time taken does not say which matched.
  for (const secret of secrets) {
    for (const signed of checkout ? SCHEMES.slice(1) : scheme ? [scheme] : SCHEMES) {
      let expected = (crypto ? webHmac : hmac)(secret, `${signed === 'body' ? '' : `${timestamp}.`}${body}`, crypto);
      // node:crypto answers at once: no turn of the microtask queue for it.
      if (typeof expected !== 'string') expected = await expected;
      let matched: WebhookSignatureEncoding | undefined;
      for (const [hex, found] of candidates) {
        let diff = 0;
        for (let i = 0; i < 64; i++) diff |= expected.charCodeAt(i) ^ hex.charCodeAt(i);
        if (!diff) matched ??= found;
      }
      if (!matched) continue;

      let event: any;
      try {
        event = JSON.parse(body);
      } catch {}
      if (Object(event) !== event || Array.isArray(event) || (!checkout && typeof event.event !== 'string')) fail('invalid_json', 'not a JSON event object');
      // The event headers are not under the signature: the signed body decides, and a header that
      // says otherwise is refused, so that no one can steer de-duplication or routing with it; a
      // body without the field takes the header's.
      for (const field in sent) {
        if (!(field in event)) event[field] = sent[field];
        if (event[field] !== sent[field]) fail(typeof event[field] === 'string' ? 'header_mismatch' : 'invalid_json', `x-svc-event-${field}`);
      }
      return kind ? event : { event, timestamp: +timestamp, scheme: signed, encoding: matched, timestampSigned: signed !== 'body' };
    }
  }
  fail('no_matching_signature', `check the secret. ${RAW_BODY}`);
}

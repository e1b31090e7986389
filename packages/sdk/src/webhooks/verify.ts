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
import { timingSafeEqual, type Hmac, type WebCrypto } from './crypto.js';
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

/** Ends every message that may mean the body was parsed first. */
const RAW_BODY = 'Pass the raw request body (e.g. express.raw())';

type Body = string | Uint8Array;
type Signature = { bytes: Uint8Array; encoding: WebhookSignatureEncoding };
type Delivery = VerifiedWebhook<Record<string, unknown>>;

const fail = (reason: WebhookVerificationReason, message: string) => new WebhookVerificationError(reason, message);

/** `f(value)`, at once when the value is there (node:crypto), after it when it is a promise (Web Crypto): a sync HMAC costs no turn of the event loop. */
export const after = <T, U>(value: T | Promise<T>, f: (value: T) => U | Promise<U>): U | Promise<U> => (value instanceof Promise ? value.then(f) : f(value));

/** Each kind's signature and timestamp headers; for 24 h after a rotation order webhooks also carry the previous secret's signature. */
const ORDER_HEADERS = ['X-Webhook-Signature', 'X-Webhook-Timestamp', 'X-Webhook-Signature-Previous'];
const CHECKOUT_HEADERS = ['X-Svc-Signature', 'X-Svc-Timestamp'];
/** Lowercased header names, computed once: Node's req.headers are lowercase. */
const lowered: Record<string, string> = {};

/** Verifies an order or ramp payment webhook with `hmac`; the entries bind it (`verifyWebhookDelivery`) and make a throw a rejection. */
export function verifyOrder(input: VerifyOrderWebhookInput, hmac: Hmac): VerifiedWebhook<WebhookEvent> | Promise<VerifiedWebhook<WebhookEvent>> {
  const { scheme, encoding } = input;
  if (!['body', 'timestamp.body', undefined].includes(scheme) || !['hex', 'base64', undefined].includes(encoding)) {
    throw new RangeError("scheme must be 'body' or 'timestamp.body', encoding 'hex' or 'base64'");
  }
  return after(verify(input, hmac, ORDER_HEADERS, /^(?:v1=|sha256=)?/, scheme ? [scheme] : ['body', 'timestamp.body'], encoding), (delivery) => {
    if (typeof delivery.event.event !== 'string') throw fail('invalid_json', 'The body has no `event`');
    return delivery as unknown as VerifiedWebhook<WebhookEvent>;
  });
}

/** Verifies a checkout webhook with `hmac`; the entries bind it (`verifyCheckoutWebhook`) and make a throw a rejection. */
export function verifyCheckout(input: VerifyWebhookInput, hmac: Hmac): CheckoutWebhookEvent | Promise<CheckoutWebhookEvent> {
  const ids = { id: requireHeader(input.headers, 'X-Svc-Event-ID'), type: requireHeader(input.headers, 'X-Svc-Event-Type') };
  // Only `v1=` entries count; other versions may appear beside them later.
  return after(verify(input, hmac, CHECKOUT_HEADERS, /^v1=/, ['timestamp.body']), ({ event }) => {
    // The event headers are not under the signature: the signed body decides, and a header
    // that says otherwise is refused, so that no one can steer de-duplication or routing with it.
    for (const [field, value] of Object.entries(ids)) {
      const signed = event[field];
      if (signed !== undefined && typeof signed !== 'string') throw fail('invalid_json', `The body's \`${field}\` is not a string`);
      if (signed !== undefined && signed !== value) throw fail('header_mismatch', `The event ${field} header differs from the signed body`);
    }
    return { ...event, ...ids } as unknown as CheckoutWebhookEvent;
  });
}

/**
 * The checks both kinds share: raw body, signature (every entry after `tag`, the previous
 * secret's too where the kind has it) and timestamp headers, tolerance, then an HMAC that matches for one secret and one
 * scheme, and a JSON object body.
 */
function verify(
  input: VerifyWebhookInput,
  hmac: Hmac,
  [signatureHeader, timestampHeader, previousHeader]: readonly string[],
  tag: RegExp,
  schemes: readonly WebhookSignatureScheme[],
  encoding?: WebhookSignatureEncoding,
): Delivery | Promise<Delivery> {
  const { headers, secret, tolerance = DEFAULT_TOLERANCE_SECONDS } = input;
  const body = rawBody(input.body);
  let signature = requireHeader(headers, signatureHeader!);
  const timestamp = requireHeader(headers, timestampHeader!);
  if (!/^\d{1,12}$/.test(timestamp)) throw fail('malformed_header', `${timestampHeader} is not Unix seconds`);
  const previous = previousHeader && readHeader(headers, previousHeader);
  if (previous) signature += `,${previous}`;
  const candidates: Signature[] = [];
  for (const part of signature.split(/[\s,]+/)) {
    const found = tag.exec(part);
    const decoded = found && decodeSignature(part.slice(found[0].length));
    if (decoded && (!encoding || decoded.encoding === encoding)) candidates.push(decoded);
  }
  if (!candidates.length) throw fail('malformed_header', `${signatureHeader} has no ${encoding ?? 'valid'} HMAC-SHA256`);

  if (!(tolerance >= 0)) throw new RangeError('tolerance must be 0 (off) or more seconds');
  const age = Math.floor(Number(input.now ?? Date.now()) / 1000) - Number(timestamp);
  if (tolerance && Math.abs(age) > tolerance) {
    throw age > 0
      ? fail('timestamp_too_old', `Signed over ${tolerance} s ago: a replay, or a clock behind`)
      : fail('timestamp_in_future', `Signed over ${tolerance} s ahead: check the clock`);
  }

  const secrets = (typeof secret === 'string' ? [secret] : [secret].flat()).filter((s) => typeof s === 'string' && s !== '');
  if (!secrets.length) throw new CredentialError('The webhook secret is required');
  // Each secret with each scheme, in turn.
  const attempt = (i: number): Delivery | Promise<Delivery> => {
    if (i === secrets.length * schemes.length) throw fail('no_matching_signature', `No signature matches the secret and body. ${RAW_BODY}`);
    const scheme = schemes[i % schemes.length]!;
    return after(hmac(secrets[(i / schemes.length) | 0]!, scheme === 'body' ? [body] : [`${timestamp}.`, body], input.crypto), (expected) => {
      // Every candidate is compared, so the time taken does not say which matched.
      let matched: Signature | undefined;
      for (const candidate of candidates) if (timingSafeEqual(expected, candidate.bytes)) matched ??= candidate;
      if (!matched) return attempt(i + 1);
      return { event: parseJson(body), timestamp: Number(timestamp), scheme, encoding: matched.encoding, timestampSigned: scheme === 'timestamp.body' };
    });
  };
  return attempt(0);
}

/** A 32-byte signature written as hex (any case) or base64 (standard or URL-safe), and which. */
function decodeSignature(text: string): Signature | undefined {
  if (/^[\da-f]{64}$/i.test(text)) {
    const bytes = new Uint8Array(32);
    // A hex digit's value from its code: 0-9 from 0x30-0x39, 10-15 from a-f and A-F (0x61-0x66, 0x41-0x46).
    const digit = (i: number) => ((i = text.charCodeAt(i)) & 15) + (i >> 6) * 9;
    for (let i = 0; i < 32; i++) bytes[i] = (digit(i * 2) << 4) | digit(i * 2 + 1);
    return { bytes, encoding: 'hex' };
  }
  // 43 characters and their padding are 32 bytes.
  if (/^[\w+/-]{43}=?$/.test(text)) return { bytes: Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)), encoding: 'base64' };
}

function rawBody(body: unknown): Body {
  if (typeof body === 'string') return body;
  // A Buffer, another view or an ArrayBuffer, from any realm (a vm context, a test runner): all have a byteLength.
  const bytes = body as Partial<ArrayBufferView> | null | undefined;
  if (bytes?.byteLength! >= 0) return new Uint8Array((bytes!.buffer ?? bytes) as ArrayBuffer, bytes!.byteOffset, bytes!.byteLength);
  throw fail('body_not_raw', `The body must be raw, got ${body === null ? 'null' : typeof body}. ${RAW_BODY}`);
}

function readHeader(headers: HeadersInput, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as Headers).get(name)?.trim();
  const record = headers as Record<string, unknown>;
  const lower = (lowered[name] ??= name.toLowerCase());
  // Node's req.headers are lowercase, signWebhook's as written; any other object is searched without regard to case.
  let value = record[lower] ?? record[name];
  if (value === undefined) for (const key in record) if (key.length === lower.length && key.toLowerCase() === lower && (value = record[key]) !== undefined) break;
  return typeof value === 'string' ? value.trim() : Array.isArray(value) ? value.join(', ').trim() : undefined;
}

function requireHeader(headers: HeadersInput, name: string): string {
  const value = readHeader(headers, name);
  if (!value) throw fail('missing_header', `No ${name} header: is this a Sikaramp webhook?`);
  return value;
}

const decoder = new TextDecoder();

function parseJson(body: Body): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
  } catch {}
  if (typeof value !== 'object' || !value || Array.isArray(value)) throw fail('invalid_json', 'The body is not a JSON object');
  return value as Record<string, unknown>;
}

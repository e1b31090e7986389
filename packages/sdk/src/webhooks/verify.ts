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
import { concatBytes, decodeSignature, hmacSha256, timingSafeEqual, toBytes, type WebCrypto } from './crypto.js';
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
  /** Web Crypto to use. Default: `globalThis.crypto`. */
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

const RAW_BODY_HINT =
  'Pass the raw request body exactly as received (string, Buffer or Uint8Array): a body that was parsed and ' +
  "serialised again no longer matches. With Express, use express.raw({ type: 'application/json' }) on the webhook route.";

/**
 * Verifies an order or ramp payment webhook and returns its body, typed; tell the two
 * apart by `event` (`order.*` or `payment.*`). Throws WebhookVerificationError.
 * {@link verifyWebhookDelivery} also says whether the timestamp was signed.
 */
export async function verifyWebhook(input: VerifyOrderWebhookInput): Promise<WebhookEvent> {
  return (await verifyWebhookDelivery(input)).event;
}

/**
 * Verifies an order or ramp payment webhook and returns its body with what the signature
 * covered: `timestampSigned` false means the tolerance cannot stop a replay. Throws
 * WebhookVerificationError.
 */
export async function verifyWebhookDelivery(input: VerifyOrderWebhookInput): Promise<VerifiedWebhook<WebhookEvent>> {
  if (input.scheme !== undefined && input.scheme !== 'body' && input.scheme !== 'timestamp.body') {
    throw new RangeError("scheme must be 'body' or 'timestamp.body'");
  }
  if (input.encoding !== undefined && input.encoding !== 'hex' && input.encoding !== 'base64') {
    throw new RangeError("encoding must be 'hex' or 'base64'");
  }
  const body = rawBody(input.body);
  const signature = requireHeader(input.headers, 'X-Webhook-Signature');
  const timestamp = readTimestamp(requireHeader(input.headers, 'X-Webhook-Timestamp'), 'X-Webhook-Timestamp');
  // For 24 h after a rotation the service also signs with the previous secret, for receivers not yet switched.
  const previous = readHeader(input.headers, 'X-Webhook-Signature-Previous')?.trim();
  const candidates = [signature, previous ?? '']
    .join(',')
    .split(/[\s,]+/)
    .filter((part) => part !== '')
    .map((part) => decodeSignature(part.replace(/^(?:v1|sha256)=/, '')))
    .filter((decoded): decoded is Decoded => decoded?.bytes.length === 32 && (input.encoding === undefined || decoded.encoding === input.encoding));
  if (candidates.length === 0) {
    const what = input.encoding === undefined ? 'hex or base64' : input.encoding;
    throw new WebhookVerificationError('malformed_header', `X-Webhook-Signature holds no ${what} HMAC-SHA256 signature`);
  }
  checkTolerance(timestamp, input);
  const contents: [WebhookSignatureScheme, Uint8Array][] = [];
  if (input.scheme !== 'timestamp.body') contents.push(['body', body]);
  if (input.scheme !== 'body') contents.push(['timestamp.body', concatBytes(`${timestamp}.`, body)]);
  const { scheme, encoding } = await requireMatch(input, contents, candidates);
  const event = parseJson(body);
  if (typeof event.event !== 'string') throw new WebhookVerificationError('invalid_json', 'The webhook body has no `event` field');
  return { event: event as unknown as WebhookEvent, timestamp, scheme, encoding, timestampSigned: scheme === 'timestamp.body' };
}

/** Verifies a checkout webhook and returns its body, typed. Throws WebhookVerificationError. */
export async function verifyCheckoutWebhook(input: VerifyWebhookInput): Promise<CheckoutWebhookEvent> {
  const body = rawBody(input.body);
  const signature = requireHeader(input.headers, 'X-Svc-Signature');
  const timestamp = readTimestamp(requireHeader(input.headers, 'X-Svc-Timestamp'), 'X-Svc-Timestamp');
  const eventId = requireHeader(input.headers, 'X-Svc-Event-ID');
  const eventType = requireHeader(input.headers, 'X-Svc-Event-Type');
  // Only `v1=` entries count; other versions may appear beside them later.
  const candidates = signature
    .split(/[\s,]+/)
    .filter((part) => part.startsWith('v1='))
    .map((part) => decodeSignature(part.slice(3)))
    .filter((decoded): decoded is Decoded => decoded?.bytes.length === 32);
  if (candidates.length === 0) {
    throw new WebhookVerificationError('malformed_header', 'X-Svc-Signature holds no `v1=<hex HMAC-SHA256>` signature');
  }
  checkTolerance(timestamp, input);
  await requireMatch(input, [['timestamp.body', concatBytes(`${timestamp}.`, body)]], candidates);
  const event = parseJson(body);
  // The event headers are not under the signature: the signed body decides, and a header
  // that says otherwise is refused, so that no one can steer de-duplication or routing with it.
  for (const [field, header, value] of [['id', 'X-Svc-Event-ID', eventId], ['type', 'X-Svc-Event-Type', eventType]] as const) {
    if (event[field] === undefined) continue;
    if (typeof event[field] !== 'string') throw new WebhookVerificationError('invalid_json', `The webhook body's \`${field}\` is not a string`);
    if (event[field] !== value) {
      throw new WebhookVerificationError('header_mismatch', `${header} does not match the signed body's \`${field}\`: the header was altered on the way`);
    }
  }
  return { ...event, id: eventId, type: eventType } as unknown as CheckoutWebhookEvent;
}

function rawBody(body: unknown): Uint8Array {
  if (typeof body === 'string') return toBytes(body);
  // isView and the tag test work across realms (a Buffer from a vm context or a test runner).
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (Object.prototype.toString.call(body) === '[object ArrayBuffer]') return new Uint8Array(body as ArrayBuffer);
  throw new WebhookVerificationError(
    'body_not_raw',
    `The webhook body must be the raw request body, got ${body === null ? 'null' : typeof body}. ${RAW_BODY_HINT}`,
  );
}

function readHeader(headers: HeadersInput, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(', ');
  }
  return undefined;
}

function requireHeader(headers: HeadersInput, name: string): string {
  const value = readHeader(headers, name)?.trim();
  if (!value) throw new WebhookVerificationError('missing_header', `Missing ${name} header: is this request a Sikaramp webhook?`);
  return value;
}

function readTimestamp(value: string, name: string): number {
  if (!/^\d{1,12}$/.test(value)) throw new WebhookVerificationError('malformed_header', `${name} must be Unix seconds`);
  return Number(value);
}

function checkTolerance(timestamp: number, input: VerifyWebhookInput): void {
  const tolerance = input.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  if (!(tolerance >= 0)) throw new RangeError('tolerance must be 0 (off) or a positive number of seconds');
  if (tolerance === 0) return;
  const now = Math.floor(Number(input.now ?? Date.now()) / 1000);
  if (now - timestamp > tolerance) {
    throw new WebhookVerificationError('timestamp_too_old', `The webhook was signed more than ${tolerance} s ago (a replay, or a clock far behind)`);
  }
  if (timestamp - now > tolerance) {
    throw new WebhookVerificationError('timestamp_in_future', `The webhook is signed more than ${tolerance} s in the future (check this server's clock)`);
  }
}

type Decoded = NonNullable<ReturnType<typeof decodeSignature>>;

/** Finds the signed content and the signature that match; every candidate is compared, so the time taken does not say which. */
async function requireMatch(
  input: VerifyWebhookInput,
  contents: readonly [WebhookSignatureScheme, Uint8Array][],
  candidates: readonly Decoded[],
): Promise<{ scheme: WebhookSignatureScheme; encoding: WebhookSignatureEncoding }> {
  const secrets = (typeof input.secret === 'string' ? [input.secret] : [...input.secret]).filter((s) => typeof s === 'string' && s !== '');
  if (secrets.length === 0) throw new CredentialError('The webhook secret is required (is its environment variable set?)');
  const crypto = input.crypto ?? globalThis.crypto;
  for (const secret of secrets) {
    for (const [scheme, content] of contents) {
      const expected = await hmacSha256(crypto, secret, content);
      let matched: Decoded | undefined;
      for (const candidate of candidates) if (timingSafeEqual(expected, candidate.bytes)) matched ??= candidate;
      if (matched) return { scheme, encoding: matched.encoding };
    }
  }
  throw new WebhookVerificationError(
    'no_matching_signature',
    `No signature matches the body for the ${secrets.length === 1 ? 'secret' : `${secrets.length} secrets`} given. ` +
      `Check the webhook secret (after a rotation pass both the new and the old one). ${RAW_BODY_HINT}`,
  );
}

function parseJson(body: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new WebhookVerificationError('invalid_json', 'The webhook body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WebhookVerificationError('invalid_json', 'The webhook body is not a JSON object');
  }
  return value as Record<string, unknown>;
}

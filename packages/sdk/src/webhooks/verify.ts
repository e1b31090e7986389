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
import { decodeSignature, timingSafeEqual, type Hmac, type WebCrypto } from './crypto.js';
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

const RAW_BODY_HINT = "Pass the raw request body as received (string, Buffer or Uint8Array), e.g. with express.raw({ type: 'application/json' }).";

type Decoded = NonNullable<ReturnType<typeof decodeSignature>>;
type Body = string | Uint8Array;

/** Verifies an order or ramp payment webhook with `hmac`; the entries bind it (`verifyWebhookDelivery`). */
export async function verifyOrder(input: VerifyOrderWebhookInput, hmac: Hmac): Promise<VerifiedWebhook<WebhookEvent>> {
  const { scheme: pinned, encoding } = input;
  if (pinned !== undefined && pinned !== 'body' && pinned !== 'timestamp.body') throw new RangeError("scheme must be 'body' or 'timestamp.body'");
  if (encoding !== undefined && encoding !== 'hex' && encoding !== 'base64') throw new RangeError("encoding must be 'hex' or 'base64'");
  const body = rawBody(input.body);
  const signature = requireHeader(input.headers, 'X-Webhook-Signature');
  const timestamp = readTimestamp(input.headers, 'X-Webhook-Timestamp');
  // For 24 h after a rotation the service also signs with the previous secret, for receivers not yet switched.
  const previous = readHeader(input.headers, 'X-Webhook-Signature-Previous');
  const candidates = signatures(previous ? `${signature},${previous}` : signature, /^(?:v1=|sha256=)?/, encoding);
  if (candidates.length === 0) throw malformed(`X-Webhook-Signature holds no ${encoding ?? 'hex or base64'} HMAC-SHA256 signature`);
  checkTolerance(timestamp, input);
  const schemes: WebhookSignatureScheme[] = pinned ? [pinned] : ['body', 'timestamp.body'];
  const [scheme, matched] = await requireMatch(input, hmac, body, timestamp, schemes, candidates);
  const event = parseJson(body);
  if (typeof event.event !== 'string') throw new WebhookVerificationError('invalid_json', 'The webhook body has no `event` field');
  return { event: event as unknown as WebhookEvent, timestamp, scheme, encoding: matched.encoding, timestampSigned: scheme === 'timestamp.body' };
}

/** Verifies a checkout webhook with `hmac`; the entries bind it (`verifyCheckoutWebhook`). */
export async function verifyCheckout(input: VerifyWebhookInput, hmac: Hmac): Promise<CheckoutWebhookEvent> {
  const { headers } = input;
  const body = rawBody(input.body);
  const signature = requireHeader(headers, 'X-Svc-Signature');
  const timestamp = readTimestamp(headers, 'X-Svc-Timestamp');
  const id = requireHeader(headers, 'X-Svc-Event-ID');
  const type = requireHeader(headers, 'X-Svc-Event-Type');
  // Only `v1=` entries count; other versions may appear beside them later.
  const candidates = signatures(signature, /^v1=/);
  if (candidates.length === 0) throw malformed('X-Svc-Signature holds no `v1=<hex HMAC-SHA256>` signature');
  checkTolerance(timestamp, input);
  await requireMatch(input, hmac, body, timestamp, ['timestamp.body'], candidates);
  const event = parseJson(body);
  // The event headers are not under the signature: the signed body decides, and a header
  // that says otherwise is refused, so that no one can steer de-duplication or routing with it.
  for (const [field, value, header] of [['id', id, 'X-Svc-Event-ID'], ['type', type, 'X-Svc-Event-Type']] as const) {
    if (event[field] === undefined) continue;
    if (typeof event[field] !== 'string') throw new WebhookVerificationError('invalid_json', `The webhook body's \`${field}\` is not a string`);
    if (event[field] !== value) throw new WebhookVerificationError('header_mismatch', `${header} does not match the signed body's \`${field}\``);
  }
  return { ...event, id, type } as unknown as CheckoutWebhookEvent;
}

const malformed = (message: string) => new WebhookVerificationError('malformed_header', message);

function rawBody(body: unknown): Body {
  if (typeof body === 'string') return body;
  // isView and the tag test work across realms (a Buffer from a vm context or a test runner).
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (Object.prototype.toString.call(body) === '[object ArrayBuffer]') return new Uint8Array(body as ArrayBuffer);
  throw new WebhookVerificationError('body_not_raw', `The webhook body must be the raw request body, got ${body === null ? 'null' : typeof body}. ${RAW_BODY_HINT}`);
}

function readHeader(headers: HeadersInput, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as Headers).get(name)?.trim();
  const record = headers as Record<string, unknown>;
  const lower = name.toLowerCase();
  let value = record[lower] ?? record[name];
  // Node's req.headers are lowercase; any other object is searched without regard to case.
  if (value === undefined) for (const key in record) if (key.toLowerCase() === lower && (value = record[key]) !== undefined) break;
  return typeof value === 'string' ? value.trim() : Array.isArray(value) ? value.join(', ').trim() : undefined;
}

function requireHeader(headers: HeadersInput, name: string): string {
  const value = readHeader(headers, name);
  if (!value) throw new WebhookVerificationError('missing_header', `Missing ${name} header: is this request a Sikaramp webhook?`);
  return value;
}

function readTimestamp(headers: HeadersInput, name: string): number {
  const value = requireHeader(headers, name);
  if (!/^\d{1,12}$/.test(value)) throw malformed(`${name} must be Unix seconds`);
  return Number(value);
}

/** The 32-byte signatures in a header, each after its `prefix`, in the pinned encoding if any. */
function signatures(header: string, prefix: RegExp, encoding?: WebhookSignatureEncoding): Decoded[] {
  const out: Decoded[] = [];
  for (const part of header.split(/[\s,]+/)) {
    const found = prefix.exec(part);
    const decoded = found ? decodeSignature(part.slice(found[0].length)) : undefined;
    if (decoded?.bytes.length === 32 && (encoding === undefined || decoded.encoding === encoding)) out.push(decoded);
  }
  return out;
}

function checkTolerance(timestamp: number, input: VerifyWebhookInput): void {
  const tolerance = input.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  if (!(tolerance >= 0)) throw new RangeError('tolerance must be 0 (off) or a positive number of seconds');
  const age = Math.floor(Number(input.now ?? Date.now()) / 1000) - timestamp;
  if (tolerance === 0 || Math.abs(age) <= tolerance) return;
  throw age > 0
    ? new WebhookVerificationError('timestamp_too_old', `The webhook was signed more than ${tolerance} s ago (a replay, or a clock behind)`)
    : new WebhookVerificationError('timestamp_in_future', `The webhook is signed more than ${tolerance} s ahead (check this server's clock)`);
}

/** Finds the signed content and the signature that match; every candidate is compared, so the time taken does not say which. */
async function requireMatch(
  input: VerifyWebhookInput,
  hmac: Hmac,
  body: Body,
  timestamp: number,
  schemes: readonly WebhookSignatureScheme[],
  candidates: readonly Decoded[],
): Promise<[WebhookSignatureScheme, Decoded]> {
  const secrets = (typeof input.secret === 'string' ? [input.secret] : [...input.secret]).filter((s) => typeof s === 'string' && s !== '');
  if (secrets.length === 0) throw new CredentialError('The webhook secret is required (is its environment variable set?)');
  for (const secret of secrets) {
    for (const scheme of schemes) {
      let expected = hmac(secret, scheme === 'body' ? [body] : [`${timestamp}.`, body], input.crypto);
      // node:crypto answers at once: no await, so no extra turn of the event loop.
      if (!(expected instanceof Uint8Array)) expected = await expected;
      let matched: Decoded | undefined;
      for (const candidate of candidates) if (timingSafeEqual(expected, candidate.bytes)) matched ??= candidate;
      if (matched) return [scheme, matched];
    }
  }
  throw new WebhookVerificationError(
    'no_matching_signature',
    `No signature matches the body for the ${secrets.length === 1 ? 'secret' : `${secrets.length} secrets`} given: check the secret (after a rotation pass the new and the old one). ${RAW_BODY_HINT}`,
  );
}

const decoder = new TextDecoder();

function parseJson(body: Body): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
  } catch {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WebhookVerificationError('invalid_json', 'The webhook body is not a JSON object');
  return value as Record<string, unknown>;
}

/** The answers every handler shares: JSON, never cached, errors as `{ error: { code, message } }` (what `<ramp-widget>` reads). */
import { ApiError, ConnectionError, ValidationError } from '../core/errors.js';
import { readLimited } from '../core/read-limited.js';

/** Called with an error a handler answered 5xx for, so that it is not lost. Default `console.error`. */
export type ErrorReporter = (error: unknown, request: Request) => void;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function error(status: number, code: string, message: string, headers?: Record<string, string>): Response {
  return json(status, { error: { code, message } }, headers);
}

export const methodNotAllowed = (allow: string) => error(405, 'method_not_allowed', `Use ${allow}.`, { allow });

/** A failure in the merchant's own code or store: reported, never shown. */
export const internal = () => error(500, 'internal_error', 'The server failed to handle the request.');

/** Reports a failure in the merchant's own code or store to `onError` and answers 500, without its details. */
export function reportInternal(onError: ErrorReporter, cause: unknown, request: Request): Response {
  onError(cause, request);
  return internal();
}

/**
 * A failure of the SDK call behind a handler. Only the customer's own mistakes keep their status
 * and the service's words, which the widget shows: the SDK's check of the input (400), a
 * customer not approved (403 `KYC_NOT_APPROVED`) and 422 (an amount outside the merchant's
 * limits, a phone not verified). Every other refusal is about this backend (its key, its
 * merchant fields, its customer ids) or the service being down: 502 with no upstream text,
 * which the caller reports; anything not from the SDK is 500.
 */
export function upstream(cause: unknown): Response {
  if (cause instanceof ValidationError) return error(400, 'invalid_request', cause.message);
  if (cause instanceof ApiError && (cause.status === 422 || (cause.status === 403 && cause.code === 'KYC_NOT_APPROVED'))) {
    return error(cause.status, cause.code?.toLowerCase() ?? 'refused', cause.message);
  }
  if (cause instanceof ApiError || cause instanceof ConnectionError) return error(502, 'upstream_failed', 'The ramp service failed; try again later.');
  return internal();
}

/** How long a body may take to arrive by default, ms: the widget's and the service's bodies come in one packet. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/**
 * Reads at most `limit` bytes of the body within `timeoutMs`, or answers 413 or 408. The body is
 * read as a stream and dropped at the first byte over `limit`, so that a chunked body without a
 * length (or one longer than it says) is never held whole, and one that trickles in (a
 * slowloris) holds the handler no longer than `timeoutMs`.
 */
export async function readBody(request: Request, limit: number, timeoutMs: number): Promise<Uint8Array | Response> {
  const tooLarge = () => error(413, 'body_too_large', `The body must be at most ${limit} bytes.`);
  if (Number(request.headers.get('content-length') ?? 0) > limit) return tooLarge();
  if (request.body === null) return new Uint8Array(0);
  const body = await readLimited(request.body, limit, timeoutMs);
  if (body === 'late') return error(408, 'body_timeout', `The body must arrive within ${timeoutMs} ms.`);
  return body === 'too_large' ? tooLarge() : body;
}

/**
 * Sending one request with a deadline, and judging the answer: the surface's documented error
 * body, no secret in it, and a store left exactly as it was.
 */
import { expect } from 'vitest';
import type { Store } from '../../src/store.js';

/** How each surface answers a refusal. */
export type Style =
  /** Widget backend, dashboard, ramp API, control: `{ error: { code, message }, meta: { request_id, timestamp } }`. */
  | 'envelope'
  /** The interactive page's JSON steps: the envelope, plus `error.field` naming the form field. */
  | 'page'
  /** The anchor: `{ error: "text" }`. */
  | 'sep'
  /** Checkout and the earlier gateway routes: `{ error: "text", message: "text" }`, both the same. */
  | 'checkout'
  /** The interactive page and the hosted checkout page: an HTML page with the status. */
  | 'html';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** A request that gets no answer within this long has hung, ms. */
export const DEADLINE_MS = 5_000;

export async function send(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(DEADLINE_MS) }).catch((error: unknown) => {
    throw new Error(`${init.method} ${url.slice(0, 200)} got no answer within ${DEADLINE_MS} ms: ${String(error)}`);
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/**
 * The whole store as text, Maps included, to compare before and after a request. The
 * rate-limit windows are left out: a refused request still counts towards its key's limit.
 * With `ignoreTries`, so are the wrong tries counted on a one-time password (the counter a
 * wrong code is refused for moving).
 */
export function storeText(store: Store, ignoreTries = false): string {
  const { rateWindows: _counted, ...state } = store;
  return JSON.stringify(state, (key, value: unknown) => {
    if (value instanceof Map) return [...value.entries()];
    if (ignoreTries && key === 'attempts' && typeof value === 'number') return 0;
    return value;
  });
}

/** Error codes each status may carry in the envelope (000 section 7, our choices for the ramp API). */
const CODES: Record<number, string[]> = {
  400: ['VALIDATION_ERROR', 'MISSING_HEADER'],
  401: ['UNAUTHORIZED'],
  403: ['FORBIDDEN', 'KYC_NOT_APPROVED', 'RAMP_NOT_ENABLED'],
  404: ['NOT_FOUND'],
  409: ['DUPLICATE_ORDER', 'INVALID_STATE'],
  // The ramp API's body not sent as application/json (001 section 4).
  415: ['VALIDATION_ERROR'],
  // VALIDATION_ERROR is 400 only; a well-formed code or wallet that does not fit is one of our 422 codes.
  422: ['PHONE_NOT_VERIFIED', 'QUOTE_EXPIRED', 'AMOUNT_OUT_OF_RANGE', 'INVALID_OTP', 'OTP_EXPIRED', 'SOURCE_WALLET_MISMATCH'],
  429: ['RATE_LIMITED'],
};

const PAGE_FIELDS = ['provider', 'phone', 'code', 'amount', 'destination'];

/**
 * Asserts the error body of `style` for a refusal, and that its text names no secret. A 5xx is
 * no refusal, but for `documented5xx` (the checkout route's 502 for a field the gateway refuses).
 */
export function expectRefusal(style: Style, answer: Answer, secrets: readonly string[], context: string, documented5xx?: number) {
  const { status, body } = answer;
  const where = `${context} -> ${status} ${answer.text.slice(0, 300)}`;
  expect(status, where).toBeGreaterThanOrEqual(400);
  if (status !== documented5xx) expect(status, where).toBeLessThan(500);
  if (style === 'html') {
    expect(answer.headers.get('content-type'), where).toMatch(/^text\/html/);
  } else {
    expect(answer.headers.get('content-type'), where).toMatch(/^application\/json/);
    expect(body, where).toBeTypeOf('object');
  }
  let message = '';
  if (style === 'envelope' || style === 'page') {
    expect(Object.keys(body).sort(), where).toEqual(['error', 'meta']);
    const keys = Object.keys(body.error).sort();
    expect(keys, where).toEqual(style === 'page' && 'field' in body.error ? ['code', 'field', 'message'] : ['code', 'message']);
    if ('field' in body.error) expect(PAGE_FIELDS, where).toContain(body.error.field);
    expect(CODES[status] ?? [], where).toContain(body.error.code);
    expect(Object.keys(body.meta).sort(), where).toEqual(['request_id', 'timestamp']);
    message = body.error.message;
  } else if (style === 'sep') {
    // SEP-24: a missing or expired token also says `type: authentication_required`.
    if (status === 403 && 'type' in body) expect(body.type, where).toBe('authentication_required');
    expect(Object.keys(body).filter((k) => k !== 'type'), where).toEqual(['error']);
    message = body.error;
  } else if (style === 'checkout') {
    expect(Object.keys(body).sort(), where).toEqual(['error', 'message']);
    expect(body.message, where).toBe(body.error);
    message = body.error;
  } else {
    message = answer.text;
  }
  if (style !== 'html') {
    expect(message, where).toBeTypeOf('string');
    expect(message.length, where).toBeGreaterThan(0);
  }
  const retryAfter = answer.headers.get('retry-after');
  if (retryAfter !== null) expect(retryAfter, where).toMatch(/^\d+$/);
  for (const secret of secrets) expect(message.includes(secret), `${where}: the message carries a secret`).toBe(false);
}

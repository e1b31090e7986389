/** The calls the page makes: its own JSON API (./index.ts's `api/…`) and, for a merchant's order, the widget backend. */
import type { PageConfig } from '../model.js';

/** An error as the page shows it: `field` names the input it belongs to. */
export interface ApiError {
  code: string;
  message: string;
  field?: string;
}

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };

/** Reads the `{ data }` or `{ error }` envelope; anything else is the network's fault. */
async function answer<T>(res: Response, networkError: string): Promise<ApiResult<T>> {
  const json = (await res.json().catch(() => null)) as { data?: T; error?: ApiError } | null;
  if (res.ok && json) return { ok: true, data: json.data as T };
  return { ok: false, error: json?.error || { code: 'INTERNAL_ERROR', message: networkError } };
}

/** One call of the page's API, with the interactive token; given up (a network error) after `timeoutMs` when set. */
export async function api<T>(config: PageConfig, method: string, path: string, body?: unknown, timeoutMs?: number): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { authorization: 'Bearer ' + config.token };
  if (body) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(config.api + '/' + path, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
      cache: 'no-store',
      credentials: 'omit',
      signal: timeoutMs === undefined ? null : AbortSignal.timeout(timeoutMs),
    });
    return await answer<T>(res, config.strings.error_network);
  } catch {
    return { ok: false, error: { code: 'NETWORK', message: config.strings.error_network } };
  }
}

/** Where an order endpoint error belongs: the field its "name: " prefix or its code names. */
const ORDER_FIELDS: Record<string, string> = { provider: 'provider', phone: 'phone', amount: 'amount', destination_address: 'destination' };
const ORDER_CODES: Record<string, string> = { PHONE_NOT_VERIFIED: 'code', AMOUNT_OUT_OF_RANGE: 'amount' };

export function placeOrderError(error: ApiError): ApiError {
  const match = /^(\w+): (.*)$/s.exec(error.message);
  if (match && Object.hasOwn(ORDER_FIELDS, match[1]!)) {
    const message = match[2]!;
    return { ...error, field: ORDER_FIELDS[match[1]!]!, message: message.charAt(0).toUpperCase() + message.slice(1) };
  }
  return Object.hasOwn(ORDER_CODES, error.code) ? { ...error, field: ORDER_CODES[error.code]! } : error;
}

/**
 * A merchant's order, confirmed at the widget backend with the customer's session.
 * `idempotencyKey` is the page's one key: a confirmation the service refused did not use it,
 * and a repeat of one it took (its answer lost) is refused as a duplicate instead of ordering twice.
 */
export async function createOrder<T>(
  config: PageConfig,
  order: NonNullable<PageConfig['order']>,
  idempotencyKey: string,
  body: Record<string, unknown>,
): Promise<ApiResult<T>> {
  try {
    const res = await fetch(order.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': order.api_key,
        'x-session-id': order.session_id,
        'x-session-token': order.session_token,
        'x-idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
    });
    const result = await answer<T>(res, config.strings.error_network);
    return result.ok ? result : { ok: false, error: placeOrderError(result.error) };
  } catch {
    return { ok: false, error: { code: 'NETWORK', message: config.strings.error_network } };
  }
}

import { HttpError, type ErrorCode } from '../../http/errors.js';

/** HttpError's code for each status. Checkout bodies carry no code (002 section 7): only the status and the text reach the caller. */
const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'INVALID_STATE',
  429: 'RATE_LIMITED',
};

/** An error of the checkout and gateway routes, rendered by `route(ctx, 'checkout', ...)` as `{ error, message }`. */
export function checkoutError(status: number, text: string, headers: Record<string, string> = {}): HttpError {
  return new HttpError(status, CODE_BY_STATUS[status] ?? 'INTERNAL_ERROR', text, headers);
}

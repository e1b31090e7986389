/** Error codes of the widget backend (000 section 7) and ours for the ramp API (design.md section 4). */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'MISSING_HEADER'
  | 'UNAUTHORIZED'
  /** Anchor only: a missing or invalid SEP-10 token (SEP-24's `authentication_required`). */
  | 'AUTHENTICATION_REQUIRED'
  | 'FORBIDDEN'
  | 'KYC_NOT_APPROVED'
  | 'RAMP_NOT_ENABLED'
  | 'NOT_FOUND'
  | 'DUPLICATE_ORDER'
  | 'INVALID_STATE'
  | 'PHONE_NOT_VERIFIED'
  /** Ours: a one-time code that is wrong, already used, or was never sent (422). */
  | 'INVALID_OTP'
  /** Ours: a one-time code past its lifetime (422). */
  | 'OTP_EXPIRED'
  /** Ours: a ramp confirm naming another wallet than the one that sent the USDC (422). */
  | 'SOURCE_WALLET_MISMATCH'
  | 'QUOTE_EXPIRED'
  | 'AMOUNT_OUT_OF_RANGE'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR';

/**
 * Thrown by a handler to answer with an error. Each surface's route wrapper renders it in
 * that surface's error body: the envelope, SEP's `{error}`, or checkout's `{error, message}`.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, 'VALIDATION_ERROR', message);
export const unauthorized = (message = 'invalid or expired credentials') => new HttpError(401, 'UNAUTHORIZED', message);
export const forbidden = (message: string) => new HttpError(403, 'FORBIDDEN', message);
export const notFound = (what: string) => new HttpError(404, 'NOT_FOUND', `${what} not found`);

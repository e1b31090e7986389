/**
 * One-time passwords sent to a phone (ramp KYC, the interactive page's phone check). Always
 * random 6 digits, readable in test mode through `GET /_mock/otp?phone=`; each code expires,
 * is single-use, and allows a bounded number of wrong tries.
 */
import { iso } from './clock.js';
import type { MockContext } from './context.js';
import { HttpError } from './http/errors.js';
import type { OtpRecord } from './types.js';

export type { OtpRecord } from './types.js';

/** How long a code works, seconds. */
export const OTP_TTL_SECONDS = 10 * 60;
/** Wrong tries a code allows before it stops working. */
export const OTP_MAX_ATTEMPTS = 5;


/** Sends a new code for `purpose`; an earlier unused code for the same purpose stops working. */
export function sendOtp(ctx: MockContext, phone: string, purpose: string): OtpRecord {
  for (const otp of ctx.store.otps.values()) if (otp.purpose === purpose) otp.used = true;
  const now = ctx.clock.now();
  const otp: OtpRecord = {
    id: `otp_${ctx.random.uuid()}`,
    phone,
    purpose,
    code: ctx.random.digits(6),
    expires_at: now + OTP_TTL_SECONDS * 1000,
    attempts: 0,
    used: false,
    created_at: iso(now),
  };
  ctx.store.otps.set(otp.id, otp);
  return otp;
}

/**
 * Checks `code` against the newest code sent for `purpose` and consumes it when right. The
 * request is well formed, so a refusal is 422 with a code of ours rather than 400
 * VALIDATION_ERROR: a missing, used or wrong code INVALID_OTP saying which, an expired one
 * OTP_EXPIRED; the last of OTP_MAX_ATTEMPTS wrong tries, and any try after it, 429 RATE_LIMITED.
 */
export function checkOtp(ctx: MockContext, purpose: string, code: string): OtpRecord {
  const otp = [...ctx.store.otps.values()].reverse().find((o) => o.purpose === purpose);
  if (!otp) throw new HttpError(422, 'INVALID_OTP', 'no code was sent; request a new one');
  if (otp.used) throw new HttpError(422, 'INVALID_OTP', 'code already used; request a new one');
  if (otp.expires_at <= ctx.clock.now()) throw new HttpError(422, 'OTP_EXPIRED', 'code expired; request a new one');
  if (otp.attempts >= OTP_MAX_ATTEMPTS) {
    throw new HttpError(429, 'RATE_LIMITED', `too many wrong codes (${OTP_MAX_ATTEMPTS}); request a new one`);
  }
  otp.attempts++;
  if (otp.code !== code) {
    const left = OTP_MAX_ATTEMPTS - otp.attempts;
    if (left === 0) throw new HttpError(429, 'RATE_LIMITED', `too many wrong codes (${OTP_MAX_ATTEMPTS}); request a new one`);
    throw new HttpError(422, 'INVALID_OTP', `wrong code; ${left} ${left === 1 ? 'try' : 'tries'} left`);
  }
  otp.used = true;
  return otp;
}

/** The newest code sent to `phone` (test mode), for the control API. */
export function lastOtp(ctx: MockContext, phone: string): OtpRecord | undefined {
  return [...ctx.store.otps.values()].reverse().find((o) => o.phone === phone);
}

import type { MockContext } from '../../context.js';
import { rateLimit, requireKey, type KeyAuth } from '../../http/auth.js';
import { HttpError } from '../../http/errors.js';

/** Requests a merchant may make to the ramp API per second of clock time (001 section 8). */
export const RAMP_RATE_LIMIT_PER_SECOND = 100;

/**
 * The key and merchant behind `Authorization: Bearer <secret key>`: 401 UNAUTHORIZED for a
 * missing, unknown or revoked key, 403 FORBIDDEN for a public key, 429 RATE_LIMITED (with
 * `Retry-After`) above 100 requests in one second, 403 RAMP_NOT_ENABLED until the operator
 * has activated the merchant for ramp services. The key's `rate_limit_rpm` does not apply:
 * it limits widget requests (000 section 8), and the ramp API's limit is the merchant's 100 a
 * second (001 section 8), over all its keys and both ramp addresses.
 */
export async function requireRampKey(ctx: MockContext, request: Request): Promise<KeyAuth> {
  const auth = await requireKey(ctx, request, { type: 'secret', from: 'bearer', perKeyLimit: false });
  rateLimit(ctx, `ramp:${auth.merchant.id}`, RAMP_RATE_LIMIT_PER_SECOND, 1_000);
  if (!auth.merchant.ramp_enabled) {
    throw new HttpError(403, 'RAMP_NOT_ENABLED', 'this merchant is not activated for ramp services');
  }
  return auth;
}

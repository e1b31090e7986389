import { http } from 'msw';
import { z } from 'zod';
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { setStatus } from '../../history.js';
import { notFound } from '../../http/errors.js';
import { ok, route } from '../../http/respond.js';
import { parseProvider, PROVIDERS, type ProviderId } from '../../mobile-money.js';
import { checkOtp, sendOtp } from '../../otp.js';
import type { MerchantRecord } from '../../store.js';
import type { RampKycRecord } from '../../state/ramp.js';
import { requireRampKey } from './auth.js';
import { readRampBody } from './body.js';

const name = z.string().trim().min(1).max(100);

/** A Ghanaian number in local format: 0 and nine digits, e.g. `0241234567`. */
export const LocalPhoneSchema = z.string().trim().regex(/^0\d{9}$/, 'must be a local number, 0 and nine digits, e.g. 0241234567');

/** A Mobile Money provider by id or name (`mtn`, `MTN MoMo`, `telecel`, `airteltigo`, …). */
export const ProviderSchema = z
  .string()
  .transform((value, check): ProviderId => {
    const id = parseProvider(value);
    if (id) return id;
    check.addIssue({ code: 'custom', message: `must be one of ${Object.values(PROVIDERS).join(', ')}` });
    return z.NEVER;
  });

const InitiateBody = z.object({ first_name: name, last_name: name, phone: LocalPhoneSchema, provider_name: ProviderSchema });
const VerifyBody = z.object({ kyc_id: z.string().min(1).max(100), otp_code: z.string().regex(/^\d{6}$/, 'must be 6 digits') });

const otpPurpose = (kycId: string) => `ramp_kyc:${kycId}`;

function kycView(k: RampKycRecord, otpExpiresAt?: number) {
  return {
    kyc_id: k.id,
    status: k.status,
    phone: k.phone,
    provider_name: PROVIDERS[k.provider],
    verified_at: k.verified_at,
    ...(otpExpiresAt === undefined ? {} : { otp_expires_at: iso(otpExpiresAt) }),
  };
}

/** Whether the merchant's user has proven this phone by OTP. */
export function isPhoneVerified(ctx: MockContext, merchant: MerchantRecord, phone: string): boolean {
  for (const k of ctx.store.ramp.kyc.values()) {
    if (k.merchant_id === merchant.id && k.phone === phone && k.status === 'verified') return true;
  }
  return false;
}

/**
 * Phone KYC (001 section 4): `POST /api/v1/ramp/kyc/initiate` sends a 6-digit code to the
 * phone (readable in the mock at `GET /_mock/otp?phone=`) and answers 201 with `kyc_id`;
 * `POST /api/v1/ramp/kyc/verify {kyc_id, otp_code}` answers 200 once the code matches.
 * Refusals come from ../../otp.ts: a wrong code is 422 INVALID_OTP naming the tries left, the
 * last of OTP_MAX_ATTEMPTS wrong codes 429 RATE_LIMITED; an already used code 422 INVALID_OTP,
 * an expired one (OTP_TTL_SECONDS) 422 OTP_EXPIRED. A new initiate sends a new code under a new `kyc_id`.
 */
export function kycHandlers(ctx: MockContext, base: string) {
  return [
    http.post(
      `${base}/api/v1/ramp/kyc/initiate`,
      route(ctx, 'envelope', async ({ request }) => {
        const { merchant } = await requireRampKey(ctx, request);
        const input = await readRampBody(request, InitiateBody);
        const kyc: RampKycRecord = {
          id: `kyc_${ctx.random.uuid()}`,
          merchant_id: merchant.id,
          first_name: input.first_name,
          last_name: input.last_name,
          phone: input.phone,
          provider: input.provider_name,
          status: 'pending',
          created_at: iso(ctx.clock.now()),
          verified_at: null,
        };
        ctx.store.ramp.kyc.set(kyc.id, kyc);
        const otp = sendOtp(ctx, kyc.phone, otpPurpose(kyc.id));
        return ok(ctx, kycView(kyc, otp.expires_at), 201);
      }),
    ),
    http.post(
      `${base}/api/v1/ramp/kyc/verify`,
      route(ctx, 'envelope', async ({ request }) => {
        const { merchant } = await requireRampKey(ctx, request);
        const input = await readRampBody(request, VerifyBody);
        const kyc = ctx.store.ramp.kyc.get(input.kyc_id);
        if (!kyc || kyc.merchant_id !== merchant.id) throw notFound('KYC record');
        checkOtp(ctx, otpPurpose(kyc.id), input.otp_code);
        setStatus(kyc, 'verified', 'otp_verified', ctx.clock.now());
        kyc.verified_at = iso(ctx.clock.now());
        return ok(ctx, kycView(kyc));
      }),
    ),
  ];
}

import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource } from '../../core/resource.js';
import { openEnum, parseInput, responseObject, text } from '../../core/schema.js';
import { rampAnswer } from './answer.js';

/** A phone number in local format: `0` and nine digits, e.g. `0241234567`. */
export const LocalPhoneSchema = z.string().regex(/^0\d{9}$/, 'must be a local number, 0 and nine digits, e.g. 0241234567');

export const KycInitiateParamsSchema = z.strictObject({
  first_name: text(100),
  last_name: text(100),
  /** The user's phone in local format, e.g. `0241234567`; the one-time code is sent there. */
  phone: LocalPhoneSchema,
  /** The Mobile Money provider, e.g. `MTN`. */
  provider_name: text(100),
});
export type KycInitiateParams = z.input<typeof KycInitiateParamsSchema>;

export const KycVerifyParamsSchema = z.strictObject({
  /** `kyc_id` of the initiate answer. */
  kyc_id: text(100),
  /** The code the user received, as typed (the mock's are 6 digits; 001 does not show the service's length). */
  otp_code: z.string().regex(/^\S{1,20}$/, 'must be the code the user received: 1 to 20 characters without blanks'),
});
export type KycVerifyParams = z.input<typeof KycVerifyParamsSchema>;

/** A phone KYC record: `pending` until the code is verified, then `verified`. */
export const KycRecordSchema = responseObject({
  kyc_id: z.string(),
  status: openEnum(['pending', 'verified']).optional(),
  phone: z.string().optional(),
  provider_name: z.string().optional(),
  /** ISO 8601, once verified. */
  verified_at: z.string().nullish(),
  /** ISO 8601: until when the code sent by initiate can be used. */
  otp_expires_at: z.string().optional(),
});
export type KycRecord = z.infer<typeof KycRecordSchema>;

/** 001 shows only `kyc_id` of the initiate answer, and nothing of verify's: the rest is read leniently (see rampAnswer). */
const InitiateAnswerSchema = rampAnswer(KycRecordSchema, ['kyc_id']);

/** Phone KYC by one-time code: `POST /api/v1/ramp/kyc/initiate` and `/verify`. Once per phone; orders need it. */
export class RampKyc extends Resource {
  /** Sends a one-time code to the user's phone; keep `kyc_id` for verify. */
  async initiate(params: KycInitiateParams, opts?: RequestOptions): Promise<KycRecord> {
    return this.core.post('api/v1/ramp/kyc/initiate', { ...opts, body: parseInput(KycInitiateParamsSchema, params), schema: InitiateAnswerSchema });
  }

  /**
   * Checks the code the user typed; a wrong one is UnprocessableEntityError, too many
   * RateLimitError. Any 2xx means verified; the answer's shape is not shown (001 section 4),
   * so `kyc_id` is the one sent when the answer does not name it.
   */
  async verify(params: KycVerifyParams, opts?: RequestOptions): Promise<KycRecord> {
    const body = parseInput(KycVerifyParamsSchema, params);
    return this.core.post('api/v1/ramp/kyc/verify', { ...opts, body, schema: rampAnswer(KycRecordSchema, ['kyc_id'], { kyc_id: body.kyc_id }) });
  }
}

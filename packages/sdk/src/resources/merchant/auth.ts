import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource } from '../../core/resource.js';
import { openEnum, parseInput, responseObject, text } from '../../core/schema.js';

/** Registration: all four fields (the service may treat some as optional; the SDK asks for all). */
export const RegisterParamsSchema = z.strictObject({
  /** Trading name. */
  name: text(),
  legal_name: text(),
  email: z.email().max(254),
  /** 8 to 128 characters. */
  password: z.string().min(8).max(128),
});
export type RegisterParams = z.input<typeof RegisterParamsSchema>;

export const LoginParamsSchema = z.strictObject({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(128),
});
export type LoginParams = z.input<typeof LoginParamsSchema>;

/** The merchant account (000 section 2). */
export const MerchantSchema = responseObject({
  id: z.string(),
  name: z.string(),
  legal_name: z.string(),
  email: z.string(),
  /** `pending` after registration, `active` once KYB is approved. */
  status: openEnum(['pending', 'active']),
  /** `starter` after registration; sets the volume limits. */
  tier: z.string(),
  /** Platform fee, basis points (100 = 1 %). */
  fee_base_bps: z.number(),
  /** Merchant's markup, basis points. */
  fee_markup_bps: z.number(),
  /** GHS per month. */
  monthly_volume_limit: z.number(),
  /** GHS this month. */
  current_month_volume: z.number(),
  /** Generated at registration; used for Stellar authentication. */
  stellar_public_key: z.string(),
  is_test_mode: z.boolean(),
  /** ISO 8601 UTC, nanosecond precision. */
  created_at: z.string(),
  updated_at: z.string(),
});
export type Merchant = z.infer<typeof MerchantSchema>;

/** The login answer: a JWT valid 24 hours. */
export const AccessTokenSchema = responseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  /** Lifetime, seconds. */
  expires_in: z.number().optional(),
  /** Expiry, ISO 8601. */
  expires_at: z.string().optional(),
});
export type AccessToken = z.infer<typeof AccessTokenSchema>;

/** `POST /api/v1/merchant/register` and `/login`: the two dashboard calls without a token. */
export class Auth extends Resource {
  /** Creates a merchant account (status `pending` until KYB is approved). */
  async register(params: RegisterParams, opts?: RequestOptions): Promise<Merchant> {
    return this.core.post('api/v1/merchant/register', {
      ...opts,
      auth: false,
      body: parseInput(RegisterParamsSchema, params),
      schema: MerchantSchema,
    });
  }

  /** Logs in and returns a fresh access token. The client logs in by itself when given `email` and `password`. */
  async login(params: LoginParams, opts?: RequestOptions): Promise<AccessToken> {
    return this.core.post('api/v1/merchant/login', {
      ...opts,
      auth: false,
      body: parseInput(LoginParamsSchema, params),
      schema: AccessTokenSchema,
    });
  }
}

import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource } from '../../core/resource.js';
import { openEnum, parseInput, responseObject, text } from '../../core/schema.js';

export const KybSubmitParamsSchema = z.strictObject({
  /** Business registration number. */
  registration_number: text(100),
  /** ISO 3166-1 alpha-3, e.g. `GHA`. */
  country: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 3166-1 alpha-3 code, e.g. GHA'),
  /** Where each document can be fetched. */
  documents: z
    .array(z.strictObject({ type: text(64), url: z.url({ protocol: /^https?$/ }).max(2048) }))
    .min(1)
    .max(20),
});
export type KybSubmitParams = z.input<typeof KybSubmitParamsSchema>;

/** Business verification status; approval makes the merchant `active`. */
export const KybStatusSchema = responseObject({
  status: openEnum(['not_submitted', 'submitted', 'approved', 'rejected']),
  submitted_at: z.string().nullish(),
  reviewed_at: z.string().nullish(),
  rejection_reason: z.string().nullish(),
  /** As submitted; null before a submission. */
  registration_number: z.string().nullish(),
  /** ISO 3166-1 alpha-3, as submitted; null before a submission. */
  country: z.string().nullish(),
  /** The documents submitted; empty before a submission. */
  documents: z.array(responseObject({ type: z.string(), url: z.string() })).optional(),
});
export type KybStatus = z.infer<typeof KybStatusSchema>;

/** What a submission answers where it shows no status (000 shows no body): the review it started. */
const SubmittedSchema = z.unknown().transform((answer): KybStatus => {
  const shown = KybStatusSchema.safeParse(answer);
  if (shown.success) return shown.data;
  const fields = KybStatusSchema.partial().safeParse(answer);
  return { ...(fields.success ? fields.data : {}), status: 'submitted' };
});

/** `POST /api/v1/merchant/kyb/submit`, `GET /api/v1/merchant/kyb/status`. */
export class Kyb extends Resource {
  /**
   * Submits business verification documents for review. Any 2xx is the submission: an answer
   * without a status (000 shows none) resolves as `{ status: 'submitted' }`.
   */
  async submit(params: KybSubmitParams, opts?: RequestOptions): Promise<KybStatus> {
    return this.core.post('api/v1/merchant/kyb/submit', {
      ...opts,
      body: parseInput(KybSubmitParamsSchema, params),
      schema: SubmittedSchema,
    });
  }

  /** Where the review stands. */
  async status(opts?: RequestOptions): Promise<KybStatus> {
    return this.core.get('api/v1/merchant/kyb/status', { ...opts, schema: KybStatusSchema });
  }
}

import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource } from '../../core/resource.js';
import { parseInput, responseObject, text } from '../../core/schema.js';

export const SessionCreateParamsSchema = z.strictObject({
  /** The customer's id; the customer must be ACCEPTED (else 403 KYC_NOT_APPROVED). */
  user_id: text(100),
});
export type SessionCreateParams = z.input<typeof SessionCreateParamsSchema>;

/** A widget session, valid 30 minutes: its id and token protect the interactive flow. */
export const SessionSchema = responseObject({
  session_id: z.string(),
  session_token: z.string(),
  merchant_id: z.string(),
  /** ISO 8601. */
  expires_at: z.string(),
});
export type Session = z.infer<typeof SessionSchema>;

/** `POST /api/v1/widget/session`. */
export class Sessions extends Resource {
  /** Starts a session for an ACCEPTED customer. */
  async create(params: SessionCreateParams, opts?: RequestOptions): Promise<Session> {
    return this.core.post('api/v1/widget/session', {
      ...opts,
      body: parseInput(SessionCreateParamsSchema, params),
      schema: SessionSchema,
    });
  }
}

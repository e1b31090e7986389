import { http } from 'msw';
import { z } from 'zod';
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { hashPassword, verifyPassword } from '../../crypto.js';
import { readBody } from '../../http/body.js';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from '../../http/auth.js';
import { badRequest, unauthorized } from '../../http/errors.js';
import { ok, route } from '../../http/respond.js';
import { createMerchant, findMerchantByEmail, merchantView } from '../../merchants.js';

const text = z.string().trim().min(1).max(200);

/** All four fields are required (000 leaves it open); passwords are 8 to 128 characters. */
export const RegisterSchema = z.object({
  name: text,
  legal_name: text,
  email: z.email().max(254),
  password: z.string().min(8, 'must be at least 8 characters').max(128),
});

export const LoginSchema = z.object({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(128),
});

// Checked against when the e-mail is unknown, so that both failures take the same time.
let decoy: Promise<string> | undefined;
const decoyHash = () => (decoy ??= hashPassword('sikaramp-decoy-password', new Uint8Array(16)));

/** `POST /api/v1/merchant/register` and `POST /api/v1/merchant/login`. */
export function authHandlers(ctx: MockContext) {
  const base = `${ctx.urls.base}/api/v1/merchant`;
  return [
    http.post(
      `${base}/register`,
      route(ctx, 'envelope', async ({ request }) => {
        const input = await readBody(request, RegisterSchema);
        if (findMerchantByEmail(ctx, input.email)) throw badRequest('email: is already registered');
        return ok(ctx, merchantView(await createMerchant(ctx, input)), 201);
      }),
    ),
    http.post(
      `${base}/login`,
      route(ctx, 'envelope', async ({ request }) => {
        const { email, password } = await readBody(request, LoginSchema);
        const merchant = findMerchantByEmail(ctx, email);
        const valid = await verifyPassword(password, merchant?.password_hash ?? (await decoyHash()));
        // One answer for an unknown e-mail and a wrong password: nothing tells which.
        if (!merchant || !valid) throw unauthorized('invalid e-mail or password');
        const { token, expiresAt } = await issueAccessToken(ctx, merchant);
        return ok(ctx, {
          access_token: token,
          token_type: 'Bearer',
          expires_in: ACCESS_TOKEN_TTL_SECONDS,
          expires_at: iso(expiresAt),
        });
      }),
    ),
  ];
}

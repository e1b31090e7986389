import { http } from 'msw';
import { z } from 'zod';
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { hashPassword, verifyPassword } from '../../crypto.js';
import { readBody } from '../../http/body.js';
import { ACCESS_TOKEN_TTL_SECONDS, clientIp, issueAccessToken } from '../../http/auth.js';
import { badRequest, HttpError, unauthorized } from '../../http/errors.js';
import { ok, route } from '../../http/respond.js';
import { createMerchant, findMerchantByEmail, merchantView } from '../../merchants.js';
import type { Store } from '../../store.js';

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

/** Failed logins counted per e-mail and per client (IP address), over this much clock time, seconds. */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
/** Failed logins one e-mail may have within the window; the next attempt is 429 until the oldest ages out. */
export const LOGIN_FAILURES_PER_EMAIL = 10;
/** Failed logins one client may have within the window, over every e-mail it tries. */
export const LOGIN_FAILURES_PER_CLIENT = 50;

/**
 * Times (ms) of recent failed logins, by `email:<address>` and `ip:<address>`. Kept beside the
 * store, not in it: a refused login leaves the merchant data as it was, and `reset()` (a new
 * store) starts the count afresh.
 */
const failures = new WeakMap<Store, Map<string, number[]>>();

function recentFailures(ctx: MockContext, key: string): number[] {
  let byKey = failures.get(ctx.store);
  if (!byKey) failures.set(ctx.store, (byKey = new Map()));
  const since = ctx.clock.now() - LOGIN_WINDOW_SECONDS * 1000;
  const times = (byKey.get(key) ?? []).filter((t) => t > since);
  if (times.length > 0) byKey.set(key, times);
  else byKey.delete(key);
  return times;
}

function recordFailure(ctx: MockContext, key: string) {
  const times = recentFailures(ctx, key);
  times.push(ctx.clock.now());
  failures.get(ctx.store)!.set(key, times);
}

/** 429 RATE_LIMITED, with `Retry-After` until an attempt is allowed again, once either bound is reached. */
function checkLoginLimit(ctx: MockContext, emailKey: string, ipKey: string) {
  let retryAt = 0;
  for (const [key, max] of [[emailKey, LOGIN_FAILURES_PER_EMAIL], [ipKey, LOGIN_FAILURES_PER_CLIENT]] as const) {
    const times = recentFailures(ctx, key);
    if (times.length >= max) retryAt = Math.max(retryAt, times[times.length - max]! + LOGIN_WINDOW_SECONDS * 1000);
  }
  if (retryAt === 0) return;
  const seconds = Math.max(1, Math.ceil((retryAt - ctx.clock.now()) / 1000));
  throw new HttpError(429, 'RATE_LIMITED', 'too many failed logins; try again later', { 'Retry-After': String(seconds) });
}

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
        const emailKey = `email:${email.toLowerCase()}`;
        const ipKey = `ip:${clientIp(ctx, request)}`;
        // Before the password is hashed: once limited, a right guess looks like a wrong one.
        checkLoginLimit(ctx, emailKey, ipKey);
        const merchant = findMerchantByEmail(ctx, email);
        const valid = await verifyPassword(password, merchant?.password_hash ?? (await decoyHash()));
        // One answer for an unknown e-mail and a wrong password: nothing tells which.
        if (!merchant || !valid) {
          recordFailure(ctx, emailKey);
          recordFailure(ctx, ipKey);
          throw unauthorized('invalid e-mail or password');
        }
        // The owner is in: the e-mail's count starts again (the client's does not).
        failures.get(ctx.store)?.delete(emailKey);
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

/**
 * `POST /api/v1/developer/payments` (create) and `GET /api/v1/developer/payments/{sessionRef}`
 * (verify), 002 section 4. The earlier gateway routes share this code with
 * `surface: 'gateway'` (see ../gateway/index.ts); what differs is written out below.
 */
import { http } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../../context.js';
import { readJsonObject } from '../../http/body.js';
import { json, reply, route } from '../../http/respond.js';
import type { CheckoutKeyRecord, CheckoutOrganization } from '../../state/checkout.js';
import {
  createSession,
  creationBody,
  fetchSession,
  GATEWAY_RETRY_AFTER_SECONDS,
  GatewayError,
  sessionBody,
} from '../gateway/gateway.js';
import { requireCheckoutKey, requireGatewayKey } from './auth.js';
import { checkoutError } from './errors.js';
import { claimIdempotencyKey, readIdempotencyKey } from './idempotency.js';
import { recordTransaction, synchronize } from './sync.js';

/** Where a payment call arrived: the checkout API, or an earlier route at the gateway itself. */
export type Surface = 'checkout' | 'gateway';

/** Largest amount accepted, smallest currency unit (our choice: GHS 10,000,000.00). */
export const MAX_AMOUNT = 1_000_000_000;

/** Meta keys the service writes from the API key, whatever the caller sent (002 section 2). */
export const RESERVED_META_KEYS = ['organizationId', 'user_id', 'svc_origin', 'svc_environment'] as const;

/** `meta.svc_origin` of a payment created through the checkout API. */
export const SVC_ORIGIN = 'checkout_api';

const required = (what: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? 'is required' : `must be ${what}`;

/** The payment creation request (002 section 2). Other fields (itemized checkout) are accepted and ignored. */
/** Deepest nesting `meta` may have: free keys for the merchant, not a payload that recursion trips on. */
export const MAX_META_DEPTH = 16;

/** Whether `value` nests objects or arrays more than `limit` levels deep; iterative, so any depth is safe to ask about. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

export const PaymentRequestSchema = z.looseObject({
  type: z.literal('checkout', { error: required('"checkout"') }),
  amount: z
    .int({ error: required('an integer in the smallest currency unit') })
    .min(1, 'must be at least 1')
    .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`),
  currency: z.string({ error: required('a string') }).regex(/^[A-Z]{3}$/, 'must be an uppercase ISO 4217 code such as GHS'),
  recipient: z.looseObject(
    {
      name: z.string({ error: required('a string') }).trim().min(1, 'must not be empty'),
      email: z.email({ error: required('an e-mail address') }),
    },
    { error: required('an object with name and email') },
  ),
  redirect_url: z.url({ protocol: /^https?$/, error: required('an absolute http or https URL') }),
  meta: z
    .record(z.string(), z.unknown(), { error: required('an object') })
    .refine((meta) => !nestsDeeperThan(meta, MAX_META_DEPTH), `must nest at most ${MAX_META_DEPTH} levels deep`)
    .optional(),
});

export type PaymentRequest = z.infer<typeof PaymentRequestSchema>;

/**
 * The fields are the gateway's to check (002 section 7 lists no 400 for them): a malformed one
 * is the gateway's 400 VALIDATION_ERROR, which the checkout route answers 502 with that text.
 */
function parsePaymentRequest(value: unknown): PaymentRequest {
  const result = PaymentRequestSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new GatewayError(400, 'VALIDATION_ERROR', `invalid payment request: ${issue.path.join('.')} ${issue.message}`);
}

/** Creates a payment; `surface` picks the credential rules, the attribution and how gateway failures surface. */
export async function createPayment(ctx: MockContext, request: Request, surface: Surface): Promise<Response> {
  const auth = surface === 'checkout' ? await requireCheckoutKey(ctx, request) : { key: await requireGatewayKey(ctx, request) };
  const idempotencyKey = readIdempotencyKey(request);
  const body = await readJsonObject(request);
  let input: PaymentRequest;
  try {
    input = parsePaymentRequest(body);
  } catch (error) {
    throw error instanceof GatewayError ? surfaceError(surface, 'failed to create payment session', error) : error;
  }
  const organizationId = attributedOrganization(ctx, surface, auth.key);
  // The checkout API writes the reserved keys from the key; the gateway keeps meta as sent.
  const meta = 'organization' in auth ? { ...input.meta, ...reservedMeta(auth.key, auth.organization) } : { ...input.meta };

  const claim = idempotencyKey
    ? await claimIdempotencyKey(
        ctx,
        { endpoint: new URL(request.url).pathname, organizationId: auth.key.organization_id ?? auth.key.id, key: idempotencyKey },
        body,
      )
    : undefined;
  if (claim?.kind === 'replay') return reply(request, claim.body, { status: 200, headers: { 'Idempotent-Replayed': 'true' } });
  if (claim?.kind === 'in_flight') {
    return reply(
      request,
      { success: true, message: 'a request with this Idempotency-Key is still in progress; repeat it later' },
      { status: 202 },
    );
  }
  try {
    const session = await createSession(ctx, {
      organizationId,
      amount: input.amount,
      currency: input.currency,
      recipient: { name: input.recipient.name, email: input.recipient.email },
      redirectUrl: input.redirect_url,
      meta,
    });
    recordTransaction(ctx, session, surface === 'checkout' ? 'checkout_api' : 'gateway');
    const answer = creationBody(session);
    claim?.finish(201, answer);
    return reply(request, answer, { status: 201 });
  } catch (error) {
    // A failed creation is not remembered: a retry with the same key is new work (002 section 7).
    claim?.abandon();
    throw error instanceof GatewayError ? surfaceError(surface, 'failed to create payment session', error) : error;
  }
}

/**
 * Verifies a session by either reference, synchronizing the service's transaction record.
 * With the `request` being answered, the answer may be the standalone server's (see reply).
 */
export function verifyPayment(ctx: MockContext, sessionRef: string, surface: Surface, request?: Request): Response {
  const ref = sessionRef.trim();
  if (ref === '') throw checkoutError(400, 'session reference is required');
  try {
    const session = fetchSession(ctx, ref);
    synchronize(ctx, session);
    return request ? reply(request, sessionBody(session)) : json(sessionBody(session));
  } catch (error) {
    throw error instanceof GatewayError ? surfaceError(surface, 'failed to fetch payment session', error) : error;
  }
}

/**
 * The checkout routes have no 429 of their own: every gateway failure but a missing session
 * is a 502 with the gateway's answer appended; at the gateway itself its status stands.
 */
function surfaceError(surface: Surface, what: string, error: GatewayError) {
  const text = `${what}: gateway answered ${error.status} ${error.code}: ${error.text}`;
  if (surface === 'checkout') return checkoutError(error.status === 404 ? 404 : 502, text);
  return checkoutError(
    error.status,
    text,
    error.status === 429 ? { 'Retry-After': String(GATEWAY_RETRY_AFTER_SECONDS) } : {},
  );
}

/**
 * The organization a payment is attributed to. The checkout API derives it from the key;
 * the gateway has no organization context and takes the dashboard's most recently
 * selected organization: the documented flaw (002 section 1), reproduced on purpose.
 */
function attributedOrganization(ctx: MockContext, surface: Surface, key: CheckoutKeyRecord): string {
  if (surface === 'checkout') return key.organization_id!;
  const selected = ctx.store.checkout.selectedOrganizationId ?? key.organization_id;
  if (!selected) throw checkoutError(401, 'invalid API key: not linked to an organization');
  return selected;
}

function reservedMeta(key: CheckoutKeyRecord, organization: CheckoutOrganization): Record<(typeof RESERVED_META_KEYS)[number], string> {
  return {
    organizationId: organization.id,
    user_id: key.user_id,
    svc_origin: SVC_ORIGIN,
    svc_environment: key.environment,
  };
}

/** The checkout API's payment routes. */
export function paymentHandlers(ctx: MockContext) {
  const base = `${ctx.urls.checkout}/api/v1/developer/payments`;
  return [
    http.post(base, route(ctx, 'checkout', ({ request }) => createPayment(ctx, request, 'checkout'))),
    // An empty reference (`/payments/`) does not match `:sessionRef`, so it has its own route.
    http.get(`${base}/`, route(ctx, 'checkout', ({ request }) => verifyPayment(ctx, '', 'checkout', request))),
    http.get(
      `${base}/:sessionRef`,
      route(ctx, 'checkout', ({ request, params }) => verifyPayment(ctx, String(params.sessionRef), 'checkout', request)),
    ),
  ];
}

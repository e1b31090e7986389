/**
 * The simulated payment gateway behind the checkout service: it creates checkout sessions,
 * answers session lookups, and can be made to fail (502, rate limit) or to hold creations
 * in flight by control calls. The checkout routes call it in-process; the earlier gateway
 * routes (./index.ts) expose it directly.
 */
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { checkoutSession, EVENT_FOR_STATUS, isPaid, type CheckoutSessionStatus } from '../../machines/checkout-session.js';
import { transition } from '../../machines/machine.js';
import { setStatus } from '../../history.js';
import { HttpError } from '../../http/errors.js';
import { paymentReference } from '../../references.js';
import { sessionReference, type GatewaySession } from '../../state/checkout.js';
import { findBy } from '../../state/indexed-map.js';

/** How long a customer can pay a session, seconds; afterwards a still `pending` session is gone (404). */
export const CHECKOUT_SESSION_TTL_SECONDS = 30 * 60;

/** `Retry-After` of the gateway's own rate limit, seconds (only the earlier routes show it). */
export const GATEWAY_RETRY_AFTER_SECONDS = 30;

/** A failure answered by the gateway; the checkout routes embed it as text in their own error. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: 'BAD_GATEWAY' | 'RATE_LIMITED' | 'NOT_FOUND' | 'VALIDATION_ERROR',
    readonly text: string,
  ) {
    super(`${status} ${code}: ${text}`);
    this.name = 'GatewayError';
  }
}

export interface GatewayCreateInput {
  organizationId: string;
  amount: number;
  currency: string;
  recipient: { name: string; email: string };
  redirectUrl: string;
  meta: Record<string, unknown>;
}

/** Creates a session: the gateway's answer is returned unchanged by both routes. */
export async function createSession(ctx: MockContext, input: GatewayCreateInput): Promise<GatewaySession> {
  consumeFault(ctx);
  await waitWhileHeld(ctx);
  const now = ctx.clock.now();
  const id = `cs_${ctx.random.hex(16)}`;
  const session: GatewaySession = {
    id,
    reference: paymentReference(ctx),
    organization_id: input.organizationId,
    status: 'pending',
    amount: input.amount,
    final_amount: 0,
    currency: input.currency,
    recipient: input.recipient,
    redirect_url: input.redirectUrl,
    meta: input.meta,
    checkout_url: `${ctx.urls.gateway}/checkout/${id}`,
    created_at: iso(now),
    updated_at: iso(now),
    expires_at: now + CHECKOUT_SESSION_TTL_SECONDS * 1000,
  };
  ctx.store.checkout.sessions.set(id, session);
  return session;
}

/** The creation body: `success`, `data.checkout_url` and both references. */
export function creationBody(session: GatewaySession) {
  return {
    success: true,
    data: { checkout_url: session.checkout_url, reference: session.reference, session_id: session.id },
  };
}

/** Looks a session up by session reference or gateway reference, as the gateway API does. */
export function fetchSession(ctx: MockContext, ref: string): GatewaySession {
  consumeFault(ctx);
  const session = findCheckoutSession(ctx, ref);
  if (!session) throw new GatewayError(404, 'NOT_FOUND', 'session not found or invalid');
  return session;
}

/** A live session by either reference, without consuming a fault (the hosted page and control use it). */
export function findCheckoutSession(ctx: MockContext, ref: string): GatewaySession | undefined {
  const sessions = ctx.store.checkout.sessions;
  const session = sessions.get(ref) ?? findBy(sessions, sessionReference, ref);
  if (!session) return undefined;
  if (session.status === 'pending' && ctx.clock.now() >= session.expires_at) return undefined;
  return session;
}

/** The verify body (002 section 2, payment session). */
export function sessionBody(session: GatewaySession) {
  return {
    success: true,
    data: {
      id: session.id,
      reference: session.reference,
      status: session.status,
      amount: session.amount,
      final_amount: session.final_amount,
      currency: session.currency,
      meta: session.meta,
      created_at: session.created_at,
      updated_at: session.updated_at,
      expires_at: iso(session.expires_at),
    },
  };
}

/**
 * Moves a session as the customer's choice on the hosted page does (or a control call):
 * 409 INVALID_STATE when the table has no row or the session can no longer be paid.
 * A paid session confirms `finalAmount` (default: the amount requested).
 */
export function settleSession(
  ctx: MockContext,
  session: GatewaySession,
  status: Exclude<CheckoutSessionStatus, 'pending'>,
  finalAmount?: number,
): GatewaySession {
  const next = transition(checkoutSession, session.status, EVENT_FOR_STATUS[status]);
  if (ctx.clock.now() >= session.expires_at) throw new HttpError(409, 'INVALID_STATE', 'checkout session has expired');
  setStatus(session, next, EVENT_FOR_STATUS[status], ctx.clock.now());
  session.final_amount = isPaid(next) ? (finalAmount ?? session.amount) : 0;
  session.updated_at = iso(ctx.clock.now());
  return session;
}

/** Each gateway API call (creation or lookup) uses up one injected fault, if any is set. */
function consumeFault(ctx: MockContext): void {
  const faults = ctx.store.checkout.gateway.faults;
  if (!faults || faults.remaining <= 0) return;
  faults.remaining -= 1;
  if (faults.remaining === 0) ctx.store.checkout.gateway.faults = undefined;
  if (faults.status === 429) throw new GatewayError(429, 'RATE_LIMITED', 'too many requests');
  throw new GatewayError(502, 'BAD_GATEWAY', 'upstream unavailable');
}

async function waitWhileHeld(ctx: MockContext): Promise<void> {
  const hold = ctx.store.checkout.gateway.hold;
  if (!hold) return;
  hold.waiting += 1;
  for (const notify of hold.watchers.splice(0)) notify();
  await hold.released;
}

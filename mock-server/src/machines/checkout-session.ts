import type { Machine } from './machine.js';

/** Raw gateway statuses of a checkout session (002 section 3); `completed` and `success` are paid. */
export type CheckoutSessionStatus = 'pending' | 'completed' | 'success' | 'failed' | 'cancelled';

/** What a customer (the hosted page) or a control call does to a session. */
export type CheckoutSessionEvent = 'complete' | 'succeed' | 'fail' | 'cancel';

/**
 * The document shows no transitions; these are ours. A `pending` session is paid
 * (`completed` or `success`), fails or is cancelled. `failed` means the customer can retry
 * (002 section 3), so it may move again, also to `failed` once more; `completed`, `success`
 * and `cancelled` are final. Attempts stop when the session expires (see handlers/gateway/gateway.ts).
 */
export const checkoutSession = {
  pending: { complete: 'completed', succeed: 'success', fail: 'failed', cancel: 'cancelled' },
  failed: { complete: 'completed', succeed: 'success', fail: 'failed', cancel: 'cancelled' },
  completed: {},
  success: {},
  cancelled: {},
} as const satisfies Machine<CheckoutSessionStatus, CheckoutSessionEvent>;

/** The event that moves a session into `status` (the control call names the status). */
export const EVENT_FOR_STATUS: Readonly<Record<Exclude<CheckoutSessionStatus, 'pending'>, CheckoutSessionEvent>> = {
  completed: 'complete',
  success: 'succeed',
  failed: 'fail',
  cancelled: 'cancel',
};

/** Paid statuses: only these release goods. */
export const isPaid = (status: string) => status === 'completed' || status === 'success';

import type { CollectionRecord, PayoutRecord } from '../types.js';
import type { Machine } from './machine.js';

export type PromptStatus = CollectionRecord['status'];
/** What the customer (or a control call, standing in for them) and the clock do to a prompt. */
export type PromptEvent = 'approve' | 'decline' | 'time_out';

/**
 * A Mobile Money collection prompt. The documents say only that the customer approves it
 * (000 section 3); the rest is ours: a `pending` prompt is approved or declined, or times out
 * unanswered, and each outcome is final: an answer that comes later is refused, not applied.
 */
export const mobileMoneyPrompt = {
  pending: { approve: 'approved', decline: 'declined', time_out: 'timed_out' },
  approved: {},
  declined: {},
  timed_out: {},
} as const satisfies Machine<PromptStatus, PromptEvent>;

export type PayoutStatus = PayoutRecord['status'];
/** What the rail (on the clock) or a control call does to a payout attempt. */
export type PayoutEvent = 'succeed' | 'fail';

/**
 * One Mobile Money disbursement attempt: a `pending` payout succeeds or fails, once. A retry is
 * a new attempt (a new record) started by its owner, so neither outcome is left again.
 */
export const mobileMoneyPayout = {
  pending: { succeed: 'succeeded', fail: 'failed' },
  succeeded: {},
  failed: {},
} as const satisfies Machine<PayoutStatus, PayoutEvent>;

import type { Machine } from './machine.js';

type Shared = 'incomplete' | 'pending_user_transfer_start' | 'completed' | 'expired' | 'error';
/** Statuses a deposit passes through. */
export type DepositStatus = Shared | 'pending_anchor' | 'pending_stellar';
/** Statuses a withdrawal passes through. */
export type WithdrawStatus = Shared | 'pending_external' | 'pending_payout_confirmation';
/** SEP-24 statuses of an interactive transaction (000 section 2). */
export type TransactionStatus = DepositStatus | WithdrawStatus;

/** What the customer, the rails or the clock do to a transaction. */
export type TransactionEvent =
  | 'complete_form'
  | 'expire'
  | 'prompt_approved'
  | 'prompt_failed'
  | 'submit_payment'
  | 'payment_confirmed'
  | 'usdc_received'
  | 'start_payout'
  | 'payout_confirmed'
  | 'payout_failed';

/**
 * Buying USDC (SEP-24 `deposit`), 000 section 3: the form moves it to
 * pending_user_transfer_start with a Mobile Money prompt; approval means the cedis arrived
 * (pending_anchor); the anchor submits the USDC payment (pending_stellar), which completes on
 * confirmation. Ours (design.md section 4): an unfinished form expires after 30 minutes; a
 * declined or timed-out prompt ends in `error`.
 */
export const depositTransaction: Machine<DepositStatus, TransactionEvent> = {
  incomplete: { complete_form: 'pending_user_transfer_start', expire: 'expired' },
  pending_user_transfer_start: { prompt_approved: 'pending_anchor', prompt_failed: 'error' },
  pending_anchor: { submit_payment: 'pending_stellar' },
  pending_stellar: { payment_confirmed: 'completed' },
  completed: {},
  expired: {},
  error: {},
};

/**
 * Selling USDC (SEP-24 `withdrawal`), 000 section 3: the form shows the anchor's address and
 * memo (pending_user_transfer_start); the USDC with that memo arrives (pending_external); the
 * payout starts (pending_payout_confirmation) and completes once confirmed. Ours: an
 * unfinished form, or USDC that does not arrive, expires after 30 minutes; a failed payout
 * ends in `error`.
 */
export const withdrawTransaction: Machine<WithdrawStatus, TransactionEvent> = {
  incomplete: { complete_form: 'pending_user_transfer_start', expire: 'expired' },
  pending_user_transfer_start: { usdc_received: 'pending_external', expire: 'expired' },
  pending_external: { start_payout: 'pending_payout_confirmation' },
  pending_payout_confirmation: { payout_confirmed: 'completed', payout_failed: 'error' },
  completed: {},
  expired: {},
  error: {},
};

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
  | 'prompt_declined'
  | 'prompt_timed_out'
  | 'submit_payment'
  | 'payment_confirmed'
  | 'usdc_received'
  | 'usdc_refused'
  | 'start_payout'
  | 'payout_confirmed'
  | 'payout_failed'
  | 'retry_payout'
  | 'payouts_exhausted';

/**
 * Buying USDC (SEP-24 `deposit`), 000 section 3: the form moves it to
 * pending_user_transfer_start with a Mobile Money prompt; approval means the cedis arrived
 * (pending_anchor); the anchor submits the USDC payment (pending_stellar), which completes on
 * confirmation. Ours: an unfinished form expires after 30 minutes; as 000 section 6 names the
 * webhooks ("order.expired: payment window timed out", "order.failed: payment failed or
 * declined"), a prompt nobody answers in time ends in `expired`, a declined one in `error`.
 */
export const depositTransaction: Machine<DepositStatus, TransactionEvent> = {
  incomplete: { complete_form: 'pending_user_transfer_start', expire: 'expired' },
  pending_user_transfer_start: { prompt_approved: 'pending_anchor', prompt_declined: 'error', prompt_timed_out: 'expired' },
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
 * attempt is retried, staying in pending_payout_confirmation, and after the last one the
 * transaction ends in `error` with the USDC sent back ("nothing is deducted", 000 section 1).
 * USDC with the memo that the transaction cannot take (another amount, a second transfer, one
 * after expiry) is sent back to its sender whatever the status: `usdc_refused` changes no status.
 */
export const withdrawTransaction: Machine<WithdrawStatus, TransactionEvent> = {
  incomplete: { complete_form: 'pending_user_transfer_start', expire: 'expired' },
  pending_user_transfer_start: { usdc_received: 'pending_external', usdc_refused: 'pending_user_transfer_start', expire: 'expired' },
  pending_external: { start_payout: 'pending_payout_confirmation', usdc_refused: 'pending_external' },
  pending_payout_confirmation: {
    payout_confirmed: 'completed',
    payout_failed: 'pending_payout_confirmation',
    retry_payout: 'pending_payout_confirmation',
    payouts_exhausted: 'error',
    usdc_refused: 'pending_payout_confirmation',
  },
  completed: { usdc_refused: 'completed' },
  expired: { usdc_refused: 'expired' },
  error: { usdc_refused: 'error' },
};

/** The table of each transaction kind. */
export const TRANSACTION_MACHINES = { deposit: depositTransaction, withdrawal: withdrawTransaction } as const;

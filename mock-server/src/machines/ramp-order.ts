import { canTransition, moveRecord, type Machine } from './machine.js';

/** Every status of a ramp order (001 section 3). */
export type RampOrderStatus =
  | 'quote_locked'
  | 'fiat_pending'
  | 'crypto_pending'
  | 'fiat_confirmed'
  | 'crypto_confirmed'
  | 'crypto_sending'
  | 'fiat_sending'
  | 'fiat_retry'
  | 'completed'
  | 'expired'
  | 'cancelled'
  | 'failed'
  | 'fiat_refunded'
  | 'crypto_refunded';

export type RampType = 'onramp' | 'offramp';

type OnRampStatus = Exclude<RampOrderStatus, 'crypto_pending' | 'crypto_confirmed' | 'fiat_sending' | 'fiat_retry' | 'crypto_refunded'>;
type OffRampStatus = Exclude<RampOrderStatus, 'fiat_pending' | 'fiat_confirmed' | 'crypto_sending' | 'fiat_refunded'>;

/**
 * Cedis in by Mobile Money, USDC out. The rows of 001 section 3 plus our choices where it
 * says "not shown": `collect` (the prompt is sent) moves `quote_locked` on shortly after
 * creation; a declined prompt fails the order from `fiat_pending`, while one nobody answers
 * leaves it to `expire` when the rate lock ends; a failed USDC send is retried inside
 * `crypto_sending` (`resend`) until the maximum, then `give_up` (the collected cedis are
 * refunded); a prompt approved after cancellation is refunded like one approved after expiry.
 */
export const onRampOrder = {
  quote_locked: { collect: 'fiat_pending', expire: 'expired', cancel: 'cancelled' },
  fiat_pending: { fiat_collected: 'fiat_confirmed', collection_failed: 'failed', expire: 'expired', cancel: 'cancelled' },
  fiat_confirmed: { send: 'crypto_sending' },
  crypto_sending: { send_confirmed: 'completed', resend: 'crypto_sending', give_up: 'failed' },
  expired: { late_fiat: 'fiat_refunded' },
  cancelled: { late_fiat: 'fiat_refunded' },
  completed: {},
  failed: {},
  fiat_refunded: {},
} as const satisfies Machine<OnRampStatus>;

/**
 * USDC in on Stellar, cedis out by Mobile Money. `await_crypto` moves `quote_locked` on
 * shortly after creation, or at once when the USDC or the confirm call comes first (the
 * deposit address is known from creation). Each failed payout attempt passes through
 * `fiat_retry`; `give_up` ends in `failed` after the last attempt or on an unrecoverable
 * error, and the USDC goes back to the wallet that sent it, as does USDC arriving after
 * expiry or cancellation.
 */
export const offRampOrder = {
  quote_locked: { await_crypto: 'crypto_pending', expire: 'expired', cancel: 'cancelled' },
  crypto_pending: { crypto_received: 'crypto_confirmed', expire: 'expired', cancel: 'cancelled' },
  crypto_confirmed: { payout: 'fiat_sending' },
  fiat_sending: { paid_out: 'completed', payout_failed: 'fiat_retry', give_up: 'failed' },
  fiat_retry: { payout: 'fiat_sending', give_up: 'failed' },
  expired: { late_crypto: 'crypto_refunded' },
  cancelled: { late_crypto: 'crypto_refunded' },
  completed: {},
  failed: {},
  crypto_refunded: {},
} as const satisfies Machine<OffRampStatus>;

/** The table of each order type. */
export const RAMP_ORDER_MACHINES = { onramp: onRampOrder, offramp: offRampOrder } as const;

type EventOf<M> = { [S in keyof M]: keyof M[S] }[keyof M] & string;
export type RampOrderEvent = EventOf<typeof onRampOrder> | EventOf<typeof offRampOrder>;

// The two tables hold different subsets of the statuses; seen through this wider type, a
// status or event a table lacks is simply a missing row, which transition() refuses.
type AnyRampMachine = Machine<RampOrderStatus, RampOrderEvent>;
const machineOf = (type: RampType) => RAMP_ORDER_MACHINES[type] as unknown as AnyRampMachine;

/** Moves `order` by `event` through its type's table, noting the change in its history at `at` (ms). */
export function moveRampOrder(order: { type: RampType; status: RampOrderStatus }, event: RampOrderEvent, at: number): RampOrderStatus {
  return moveRecord(machineOf(order.type), order, event, at);
}

/** Whether the table of `type` has a row for `event` in `from`. */
export function canMoveRampOrder(type: RampType, from: RampOrderStatus, event: RampOrderEvent): boolean {
  return canTransition(machineOf(type), from, event);
}

/**
 * The terminal statuses of 001 section 3 plus the two refund outcomes: polling stops here.
 * Only `completed` is a success; `expired` and `cancelled` still move to a refund status if
 * a payment arrives late.
 */
export const TERMINAL_RAMP_STATUSES: readonly RampOrderStatus[] = ['completed', 'failed', 'expired', 'cancelled', 'fiat_refunded', 'crypto_refunded'];

/**
 * How the service retries its own legs of a transaction: a USDC send or a Mobile Money
 * payout that fails is tried again after RETRY_DELAY_SECONDS, MAX_ATTEMPTS times in all,
 * before the order or transaction fails and the customer's money goes back. One policy for
 * ramp orders and interactive transactions alike.
 */

/** Attempts of a USDC send or a payout before giving up. */
export const MAX_ATTEMPTS = 3;
/** Wait after a failed attempt before the next one, seconds. */
export const RETRY_DELAY_SECONDS = 30;

/**
 * Interactive (SEP-24) transactions: buying USDC (`deposit`) and selling it (`withdrawal`).
 * One domain for every surface that touches them: the anchor's SEP-24 endpoints, the widget
 * backend's interactive endpoints, the interactive page (handlers/interactive) and the
 * control API. Statuses move only through the tables in machines/transaction.ts.
 *
 * The life of a transaction:
 *   - created `incomplete`, `expired` if its form is not finished within 30 minutes; the
 *     page's link (a token) opens the form until it is finished, then the transaction's
 *     status, for 30 minutes from the start;
 *   - the customer finishes the form ({@link completeInteractive}): phone checked by OTP,
 *     amount within limits, price fixed, an `ord_` order recorded for the merchant;
 *   - deposit: a Mobile Money prompt; approved -> the anchor sends the USDC a few seconds
 *     later -> completed on chain confirmation; declined -> `error`; unanswered -> `expired`;
 *   - withdrawal: the page shows the anchor's account and memo; the USDC with that memo and
 *     amount arrives -> payout a few seconds later -> completed on confirmation; no USDC within
 *     30 minutes -> `expired`; a failed payout attempt is retried as the ramp API retries its
 *     payouts, and after the last one -> `error` with the USDC sent back to its wallet;
 *     USDC the withdrawal cannot take (another amount, a second transfer, after expiry) is
 *     sent back at once.
 * Final statuses update the order and send the merchant's order webhook.
 */
import type { MockContext } from './context.js';
import { registerDepositHooks } from './transactions/deposit.js';
import { registerWithdrawHooks } from './transactions/withdraw.js';

export type { TransactionKind, TransactionRecord, TransactionRefund } from './state/anchor.js';
// Tests name the asset through this module.
export { usdcAsset } from './quotes.js';
export { anchorAccount, isStellarAccount } from './transactions/accounts.js';
export {
  createTransaction,
  findTransaction,
  findTransactionByToken,
  INCOMPLETE_TTL_SECONDS,
  type CreateTransactionInput,
} from './transactions/create.js';
export {
  checkCompletion,
  completeInteractive,
  sendInteractiveOtp,
  verifyInteractivePhone,
  type CompleteInteractiveInput,
} from './transactions/complete.js';
export { SUBMIT_DELAY_SECONDS } from './transactions/deposit.js';
export { orderStatus } from './transactions/orders.js';
export { moreInfoUrl, quoteForTransaction, transactionView, type TransactionQuote, type TransactionView } from './transactions/view.js';
export { PAYOUT_START_DELAY_SECONDS, TRANSFER_WINDOW_SECONDS } from './transactions/withdraw.js';

/**
 * Lets the rails report to transactions: Mobile Money prompts and payouts, inbound USDC
 * (a withdrawal's, by memo) and outbound USDC confirmed (a deposit's delivery or a refund).
 * Called once when the handlers are created.
 */
export function registerTransactionHooks(ctx: MockContext): void {
  registerDepositHooks(ctx);
  registerWithdrawHooks(ctx);
}

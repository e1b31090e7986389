/**
 * The withdrawal flow (selling USDC): the page shows the anchor's account and memo; the USDC
 * with that memo and amount arrives -> payout a few seconds later -> completed on
 * confirmation; no USDC within 30 minutes -> `expired`; a failed payout attempt is retried as
 * the ramp API retries its payouts, and after the last one -> `error` with the USDC sent back
 * to its wallet. USDC the withdrawal cannot take (another amount, a second transfer, after
 * expiry) is sent back at once.
 */
import { Keypair } from '@stellar/stellar-sdk';
import type { MockContext } from '../context.js';
import { receivePayment, sendPayment, toStroops, type StellarPaymentRecord } from '../ledger.js';
import { startPayout, type PayoutRecord } from '../mobile-money.js';
import { MAX_ATTEMPTS, RETRY_DELAY_SECONDS } from '../retries.js';
import type { TransactionRecord, TransactionRefund } from '../state/anchor.js';
import { anchorAccount } from './accounts.js';
import { can, end, move } from './orders.js';

/** A withdrawal whose USDC has not arrived this long after the form expires, seconds. */
export const TRANSFER_WINDOW_SECONDS = 30 * 60;
/** How long the anchor takes to start the payout once the USDC arrived, seconds. */
export const PAYOUT_START_DELAY_SECONDS = 2;

/** Shows the anchor's account and memo of a finished withdrawal form and waits for the USDC. */
export function awaitUsdc(ctx: MockContext, tx: TransactionRecord, now: number) {
  tx.withdraw_anchor_account = anchorAccount(ctx);
  // An id memo (a uint64 without leading zero) that every wallet can attach.
  tx.withdraw_memo = `${1 + ctx.random.int(9)}${ctx.random.digits(11)}`;
  ctx.clock.schedule(now + TRANSFER_WINDOW_SECONDS * 1000, () => {
    const t = ctx.store.anchor.transactions.get(tx.id);
    if (t?.status === 'pending_user_transfer_start') {
      end(ctx, t, 'expire', `No USDC with memo ${t.withdraw_memo} arrived within ${TRANSFER_WINDOW_SECONDS / 60} minutes.`);
    }
  });
  const auto = ctx.options.autoAdvance;
  if (auto && auto.walletPays) {
    // Auto-advance plays the customer too: their wallet sends the USDC with the memo.
    ctx.clock.schedule(now + auto.chainSeconds * 1000, async () => {
      const t = ctx.store.anchor.transactions.get(tx.id);
      if (t?.status !== 'pending_user_transfer_start' || !t.quote) return;
      await receivePayment(ctx, {
        from: Keypair.fromRawEd25519Seed(ctx.random.bytes(32)).publicKey(),
        to: anchorAccount(ctx),
        amount: t.quote.crypto_amount.toFixed(2),
        asset_code: 'USDC',
        memo: t.withdraw_memo,
      });
    });
  }
}

/** Inbound USDC (a withdrawal's, by memo) and payouts. */
export function registerWithdrawHooks(ctx: MockContext): void {
  const get = (id: string) => ctx.store.anchor.transactions.get(id);
  ctx.hooks.stellarPayment.set('transaction', (p: StellarPaymentRecord) => {
    if (p.to !== anchorAccount(ctx) || p.asset_code !== 'USDC' || !p.memo) return undefined;
    const withMemo = [...ctx.store.anchor.transactions.values()].filter((t) => t.kind === 'withdrawal' && t.withdraw_memo === p.memo);
    const tx = withMemo.find((t) => can(t, 'usdc_received')) ?? withMemo.at(-1);
    if (!tx?.quote) return undefined;
    if (can(tx, 'usdc_received') && toStroops(p.amount) === toStroops(tx.quote.crypto_amount)) {
      tx.stellar_transaction_id = p.hash;
      tx.source_account = p.from;
      move(ctx, tx, 'usdc_received');
      schedulePayout(ctx, tx.id);
      return tx.id;
    }
    const reason = can(tx, 'usdc_received')
      ? `expected exactly ${tx.quote.crypto_amount.toFixed(2)} USDC, received ${p.amount}`
      : `USDC arrived when the transaction was ${tx.status}`;
    move(ctx, tx, 'usdc_refused');
    refund(ctx, tx, p, reason);
    return tx.id;
  });
  ctx.hooks.payout.set('transaction', (p: PayoutRecord) => {
    const tx = get(p.owner.id);
    if (!tx) return;
    tx.external_transaction_id = p.provider_ref;
    if (p.status === 'succeeded') return end(ctx, tx, 'payout_confirmed', null);
    const reason = p.failure_reason ?? 'unknown reason';
    if (tx.payout_attempts < MAX_ATTEMPTS) {
      move(ctx, tx, 'payout_failed');
      ctx.clock.schedule(ctx.clock.now() + RETRY_DELAY_SECONDS * 1000, () => {
        const t = get(tx.id);
        if (t && can(t, 'retry_payout')) startPayoutAttempt(ctx, t, 'retry_payout');
      });
      return;
    }
    const received = tx.stellar_transaction_id ? ctx.store.stellar.payments.get(tx.stellar_transaction_id) : undefined;
    if (!received) throw new Error(`transaction ${tx.id} failed its payout with no USDC received to send back`);
    end(ctx, tx, 'payouts_exhausted', `The Mobile Money payout failed after ${MAX_ATTEMPTS} attempts: ${reason}. The USDC was sent back.`);
    // The table moves into `error` once, so the USDC goes back exactly once.
    refund(ctx, tx, received, 'the Mobile Money payout failed');
  });
}

function schedulePayout(ctx: MockContext, id: string) {
  ctx.clock.schedule(ctx.clock.now() + PAYOUT_START_DELAY_SECONDS * 1000, () => {
    const tx = ctx.store.anchor.transactions.get(id);
    if (tx && can(tx, 'start_payout')) startPayoutAttempt(ctx, tx, 'start_payout');
  });
}

/** Starts a Mobile Money payout of the quoted cedis: the first attempt, or a retry after a failed one. */
function startPayoutAttempt(ctx: MockContext, tx: TransactionRecord, event: 'start_payout' | 'retry_payout') {
  if (!tx.quote || !tx.provider || !tx.phone) throw new Error(`transaction ${tx.id} has no payout details`);
  move(ctx, tx, event);
  tx.payout_attempts++;
  const payout = startPayout(ctx, {
    merchant_id: tx.merchant_id ?? '',
    owner: { kind: 'transaction', id: tx.id },
    provider: tx.provider,
    phone: tx.phone,
    amount: tx.quote.fiat_amount,
  });
  tx.payout_id = payout.id;
}

/**
 * Sends the USDC of `payment` back to the wallet it came from, in full, and lists it on the
 * transaction; with the request's `refund_memo`, else the memo the payment came with (SEP-24),
 * so that a shared account can tell whose money it is.
 */
function refund(ctx: MockContext, tx: TransactionRecord, payment: StellarPaymentRecord, reason: string) {
  const memo = tx.refund_memo?.value ?? payment.memo;
  const back = sendPayment(ctx, { kind: 'transaction', id: tx.id }, { from: payment.to, to: payment.from, amount: payment.amount, memo });
  const entry: TransactionRefund = { stellar_transaction_id: back.hash, refunded_payment: payment.hash, amount: payment.amount, reason, status: 'pending' };
  tx.refunds.push(entry);
}

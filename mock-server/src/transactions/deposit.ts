/**
 * The deposit flow (buying USDC): the Mobile Money prompt for the cedis; approved -> the
 * anchor sends the USDC a few seconds later -> completed on chain confirmation; declined ->
 * `error`; unanswered -> `expired`.
 */
import type { MockContext } from '../context.js';
import { sendPayment, type StellarPaymentRecord } from '../ledger.js';
import { startCollection, type CollectionRecord, type ProviderId } from '../mobile-money.js';
import type { TransactionRecord } from '../state/anchor.js';
import { anchorAccount } from './accounts.js';
import { end, move } from './orders.js';

/** How long the anchor takes to submit the USDC once the cedis arrived, seconds. */
export const SUBMIT_DELAY_SECONDS = 2;

/** Sends the Mobile Money prompt for the quoted cedis of a finished deposit form. */
export function promptForCedis(ctx: MockContext, tx: TransactionRecord, provider: ProviderId, phone: string, amount: number) {
  const collection = startCollection(ctx, {
    merchant_id: tx.merchant_id ?? '',
    owner: { kind: 'transaction', id: tx.id },
    provider,
    phone,
    amount,
  });
  tx.collection_id = collection.id;
}

/** Prompts answered, and outbound USDC confirmed (a deposit's delivery, or a withdrawal's refund). */
export function registerDepositHooks(ctx: MockContext): void {
  const get = (id: string) => ctx.store.anchor.transactions.get(id);
  ctx.hooks.collection.set('transaction', (c: CollectionRecord) => {
    const tx = get(c.owner.id);
    if (!tx) return;
    tx.external_transaction_id = c.provider_ref;
    if (c.status === 'approved') {
      move(ctx, tx, 'prompt_approved');
      scheduleSubmit(ctx, tx.id);
      return;
    }
    if (c.status === 'declined') end(ctx, tx, 'prompt_declined', 'The customer declined the Mobile Money prompt.');
    else end(ctx, tx, 'prompt_timed_out', 'The Mobile Money prompt was not answered in time.');
  });
  ctx.hooks.sendConfirmed.set('transaction', (p: StellarPaymentRecord) => {
    const tx = p.matched ? get(p.matched.id) : undefined;
    if (!tx) return;
    const refund = tx.refunds.find((r) => r.stellar_transaction_id === p.hash);
    if (refund) refund.status = 'completed';
    else end(ctx, tx, 'payment_confirmed', null);
  });
}

function scheduleSubmit(ctx: MockContext, id: string) {
  ctx.clock.schedule(ctx.clock.now() + SUBMIT_DELAY_SECONDS * 1000, () => {
    const tx = ctx.store.anchor.transactions.get(id);
    if (tx?.status !== 'pending_anchor' || !tx.quote || !tx.destination_address) return;
    move(ctx, tx, 'submit_payment');
    const payment = sendPayment(
      ctx,
      { kind: 'transaction', id },
      { from: anchorAccount(ctx), to: tx.destination_address, amount: tx.quote.crypto_amount.toFixed(2), memo: tx.deposit_memo?.value ?? null },
    );
    tx.stellar_transaction_id = payment.hash;
  });
}

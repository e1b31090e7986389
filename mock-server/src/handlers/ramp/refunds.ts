/**
 * Money the user paid goes back: it ends delivered (./lifecycle.ts) or refunded in full, a
 * payment after expiry or cancellation, one the order cannot take, or any payment of an order
 * that failed. Cedis go back to the user's phone, USDC to the wallet that sent it; each refund
 * is recorded on the order and completes when its rail does.
 */
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { sendPayment, type StellarPaymentRecord } from '../../ledger.js';
import { startPayout } from '../../mobile-money.js';
import type { RampOrderRecord, RampRefund } from '../../state/ramp.js';

/** The order as the owner of a rail record (a prompt, a payout, a Stellar payment). */
export const owner = (order: RampOrderRecord) => ({ kind: 'ramp_order' as const, id: order.id, reference: order.reference });

/** Disburses `amount` GHS to the user's Mobile Money. */
export const payoutToUser = (ctx: MockContext, order: RampOrderRecord, amount: number) =>
  startPayout(ctx, { merchant_id: order.merchant_id, owner: owner(order), provider: order.user.network, phone: order.user.phone, amount });

function refund(ctx: MockContext, order: RampOrderRecord, entry: Omit<RampRefund, 'status' | 'created_at'>) {
  order.refunds.push({ ...entry, status: 'pending', created_at: iso(ctx.clock.now()) });
}

export function refundFiat(ctx: MockContext, order: RampOrderRecord, amount: number, reason: string) {
  refund(ctx, order, { method: 'mobile_money', amount, reason, rail_id: payoutToUser(ctx, order, amount).id });
}

export function refundCrypto(ctx: MockContext, order: RampOrderRecord, payment: StellarPaymentRecord, reason: string) {
  const back = sendPayment(ctx, owner(order), { from: payment.to, to: payment.from, amount: payment.amount, memo: null });
  refund(ctx, order, { method: 'usdc', amount: Number(payment.amount), reason, rail_id: back.hash });
}

/**
 * "Nothing is deducted" (000 section 1): a failed order sends back what the user paid, the
 * collected cedis to their phone (on-ramp) or the accepted USDC to the wallet that sent it
 * (off-ramp), through the same refunds as a late payment.
 */
export function refundPayment(ctx: MockContext, order: RampOrderRecord, reason: string) {
  if (order.type === 'onramp') {
    const collection = order.collection_id ? ctx.store.mobileMoney.collections.get(order.collection_id) : undefined;
    if (collection?.status !== 'approved') throw new Error(`ramp order ${order.id} has no collected payment`);
    refundFiat(ctx, order, collection.amount, reason);
    return;
  }
  const payment = order.received ? ctx.store.stellar.payments.get(order.received.hash) : undefined;
  if (!payment) throw new Error(`ramp order ${order.id} has no received USDC payment`);
  refundCrypto(ctx, order, payment, reason);
}

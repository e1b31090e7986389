/**
 * How a transaction moves: every status change goes through its kind's table
 * (machines/transaction.ts) and is mirrored on the merchant's `ord_` order; a final status
 * also counts the volume and sends the order webhook.
 */
import { iso } from '../clock.js';
import type { MockContext } from '../context.js';
import { canTransition, moveRecord, transition, type Machine } from '../machines/machine.js';
import { TRANSACTION_MACHINES, type TransactionEvent, type TransactionStatus } from '../machines/transaction.js';
import type { TransactionRecord } from '../state/anchor.js';
import type { OrderRecord } from '../store.js';
import { addVolume } from '../volume.js';
import { enqueueDelivery } from '../webhooks/deliver.js';
import { orderWebhookPayload, type OrderEvent } from '../webhooks/payloads.js';
import { anchorAccount } from './accounts.js';

// A status of the other kind has no row in a kind's table, so it is refused like any other.
const machineOf = (tx: TransactionRecord) => TRANSACTION_MACHINES[tx.kind] as Machine<TransactionStatus, TransactionEvent>;

/** The status `event` leads to from the transaction's status; 409 INVALID_STATE where its table has no row. */
export const next = (tx: TransactionRecord, event: TransactionEvent): TransactionStatus => transition(machineOf(tx), tx.status, event);

/** Whether the transaction's table has a row for `event` in its status. */
export const can = (tx: TransactionRecord, event: TransactionEvent) => canTransition(machineOf(tx), tx.status, event);

/** Applies `event` through the table (refused when it has no row) and mirrors it on the order. */
export function move(ctx: MockContext, tx: TransactionRecord, event: TransactionEvent) {
  moveRecord(machineOf(tx), tx, event, ctx.clock.now());
  tx.updated_at = ctx.clock.now();
  const order = tx.order_id ? ctx.store.orders.get(tx.order_id) : undefined;
  if (order) order.status = orderStatus(tx.status);
}

/** Moves into a final status: volume, order and webhook follow, exactly once (the table allows one final move). */
export function end(ctx: MockContext, tx: TransactionRecord, event: TransactionEvent, message: string | null) {
  move(ctx, tx, event);
  if (message !== null) tx.message = message;
  if (tx.token_hash) ctx.store.anchor.tokens.delete(tx.token_hash);
  tx.token_hash = null;
  const merchant = tx.merchant_id ? ctx.store.merchants.get(tx.merchant_id) : undefined;
  if (tx.status === 'completed') {
    tx.completed_at = tx.updated_at;
    if (merchant && tx.quote) addVolume(ctx, merchant, tx.quote.fiat_amount);
  }
  const order = tx.order_id ? ctx.store.orders.get(tx.order_id) : undefined;
  if (!merchant || !order) return;
  const event_name = ORDER_EVENTS[tx.status];
  if (!event_name || !merchant.webhook.url) return;
  enqueueDelivery(ctx, {
    kind: 'order',
    event: event_name,
    merchantId: merchant.id,
    url: merchant.webhook.url,
    payload: orderWebhookPayload(ctx, order, event_name),
  });
}

/** The order webhook each final status sends (000 section 6). */
const ORDER_EVENTS: Partial<Record<TransactionStatus, OrderEvent>> = {
  completed: 'order.completed',
  error: 'order.failed',
  expired: 'order.expired',
};

/** The order list's status for a transaction status: pending, processing, then completed, failed or expired. */
export function orderStatus(status: TransactionStatus): string {
  switch (status) {
    case 'incomplete':
    case 'pending_user_transfer_start':
      return 'pending';
    case 'completed':
      return 'completed';
    case 'expired':
      return 'expired';
    case 'error':
      return 'failed';
    default:
      return 'processing';
  }
}

export function recordOrder(ctx: MockContext, tx: TransactionRecord) {
  if (!tx.merchant_id || !tx.quote) return;
  const deposit = tx.kind === 'deposit';
  const order: OrderRecord = {
    id: `ord_${ctx.random.uuid()}`,
    merchant_id: tx.merchant_id,
    status: orderStatus(tx.status),
    type: deposit ? 'onramp' : 'offramp',
    fiat_currency: 'GHS',
    fiat_amount: tx.quote.fiat_amount,
    crypto_currency: 'USDC',
    crypto_amount: tx.quote.crypto_amount,
    payment_method: 'mobile_money',
    // Where the USDC goes: the customer's wallet (buy) or the anchor's account (sell).
    destination_address: deposit ? tx.destination_address : anchorAccount(ctx),
    transaction_id: tx.id,
    created_at: iso(ctx.clock.now()),
    seq: ctx.store.seq++,
  };
  ctx.store.orders.set(order.id, order);
  tx.order_id = order.id;
}

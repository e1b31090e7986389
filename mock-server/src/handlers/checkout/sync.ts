/**
 * The service's own transaction records and the events their synchronization triggers
 * (002 section 3, verification row; section 6). A record is written from the gateway's
 * answer at creation and synchronized to the gateway status on every verification. A
 * final status dispatches `payment.succeeded` (completed, success) or `payment.failed`
 * (failed, cancelled) to every endpoint the organization subscribed, concurrently; the
 * event is created at the first synchronization of that status and every later one sends
 * the same event (same id, same body) again.
 */
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { isPaid } from '../../machines/checkout-session.js';
import { eventOf, transactionSession, type CheckoutEvent, type CheckoutTransaction, type GatewaySession } from '../../state/checkout.js';
import { findBy } from '../../state/indexed-map.js';
import { enqueueDelivery } from '../../webhooks/deliver.js';

/** Records a payment the gateway just created, under the organization it was attributed to. */
export function recordTransaction(ctx: MockContext, session: GatewaySession, source: CheckoutTransaction['source']): CheckoutTransaction {
  const store = ctx.store;
  const txn: CheckoutTransaction = {
    id: `txn_${ctx.random.hex(12)}`,
    organization_id: session.organization_id,
    reference: session.reference,
    session_id: session.id,
    status: session.status,
    amount: session.amount,
    final_amount: session.final_amount,
    currency: session.currency,
    recipient: session.recipient,
    meta: session.meta,
    source,
    created_at: session.created_at,
    updated_at: session.created_at,
    synced_at: null,
    seq: store.seq++,
  };
  store.checkout.transactions.set(txn.id, txn);
  return txn;
}

/** Synchronizes the transaction of `session` with the gateway's answer and dispatches its event. */
export function synchronize(ctx: MockContext, session: GatewaySession): void {
  const state = ctx.store.checkout;
  const txn = findBy(state.transactions, transactionSession, session.id);
  if (!txn) return;
  const now = iso(ctx.clock.now());
  if (txn.status !== session.status || txn.final_amount !== session.final_amount) txn.updated_at = now;
  txn.status = session.status;
  txn.final_amount = session.final_amount;
  txn.synced_at = now;
  if (txn.status === 'pending') return;
  const event = eventFor(ctx, txn);
  for (const endpoint of state.webhookEndpoints.values()) {
    if (endpoint.organization_id !== txn.organization_id) continue;
    dispatch(ctx, event, endpoint.id);
  }
}

/** Sends `event` to one subscribed endpoint: one attempt, signed with that endpoint's secret. */
export function dispatch(ctx: MockContext, event: CheckoutEvent, endpointId: string): void {
  const endpoint = ctx.store.checkout.webhookEndpoints.get(endpointId);
  if (!endpoint) return;
  enqueueDelivery(ctx, {
    kind: 'checkout',
    event: event.type,
    eventId: event.id,
    merchantId: event.organization_id,
    endpointId,
    url: endpoint.url,
    payload: event.payload,
  });
}

/** The event of the transaction's current status: the existing one, or a new one on first synchronization. */
function eventFor(ctx: MockContext, txn: CheckoutTransaction): CheckoutEvent {
  const events = ctx.store.checkout.events;
  const existing = findBy(events, eventOf, eventOf({ transaction_id: txn.id, status: txn.status }));
  if (existing) return existing;
  const id = `evt_${ctx.random.uuid()}`;
  const type = isPaid(txn.status) ? 'payment.succeeded' : 'payment.failed';
  const event: CheckoutEvent = {
    id,
    type,
    organization_id: txn.organization_id,
    transaction_id: txn.id,
    status: txn.status,
    payload: {
      id,
      type,
      created_at: iso(ctx.clock.now()),
      data: {
        reference: txn.reference,
        session_id: txn.session_id,
        status: txn.status,
        amount: txn.amount,
        final_amount: txn.final_amount,
        currency: txn.currency,
        meta: txn.meta,
      },
    },
  };
  events.set(id, event);
  return event;
}

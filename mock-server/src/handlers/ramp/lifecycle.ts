/**
 * What the service does to a ramp order once it exists (001 sections 1 and 3), every status
 * change going through the tables of ../../machines/ramp-order.ts.
 *
 * What a person does waits for a control call (or auto-advance): the user approves the
 * Mobile Money prompt, sends USDC, the merchant confirms or cancels. What the system does
 * runs on the clock: payment starts START_SECONDS after creation, the next leg starts
 * HANDOFF_SECONDS after the first settled, USDC sends confirm and payouts succeed after a few
 * seconds (../../ledger.ts, ../../mobile-money.ts), a failed attempt is retried after
 * RETRY_DELAY_SECONDS, the rate lock ends at `expires_at`.
 * Money the user paid is never kept: it ends delivered, or refunded in full (./refunds.ts).
 */
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { HttpError } from '../../http/errors.js';
import { sendPayment, toStroops, type StellarPaymentRecord } from '../../ledger.js';
import {
  canMoveRampOrder,
  moveRampOrder,
  TERMINAL_RAMP_STATUSES,
  type RampOrderEvent,
  type RampOrderStatus,
} from '../../machines/ramp-order.js';
import { failPayout, PROMPT_TIMEOUT_SECONDS, startCollection, type CollectionRecord, type PayoutRecord } from '../../mobile-money.js';
import type { RampOrderRecord } from '../../state/ramp.js';
import { MAX_ATTEMPTS, RETRY_DELAY_SECONDS } from '../../retries.js';
import { addVolume } from '../../volume.js';
import { sendPaymentWebhook } from './payment-webhooks.js';
import { owner, payoutToUser, refundCrypto, refundFiat, refundPayment } from './refunds.js';

/** Time an order stays `quote_locked` before the service starts payment, seconds. */
export const START_SECONDS = 2;
/** Time between one leg settling and the next starting (fiat_confirmed, crypto_confirmed), seconds. */
export const HANDOFF_SECONDS = 2;

function move(ctx: MockContext, order: RampOrderRecord, event: RampOrderEvent): void {
  moveRampOrder(order, event, ctx.clock.now());
  order.updated_at = iso(ctx.clock.now());
}

const can = (order: RampOrderRecord, event: RampOrderEvent) => canMoveRampOrder(order.type, order.status, event);

/** Runs `step` after `seconds` if the order is then still in `expected` (a reset or a control call may have moved it). */
function later(ctx: MockContext, order: RampOrderRecord, seconds: number, expected: RampOrderStatus, step: (o: RampOrderRecord) => void) {
  const id = order.id;
  ctx.clock.schedule(ctx.clock.now() + seconds * 1000, () => {
    const current = ctx.store.ramp.orders.get(id);
    if (current?.status === expected) step(current);
  });
}

const merchantOf = (ctx: MockContext, order: RampOrderRecord) => {
  const merchant = ctx.store.merchants.get(order.merchant_id);
  if (!merchant) throw new Error(`ramp order ${order.id} has no merchant`);
  return merchant;
};

/**
 * Starts a new order's clock: the rate lock ends at `expires_at` (an unpaid order expires,
 * from `quote_locked` too), and START_SECONDS after creation the service starts payment
 * (see beginPayment) unless the order has moved on.
 */
export function startOrder(ctx: MockContext, order: RampOrderRecord): void {
  later(ctx, order, START_SECONDS, 'quote_locked', (o) => beginPayment(ctx, o));
  const id = order.id;
  ctx.clock.schedule(order.expires_at, () => {
    const current = ctx.store.ramp.orders.get(id);
    // USDC that arrived in time is a payment made before expiry: the order waits for its confirm call.
    if (current && can(current, 'expire') && !current.received) move(ctx, current, 'expire');
  });
}

/**
 * The service initiates payment on a `quote_locked` order. On-ramp: the Mobile Money prompt
 * goes to the user's phone (`fiat_pending`); it stays open until PROMPT_TIMEOUT_SECONDS after
 * the rate lock ends, so an unanswered prompt leaves the order to expire, and an approval
 * after that is a late payment (refunded, `fiat_refunded`). Off-ramp: the order waits for
 * the USDC with its memo (`crypto_pending`).
 */
function beginPayment(ctx: MockContext, order: RampOrderRecord): void {
  if (order.type === 'offramp') {
    move(ctx, order, 'await_crypto');
    return;
  }
  move(ctx, order, 'collect');
  const prompt = startCollection(
    ctx,
    { merchant_id: order.merchant_id, owner: owner(order), provider: order.user.network, phone: order.user.phone, amount: order.fiat_amount },
    order.expires_at + PROMPT_TIMEOUT_SECONDS * 1000,
  );
  order.collection_id = prompt.id;
}

/**
 * Starts payment now when the service has not yet: a test answering the prompt right after
 * creating the order, or an off-ramp order whose deposit address (known from creation) is
 * confirmed or paid before the service starts waiting.
 */
function beginPaymentEarly(ctx: MockContext, order: RampOrderRecord): void {
  if (order.status === 'quote_locked') beginPayment(ctx, order);
}

/** The ramp order with this id or reference (`RMP-…`), as control calls name it. */
export function findRampOrder(ctx: MockContext, idOrReference: string): RampOrderRecord | undefined {
  return ctx.store.ramp.orders.get(idOrReference) ?? [...ctx.store.ramp.orders.values()].find((o) => o.reference === idOrReference);
}

/** For the control calls that answer a prompt: the on-ramp order with this id or reference sends its prompt now if it has not. */
export function sendPromptNow(ctx: MockContext, idOrReference: string): void {
  const order = findRampOrder(ctx, idOrReference);
  if (order?.type === 'onramp') beginPaymentEarly(ctx, order);
}

/** Cancels an order that has no payment yet; anything later is refused with 409 INVALID_STATE saying why. */
export function cancelOrder(ctx: MockContext, order: RampOrderRecord): void {
  if (order.received) {
    throw new HttpError(409, 'INVALID_STATE', "cannot cancel: the user's USDC has arrived; confirm the order to be paid out");
  }
  if (!can(order, 'cancel')) {
    throw new HttpError(
      409,
      'INVALID_STATE',
      TERMINAL_RAMP_STATUSES.includes(order.status)
        ? `cannot cancel: the order has already ended (status is ${order.status})`
        : `cannot cancel: payment has started (status is ${order.status}); only quote_locked, fiat_pending and crypto_pending orders can be cancelled`,
    );
  }
  move(ctx, order, 'cancel');
}

/**
 * The merchant's confirm call on an off-ramp order: names the wallet the user pays from.
 * With that wallet's USDC already in (with the memo, or without it: found now), the order
 * moves to `crypto_confirmed`; otherwise it stays `crypto_pending` and moves as soon as the
 * payment arrives.
 */
export function confirmOrder(ctx: MockContext, order: RampOrderRecord, sourceWallet: string): void {
  if (order.type !== 'offramp') throw new HttpError(409, 'INVALID_STATE', 'only off-ramp orders are confirmed');
  beginPaymentEarly(ctx, order);
  if (!can(order, 'crypto_received')) throw new HttpError(409, 'INVALID_STATE', `cannot confirm when status is ${order.status}`);
  if (order.received && order.received.from !== sourceWallet) {
    throw new HttpError(422, 'SOURCE_WALLET_MISMATCH', "source_wallet is not the wallet that sent this order's USDC");
  }
  order.source_wallet = sourceWallet;
  order.updated_at = iso(ctx.clock.now());
  if (order.received) {
    acceptCrypto(ctx, order);
    return;
  }
  // USDC this wallet sent to the deposit address without the memo before the call: detected now (see orderBySourceWallet).
  const sent = [...ctx.store.stellar.payments.values()].find(
    (p) =>
      p.direction === 'inbound' &&
      !p.matched &&
      p.asset_code === 'USDC' &&
      p.from === sourceWallet &&
      p.to === order.deposit?.stellar_address &&
      p.created_at >= order.created_at,
  );
  if (sent) {
    sent.matched = { kind: 'ramp_order', id: order.id };
    takePayment(ctx, order, sent);
  }
}

function acceptCrypto(ctx: MockContext, order: RampOrderRecord) {
  move(ctx, order, 'crypto_received');
  later(ctx, order, HANDOFF_SECONDS, 'crypto_confirmed', (o) => beginPayout(ctx, o));
}

function beginPayout(ctx: MockContext, order: RampOrderRecord) {
  move(ctx, order, 'payout');
  order.attempts++;
  order.payout_id = payoutToUser(ctx, order, order.fiat_amount).id;
}

function beginSend(ctx: MockContext, order: RampOrderRecord) {
  move(ctx, order, order.status === 'fiat_confirmed' ? 'send' : 'resend');
  order.attempts++;
  const payment = sendPayment(ctx, owner(order), {
    from: merchantOf(ctx, order).stellar_public_key,
    to: order.destination_wallet ?? '',
    amount: String(order.crypto_amount),
    memo: null,
  });
  order.send_tx_hash = payment.hash;
}

function complete(ctx: MockContext, order: RampOrderRecord, event: 'send_confirmed' | 'paid_out') {
  move(ctx, order, event);
  order.completed_at = order.updated_at;
  // The table allows one completion per order, so the volume is counted exactly once.
  addVolume(ctx, merchantOf(ctx, order), order.fiat_amount);
}

/**
 * The order fails for good with `reason`. The table allows `give_up` only once the user's
 * money is in, and only once per order: it goes back in full, exactly once (see refundPayment).
 */
function giveUp(ctx: MockContext, order: RampOrderRecord, reason: string) {
  move(ctx, order, 'give_up');
  order.failure_reason = reason;
  refundPayment(ctx, order, `the order failed: ${reason}`);
}

/**
 * An unrecoverable error (control call) while sending: the attempt under way fails, the
 * order moves to `failed` with `reason` and the user's payment is refunded. Only
 * `crypto_sending`, `fiat_sending` and `fiat_retry`.
 */
export async function failOrder(ctx: MockContext, order: RampOrderRecord, reason: string): Promise<void> {
  if (!can(order, 'give_up')) {
    throw new HttpError(409, 'INVALID_STATE', `an unrecoverable error applies only while sending (status is ${order.status})`);
  }
  const attempt = order.status;
  giveUp(ctx, order, reason);
  if (attempt === 'fiat_sending' && order.payout_id) await failPayout(ctx, order.payout_id, reason);
  if (attempt === 'crypto_sending') {
    const send = order.send_tx_hash ? ctx.store.stellar.payments.get(order.send_tx_hash) : undefined;
    if (send?.status === 'pending') send.status = 'failed';
  }
}

/**
 * The on-ramp USDC send under way fails (control call). It is sent again after
 * RETRY_DELAY_SECONDS; after MAX_ATTEMPTS the order fails and the cedis are refunded.
 */
export function failSend(ctx: MockContext, order: RampOrderRecord, reason: string): void {
  const send = order.send_tx_hash ? ctx.store.stellar.payments.get(order.send_tx_hash) : undefined;
  if (order.status !== 'crypto_sending' || send?.status !== 'pending') {
    throw new HttpError(409, 'INVALID_STATE', `no USDC send is under way (status is ${order.status})`);
  }
  send.status = 'failed';
  if (order.attempts >= MAX_ATTEMPTS) giveUp(ctx, order, `USDC send failed after ${MAX_ATTEMPTS} attempts: ${reason}`);
  else later(ctx, order, RETRY_DELAY_SECONDS, 'crypto_sending', (o) => beginSend(ctx, o));
}

/** The user's Mobile Money prompt was answered or timed out. */
function onCollection(ctx: MockContext, record: CollectionRecord) {
  const order = ctx.store.ramp.orders.get(record.owner.id);
  if (!order) return;
  if (record.status === 'approved') {
    if (order.status === 'fiat_pending') {
      move(ctx, order, 'fiat_collected');
      sendPaymentWebhook(ctx, order, 'payment.completed', record);
      later(ctx, order, HANDOFF_SECONDS, 'fiat_confirmed', (o) => beginSend(ctx, o));
    } else {
      const was = order.status;
      move(ctx, order, 'late_fiat');
      // The cedis were collected, so the merchant hears of it like any collection (001 section 6), then reads the refund by polling.
      sendPaymentWebhook(ctx, order, 'payment.completed', record);
      refundFiat(ctx, order, record.amount, `Mobile Money payment confirmed after the order was ${was}`);
    }
    return;
  }
  // Declined or timed out, the collection failed and the merchant hears of it (001 section 6:
  // "fiat collection or payout failed"). A declined prompt fails an order still waiting for it;
  // one times out only after the rate lock ended (see beginPayment), when the order has
  // expired or was cancelled, and no money moved.
  if (record.status === 'declined' && order.status === 'fiat_pending') {
    move(ctx, order, 'collection_failed');
    order.failure_reason = 'the user declined the Mobile Money prompt';
  }
  sendPaymentWebhook(ctx, order, 'payment.failed', record);
}

/** A payout attempt (or a refund payout) finished. */
function onPayout(ctx: MockContext, record: PayoutRecord) {
  const order = ctx.store.ramp.orders.get(record.owner.id);
  if (!order) return;
  const refunding = order.refunds.find((r) => r.rail_id === record.id);
  if (refunding) {
    // A refund is owed in full: a failed refund payout is sent again.
    if (record.status === 'succeeded') refunding.status = 'completed';
    else refunding.rail_id = payoutToUser(ctx, order, refunding.amount).id;
    return;
  }
  if (order.status === 'failed') {
    // An unrecoverable error ended the order and this attempt with it (failOrder).
    sendPaymentWebhook(ctx, order, 'payment.failed', record);
    return;
  }
  if (record.status === 'succeeded') {
    complete(ctx, order, 'paid_out');
    sendPaymentWebhook(ctx, order, 'payment.completed', record);
    return;
  }
  move(ctx, order, 'payout_failed');
  sendPaymentWebhook(ctx, order, 'payment.failed', record);
  if (order.attempts >= MAX_ATTEMPTS) {
    giveUp(ctx, order, `Mobile Money payout failed after ${MAX_ATTEMPTS} attempts: ${record.failure_reason ?? 'unknown error'}`);
  } else {
    later(ctx, order, RETRY_DELAY_SECONDS, 'fiat_retry', (o) => beginPayout(ctx, o));
  }
}

/**
 * USDC reached a Stellar address. An off-ramp order claims it when it was sent to the order's
 * deposit address with the order's memo, or, without that memo, from the wallet a confirm
 * call named for the order (see orderBySourceWallet). Then takePayment decides what it is.
 */
function onInboundPayment(ctx: MockContext, payment: StellarPaymentRecord): string | undefined {
  if (payment.asset_code !== 'USDC') return undefined;
  const order = orderByMemo(ctx, payment) ?? orderBySourceWallet(ctx, payment);
  if (!order) return undefined;
  takePayment(ctx, order, payment);
  return order.id;
}

function orderByMemo(ctx: MockContext, payment: StellarPaymentRecord): RampOrderRecord | undefined {
  if (!payment.memo) return undefined;
  return [...ctx.store.ramp.orders.values()].find((o) => o.deposit?.memo === payment.memo && o.deposit.stellar_address === payment.to);
}

/**
 * 001 section 1 names no memo: the user sends USDC to the merchant's address and the confirm
 * call's source wallet lets the service detect it. So a payment without the order's memo
 * belongs to the order whose confirmed `source_wallet` sent it to its deposit address: the
 * one still waiting for its USDC, else the latest that expired or was cancelled (a late payment).
 */
function orderBySourceWallet(ctx: MockContext, payment: StellarPaymentRecord): RampOrderRecord | undefined {
  const sent = [...ctx.store.ramp.orders.values()].filter((o) => o.deposit?.stellar_address === payment.to && o.source_wallet === payment.from);
  return sent.find((o) => o.status === 'crypto_pending' && !o.received) ?? sent.findLast((o) => can(o, 'late_crypto'));
}

/**
 * The order's USDC payment, if the order is `crypto_pending`, it is USDC of exactly
 * `crypto_amount`, and it comes from the confirmed `source_wallet` if one was named; anything
 * else is refunded to the wallet that sent it (after expiry or cancellation, moving the order
 * to `crypto_refunded`).
 */
function takePayment(ctx: MockContext, order: RampOrderRecord, payment: StellarPaymentRecord): void {
  beginPaymentEarly(ctx, order);
  if (can(order, 'late_crypto')) {
    const was = order.status;
    move(ctx, order, 'late_crypto');
    refundCrypto(ctx, order, payment, `USDC arrived after the order was ${was}`);
    return;
  }
  const problem =
    order.status !== 'crypto_pending' || order.received
      ? 'the order already has its USDC payment'
      : toStroops(payment.amount) !== toStroops(order.crypto_amount)
        ? `expected exactly ${order.crypto_amount} USDC, received ${payment.amount}`
        : order.source_wallet && payment.from !== order.source_wallet
          ? 'sent from another wallet than the confirmed source_wallet'
          : undefined;
  if (problem) {
    refundCrypto(ctx, order, payment, problem);
    return;
  }
  order.received = { hash: payment.hash, from: payment.from };
  order.crypto_tx_hash = payment.hash;
  order.updated_at = iso(ctx.clock.now());
  if (order.source_wallet) acceptCrypto(ctx, order);
}

/** A USDC send (on-ramp delivery or a refund) confirmed on the ledger. */
function onSendConfirmed(ctx: MockContext, payment: StellarPaymentRecord) {
  const order = payment.matched ? ctx.store.ramp.orders.get(payment.matched.id) : undefined;
  if (!order) return;
  const refunding = order.refunds.find((r) => r.rail_id === payment.hash);
  if (refunding) {
    refunding.status = 'completed';
    return;
  }
  if (payment.hash !== order.send_tx_hash) return;
  complete(ctx, order, 'send_confirmed');
  order.crypto_tx_hash = payment.hash;
}

/** Subscribes ramp orders to the shared rails (see ../../context.ts `Hooks`). */
export function registerRampHooks(ctx: MockContext): void {
  ctx.hooks.collection.set('ramp_order', (record) => onCollection(ctx, record));
  ctx.hooks.payout.set('ramp_order', (record) => onPayout(ctx, record));
  ctx.hooks.stellarPayment.set('ramp_order', (payment) => onInboundPayment(ctx, payment));
  ctx.hooks.sendConfirmed.set('ramp_order', (payment) => onSendConfirmed(ctx, payment));
}

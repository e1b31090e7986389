/**
 * A sell whose money goes wrong: failed payouts are retried, the last failure sends the
 * customer's USDC back, and USDC the sell cannot take (another amount, after expiry) goes back
 * at once. "Failed payment: no crypto is sent and nothing is deducted" (000 section 1).
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { advance, completeForm, createShop, startWithdraw, viewTransaction, type Shop } from './helpers/interactive.js';

describe.each(MODES)('a sell whose money goes wrong, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Shop;
  const wallet = Keypair.random().publicKey();

  beforeAll(async () => {
    env = await start({ seed: 61 });
    shop = await createShop(env);
  });
  afterAll(() => env.close());

  /** The transaction as the anchor shows it (started through the widget backend, so read over the control API). */
  const lookUp = (id: string) => viewTransaction(env, id);
  const detail = async (id: string) => (await call(env, 'GET', `/_mock/transactions/${id}`)).body;
  const payUsdc = async (tx: { withdraw_anchor_account: string; withdraw_memo: string }, amount: string) => {
    const res = await call(env, 'POST', '/_mock/stellar/payments', {
      body: { from: wallet, to: tx.withdraw_anchor_account, amount, asset_code: 'USDC', memo: tx.withdraw_memo },
    });
    expect(res.status).toBe(201);
    return res.body as { hash: string; matched: { kind: string; id: string } | null };
  };
  const failPayout = (id: string) => call(env, 'POST', `/_mock/payouts/${id}/fail`, { body: { reason: 'wallet limit reached' } });
  const payoutsOf = (id: string) => [...env.backend.store.mobileMoney.payouts.values()].filter((p) => p.owner.id === id);
  const orderOf = (id: string) => [...env.backend.store.orders.values()].find((o) => o.transaction_id === id)!;
  /** A sell of `usdc` whose USDC has arrived and whose first payout attempt is under way. */
  const sellPayingOut = async (usdc: number) => {
    const { id } = await startWithdraw(env, shop, { onchain_amount: usdc });
    const form = await completeForm(env, id);
    const paid = await payUsdc(form, String(usdc));
    await advance(env, 2);
    expect((await lookUp(id)).status).toBe('pending_payout_confirmation');
    return { id, paid };
  };

  it('retries a failed payout 30 s later, staying pending_payout_confirmation, and completes when the retry succeeds', async () => {
    const { id } = await sellPayingOut(10);
    const first = (await detail(id)).payout_id;
    expect((await failPayout(id)).status).toBe(200);
    const waiting = await lookUp(id);
    expect(waiting).toMatchObject({ status: 'pending_payout_confirmation', refunded: false });
    expect(waiting).not.toHaveProperty('message');
    expect(orderOf(id).status).toBe('processing');
    // The failed attempt is over: failing it again is refused, and nothing new starts early.
    expect((await failPayout(id)).status).toBe(409);
    await advance(env, 29);
    expect(payoutsOf(id)).toHaveLength(1);

    await advance(env, 1);
    const retry = await detail(id);
    expect(retry).toMatchObject({ payout_attempts: 2, transaction: { status: 'pending_payout_confirmation' } });
    expect(retry.payout_id).not.toBe(first);
    expect(payoutsOf(id).map((p) => [p.status, p.amount])).toEqual([
      ['failed', 151.8],
      ['pending', 151.8],
    ]);

    await advance(env, 5);
    const done = await lookUp(id);
    expect(done).toMatchObject({ status: 'completed', refunded: false, amount_out: '151.80' });
    expect(done).not.toHaveProperty('refunds');
    expect(done.external_transaction_id).toBe(payoutsOf(id)[1]!.provider_ref);
    expect(orderOf(id).status).toBe('completed');
    // No USDC went back.
    expect([...env.backend.store.stellar.payments.values()].filter((p) => p.matched?.id === id && p.direction === 'outbound')).toEqual([]);
  });

  it('ends in error after the third failed attempt and sends the USDC back to its wallet, once', async () => {
    const before = env.backend.store.merchants.get(shop.merchant.id)!.current_month_volume;
    const { id, paid } = await sellPayingOut(2);
    await failPayout(id);
    await advance(env, 30);
    await failPayout(id);
    await advance(env, 30);
    expect(await detail(id)).toMatchObject({ payout_attempts: 3, transaction: { status: 'pending_payout_confirmation' } });
    await failPayout(id);

    const failed = await lookUp(id);
    expect(failed).toMatchObject({
      status: 'error',
      message: 'The Mobile Money payout failed after 3 attempts: wallet limit reached. The USDC was sent back.',
      stellar_transaction_id: paid.hash,
      from: wallet,
      // Sent, not yet confirmed on the ledger.
      refunded: false,
    });
    const back = [...env.backend.store.stellar.payments.values()].filter((p) => p.matched?.id === id && p.direction === 'outbound');
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({ from: failed.withdraw_anchor_account, to: wallet, amount: '2', asset_code: 'USDC', status: 'pending' });
    expect(failed.refunds).toEqual({
      amount_refunded: '2.00',
      amount_fee: '0.00',
      payments: [{ id: back[0]!.hash, id_type: 'stellar', amount: '2.00', fee: '0.00' }],
    });
    expect(orderOf(id).status).toBe('failed');

    await advance(env, 5);
    expect(await lookUp(id)).toMatchObject({ status: 'error', refunded: true, refunds: failed.refunds });
    expect(env.backend.store.stellar.payments.get(back[0]!.hash)!.status).toBe('confirmed');
    // Nothing more happens: three payouts, one refund, no volume counted.
    await advance(env, 24 * 3600);
    expect(payoutsOf(id).map((p) => p.status)).toEqual(['failed', 'failed', 'failed']);
    expect([...env.backend.store.stellar.payments.values()].filter((p) => p.matched?.id === id && p.direction === 'outbound')).toHaveLength(1);
    expect(env.backend.store.merchants.get(shop.merchant.id)!.current_month_volume).toBe(before);
  });

  it('sends back USDC of another amount at once, and keeps waiting for the right amount', async () => {
    const { id } = await startWithdraw(env, shop, { onchain_amount: 5 });
    const form = await completeForm(env, id);
    const wrong = await payUsdc(form, '4.995');
    expect(wrong.matched).toEqual({ kind: 'transaction', id });
    const waiting = await lookUp(id);
    expect(waiting).toMatchObject({ status: 'pending_user_transfer_start', refunded: false, from: null });
    const back = [...env.backend.store.stellar.payments.values()].find((p) => p.matched?.id === id && p.direction === 'outbound')!;
    expect(back).toMatchObject({ to: wallet, amount: '4.995' });
    expect(waiting.refunds).toEqual({
      amount_refunded: '4.995',
      amount_fee: '0.00',
      payments: [{ id: back.hash, id_type: 'stellar', amount: '4.995', fee: '0.00' }],
    });

    const right = await payUsdc(form, '5');
    expect(right.matched).toEqual({ kind: 'transaction', id });
    await advance(env, 7);
    const done = await lookUp(id);
    // Completed with the right transfer; the wrong one stays listed as a partial refund.
    expect(done).toMatchObject({ status: 'completed', stellar_transaction_id: right.hash, refunded: false, refunds: { amount_refunded: '4.995' } });
  });

  it('sends back USDC that arrives after the sell expired, which stays expired', async () => {
    const { id } = await startWithdraw(env, shop, { onchain_amount: 3 });
    const form = await completeForm(env, id);
    await advance(env, 30 * 60);
    expect((await lookUp(id)).status).toBe('expired');
    const late = await payUsdc(form, '3');
    expect(late.matched).toEqual({ kind: 'transaction', id });
    await advance(env, 5);
    const expired = await lookUp(id);
    const back = [...env.backend.store.stellar.payments.values()].find((p) => p.matched?.id === id && p.direction === 'outbound')!;
    expect(back).toMatchObject({ to: wallet, amount: '3', status: 'confirmed' });
    expect(expired).toMatchObject({
      status: 'expired',
      message: expect.stringMatching(/^No USDC with memo \d+ arrived within 30 minutes\.$/),
      refunded: true,
      refunds: { amount_refunded: '3.00', amount_fee: '0.00', payments: [{ id: back.hash, id_type: 'stellar', amount: '3.00', fee: '0.00' }] },
    });
    expect(orderOf(id).status).toBe('expired');
    expect(payoutsOf(id)).toEqual([]);
  });
});

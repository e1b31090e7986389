import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, startInProcess, type MockEnv } from './helpers/env.js';
import { advance, completeForm, createShop, PHONE, startDeposit, startWithdraw, viewTransaction, type Shop } from './helpers/interactive.js';

describe.each(MODES)('interactive transactions end to end, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Shop;
  const wallet = Keypair.random();
  beforeAll(async () => {
    env = await start({ seed: 11 });
    shop = await createShop(env);
  });
  afterAll(() => env.close());

  it('buys USDC: form, Mobile Money prompt approved, USDC sent, confirmed on chain', async () => {
    const started = await startDeposit(env, shop, { fiat_amount: 100, destination_address: wallet.publicKey() });
    expect(started.type).toBe('interactive_customer_info_needed');
    expect(started.url).toMatch(/\/interactive\?token=[0-9a-f]{48}$/);
    let tx = await viewTransaction(env, started.id);
    expect(tx).toMatchObject({ id: started.id, kind: 'deposit', status: 'incomplete', amount_in: null, to: wallet.publicKey() });

    tx = await completeForm(env, started.id);
    expect(tx).toMatchObject({
      status: 'pending_user_transfer_start',
      amount_in: '100.00',
      amount_in_asset: 'iso4217:GHS',
      amount_fee_asset: 'iso4217:GHS',
    });
    // 1 % platform fee (1.00) + network fee 0.01 USDC at 15.66 (0.16) = 1.16; (100 - 1.16) / 15.66 = 6.31.
    expect(tx.amount_fee).toBe('1.16');
    expect(tx.amount_out).toBe('6.31');
    expect(tx.amount_out_asset).toMatch(/^stellar:USDC:G[A-Z2-7]{55}$/);

    const prompts = await call(env, 'GET', '/_mock/mobile-money?status=pending');
    const prompt = prompts.body.data.find((p: { owner: { id: string } }) => p.owner.id === started.id);
    expect(prompt).toMatchObject({ provider: 'mtn', phone: PHONE, amount: 100, status: 'pending' });

    expect((await call(env, 'POST', `/_mock/mobile-money/${started.id}/approve`)).status).toBe(200);
    tx = await viewTransaction(env, started.id);
    expect(tx.status).toBe('pending_anchor');
    expect(tx.external_transaction_id).toBe(prompt.provider_ref);

    await advance(env, 2);
    tx = await viewTransaction(env, started.id);
    expect(tx.status).toBe('pending_stellar');
    expect(tx.stellar_transaction_id).toMatch(/^[0-9a-f]{64}$/);

    await advance(env, 5);
    tx = await viewTransaction(env, started.id);
    expect(tx.status).toBe('completed');
    expect(tx.completed_at).toBe(tx.updated_at);
    expect(env.backend.store.stellar.payments.get(tx.stellar_transaction_id)).toMatchObject({
      direction: 'outbound',
      to: wallet.publicKey(),
      amount: '6.31',
      status: 'confirmed',
    });
    const order = [...env.backend.store.orders.values()].find((o) => o.transaction_id === started.id);
    expect(order).toMatchObject({ status: 'completed', type: 'onramp', fiat_amount: 100, crypto_amount: 6.31 });
    expect(order!.id).toMatch(/^ord_[0-9a-f-]{36}$/);
    expect(env.backend.store.merchants.get(shop.merchant.id)!.current_month_volume).toBe(100);
  });

  it('sells USDC: form, USDC with the memo received, payout started and confirmed', async () => {
    const started = await startWithdraw(env, shop, { onchain_amount: 10 });
    let tx = await completeForm(env, started.id, { provider: 'Telecel Cash' });
    expect(tx).toMatchObject({ kind: 'withdrawal', status: 'pending_user_transfer_start', amount_in: '10.00', withdraw_memo_type: 'id' });
    expect(tx.withdraw_anchor_account).toMatch(/^G[A-Z2-7]{55}$/);
    expect(tx.withdraw_memo).toMatch(/^[1-9]\d{11}$/);
    // 10 USDC at 15.35 = 153.50; fees 1.54 + 0.16 = 1.70; payout 151.80.
    expect(tx.amount_out).toBe('151.80');
    expect(tx.amount_fee).toBe('1.70');

    const paid = await call(env, 'POST', '/_mock/stellar/payments', {
      body: { from: wallet.publicKey(), to: tx.withdraw_anchor_account, amount: '10', asset_code: 'USDC', memo: tx.withdraw_memo },
    });
    expect(paid.status).toBe(201);
    expect(paid.body.matched).toEqual({ kind: 'transaction', id: started.id });
    tx = await viewTransaction(env, started.id);
    expect(tx).toMatchObject({ status: 'pending_external', from: wallet.publicKey(), stellar_transaction_id: paid.body.hash });

    await advance(env, 2);
    expect((await viewTransaction(env, started.id)).status).toBe('pending_payout_confirmation');
    const payout = env.backend.store.mobileMoney.payouts.get(env.backend.control.anchor.transaction(started.id).payout_id!);
    expect(payout).toMatchObject({ provider: 'telecel', phone: PHONE, amount: 151.8, status: 'pending' });

    await advance(env, 5);
    tx = await viewTransaction(env, started.id);
    expect(tx.status).toBe('completed');
    expect(tx.external_transaction_id).toBe(payout!.provider_ref);
    const order = [...env.backend.store.orders.values()].find((o) => o.transaction_id === started.id);
    expect(order).toMatchObject({ status: 'completed', type: 'offramp', fiat_amount: 151.8, crypto_amount: 10, destination_address: tx.withdraw_anchor_account });
  });

  it('ends a declined prompt in error, and a prompt nobody answers within 120 s in expired, each with a message', async () => {
    const declined = await startDeposit(env, shop, { fiat_amount: 50, destination_address: wallet.publicKey() });
    await completeForm(env, declined.id);
    await call(env, 'POST', `/_mock/mobile-money/${declined.id}/decline`);
    expect(await viewTransaction(env, declined.id)).toMatchObject({
      status: 'error',
      message: 'The customer declined the Mobile Money prompt.',
    });

    const ignored = await startDeposit(env, shop, { fiat_amount: 50, destination_address: wallet.publicKey() });
    await completeForm(env, ignored.id);
    await advance(env, 119);
    expect((await viewTransaction(env, ignored.id)).status).toBe('pending_user_transfer_start');
    await advance(env, 1);
    expect(await viewTransaction(env, ignored.id)).toMatchObject({
      status: 'expired',
      message: 'The Mobile Money prompt was not answered in time.',
    });
    const orders = [...env.backend.store.orders.values()].filter((o) => o.transaction_id === declined.id || o.transaction_id === ignored.id);
    expect(orders.map((o) => o.status)).toEqual(['failed', 'expired']);
  });

  it('expires an unfinished form after 30 minutes, and a withdrawal without USDC 30 minutes after the form', async () => {
    const form = await startDeposit(env, shop);
    const sell = await startWithdraw(env, shop, { onchain_amount: 3 });
    await advance(env, 10 * 60);
    await completeForm(env, sell.id);
    await advance(env, 20 * 60 - 1);
    expect((await viewTransaction(env, form.id)).status).toBe('incomplete');
    await advance(env, 1);
    expect(await viewTransaction(env, form.id)).toMatchObject({
      status: 'expired',
      message: 'The interactive form was not finished within 30 minutes.',
    });
    expect((await viewTransaction(env, sell.id)).status).toBe('pending_user_transfer_start');
    await advance(env, 10 * 60);
    const expired = await viewTransaction(env, sell.id);
    expect(expired.status).toBe('expired');
    expect(expired.message).toMatch(/^No USDC with memo \d+ arrived within 30 minutes\.$/);
    expect([...env.backend.store.orders.values()].find((o) => o.transaction_id === sell.id)?.status).toBe('expired');
    // Nothing was ordered on the unfinished form.
    expect([...env.backend.store.orders.values()].some((o) => o.transaction_id === form.id)).toBe(false);
  });

  it('shows transactions over /_mock/transactions with the ids of what they started', async () => {
    const started = await startDeposit(env, shop, { fiat_amount: 25, destination_address: wallet.publicKey() });
    await completeForm(env, started.id, { provider: 'airteltigo' });
    const one = await call(env, 'GET', `/_mock/transactions/${started.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      transaction: { id: started.id, status: 'pending_user_transfer_start' },
      merchant_id: shop.merchant.id,
      customer_id: shop.customer.id,
      order_id: expect.stringMatching(/^ord_/),
      collection_id: expect.stringMatching(/^mmc_/),
      payout_id: null,
      payout_attempts: 0,
    });
    const waiting = await call(env, 'GET', '/_mock/transactions?status=pending_user_transfer_start');
    expect(waiting.body.data[0].transaction.id).toBe(started.id);
    expect(waiting.body.data.every((d: { transaction: { status: string } }) => d.transaction.status === 'pending_user_transfer_start')).toBe(true);
    expect((await call(env, 'GET', '/_mock/transactions/nope')).status).toBe(404);
  });

  it('refuses a bad complete-interactive call with a typed error and changes nothing', async () => {
    const started = await startWithdraw(env, shop, { onchain_amount: 5 });
    const cases: [string, Record<string, unknown>, number, string][] = [
      [started.id, { phone: PHONE }, 400, 'VALIDATION_ERROR'],
      [started.id, { provider: 'mtn', phone: PHONE, amount: '5' }, 400, 'VALIDATION_ERROR'],
      [started.id, { provider: 'mpesa', phone: PHONE }, 400, 'VALIDATION_ERROR'],
      [started.id, { provider: 'mtn', phone: PHONE, amount: 0.5 }, 422, 'AMOUNT_OUT_OF_RANGE'],
      ['00000000-0000-4000-8000-000000000000', { provider: 'mtn', phone: PHONE }, 404, 'NOT_FOUND'],
    ];
    for (const [id, body, status, code] of cases) {
      const res = await call(env, 'POST', `/_mock/transactions/${id}/complete-interactive`, { body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.code).toBe(code);
    }
    expect(env.backend.control.anchor.transaction(started.id)).toMatchObject({ transaction: { status: 'incomplete' }, order_id: null });
  });

  it('refuses to complete a form twice with 409 INVALID_STATE', async () => {
    const started = await startDeposit(env, shop, { fiat_amount: 20, destination_address: wallet.publicKey() });
    await completeForm(env, started.id);
    const again = await call(env, 'POST', `/_mock/transactions/${started.id}/complete-interactive`, { body: { provider: 'mtn', phone: PHONE } });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: 'INVALID_STATE', message: 'cannot complete form when status is pending_user_transfer_start' });
  });
});

describe('auto-advance (the demo)', () => {
  it('runs a buy and a sell to completion on the clock alone', async () => {
    const env = await startInProcess({ seed: 12, autoAdvance: true });
    try {
      const shop = await createShop(env);
      const wallet = Keypair.random();
      const buy = await startDeposit(env, shop, { fiat_amount: 40, destination_address: wallet.publicKey() });
      const sell = await startWithdraw(env, shop, { onchain_amount: 4 });
      await completeForm(env, buy.id);
      await completeForm(env, sell.id);
      await advance(env, 30);
      expect(env.backend.control.anchor.transaction(buy.id).transaction.status).toBe('completed');
      expect(env.backend.control.anchor.transaction(sell.id).transaction.status).toBe('completed');
    } finally {
      await env.close();
    }
  });
});

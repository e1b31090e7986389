/**
 * Rules of SEP-12, SEP-24 and SEP-38 that a conformant wallet relies on, checked against the
 * standalone mock over real HTTP on 127.0.0.1 with SEP-10 sign-in by real Stellar keypairs:
 * each test names the SEP rule it holds the anchor to.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStandalone, type MockEnv } from './helpers/env.js';
import { advance, completeForm, expectSep24Transaction, signIn } from './helpers/interactive.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const GHS = 'iso4217:GHS';

describe('SEP conformance of the anchor (standalone, 127.0.0.1)', () => {
  let env: MockEnv;
  let wallet: Keypair;
  let token: string;
  let usdc: string;
  beforeAll(async () => {
    env = await startStandalone({ seed: 61 });
    wallet = Keypair.random();
    token = await signIn(env, wallet);
    usdc = (await call(env, 'GET', '/anchor/sep38/info')).body.assets[0].asset;
  });
  afterAll(() => env.close());

  const start = (kind: 'deposit' | 'withdraw', body: Record<string, unknown>, auth = token) =>
    call(env, 'POST', `/anchor/transactions/${kind}/interactive`, { headers: bearer(auth), body: { asset_code: 'USDC', ...body } });
  const transaction = (id: string) => transaction2(id, token);
  const transaction2 = async (id: string, auth: string) => {
    const res = await call(env, 'GET', `/anchor/transaction?id=${id}`, { headers: bearer(auth) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.transaction;
  };
  const payment = (hash: string) => [...env.backend.store.stellar.payments.values()].find((p) => p.hash === hash);

  it('SEP-24 fee_details: the parts of the fee are its `breakdown`, summing to `total`', async () => {
    const { body } = await start('deposit', { amount: '100' });
    await completeForm(env, body.id);
    const tx = await transaction(body.id);
    expectSep24Transaction(tx);
    expect(tx.fee_details).toEqual({
      total: '1.16',
      asset: GHS,
      breakdown: [
        { name: 'Platform fee', amount: '1.00', description: '1.00 % of the amount' },
        { name: 'Stellar network fee', amount: '0.16' },
      ],
    });
  });

  it('SEP-24 lang: any RFC 4646 tag is taken, an unsupported one falls back to en', async () => {
    for (const [lang, page] of [['es-419', 'en'], ['zh-Hant-TW', 'en'], ['FR-ca', 'fr'], ['fr_FR', 'fr']] as const) {
      const res = await start('deposit', { lang });
      expect(res.status, `${lang}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(env.backend.store.anchor.transactions.get(res.body.id)!.lang).toBe(page);
      const html = await (await fetch(res.body.url)).text();
      expect(html).toContain(`<html lang="${page}">`);
    }
  });

  it('SEP-24 asset_issuer, source_asset and destination_asset: another asset than the anchor offers is 400', async () => {
    const issuer = usdc.split(':')[2];
    const before = env.backend.store.anchor.transactions.size;
    for (const [kind, body, field] of [
      ['deposit', { asset_issuer: Keypair.random().publicKey() }, 'asset_issuer'],
      ['withdraw', { asset_issuer: Keypair.random().publicKey() }, 'asset_issuer'],
      ['deposit', { source_asset: 'iso4217:NGN' }, 'source_asset'],
      ['withdraw', { destination_asset: 'iso4217:USD' }, 'destination_asset'],
    ] as const) {
      const res = await start(kind, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toEqual({ error: expect.stringContaining(field) });
    }
    expect(env.backend.store.anchor.transactions.size).toBe(before);
    for (const [kind, body] of [
      ['deposit', { asset_issuer: issuer, source_asset: GHS }],
      ['withdraw', { asset_issuer: issuer, destination_asset: GHS }],
    ] as const) {
      expect((await start(kind, body)).status).toBe(200);
    }
  });

  it('SEP-24 deposit memo and memo_type: the USDC is sent with that memo, shown as deposit_memo', async () => {
    const { body } = await start('deposit', { amount: '100', memo_type: 'id', memo: '8675309' });
    let tx = await transaction(body.id);
    expect(tx).toMatchObject({ deposit_memo: '8675309', deposit_memo_type: 'id' });
    await completeForm(env, body.id);
    await env.backend.control.rails.approvePrompt(body.id);
    await advance(env, 7);
    tx = await transaction(body.id);
    expect(tx).toMatchObject({ status: 'completed', to: wallet.publicKey(), deposit_memo: '8675309', deposit_memo_type: 'id' });
    expect(payment(tx.stellar_transaction_id)).toMatchObject({ to: wallet.publicKey(), memo: '8675309' });

    const text = await start('deposit', { memo_type: 'text', memo: 'user 42' });
    expect(await transaction(text.body.id)).toMatchObject({ deposit_memo: 'user 42', deposit_memo_type: 'text' });
    const plain = await transaction((await start('deposit', {})).body.id);
    expect(plain).not.toHaveProperty('deposit_memo');

    // memo_type defaults to id.
    expect(await transaction((await start('deposit', { memo: '12' })).body.id)).toMatchObject({ deposit_memo: '12', deposit_memo_type: 'id' });
    // A shared account's user (a SEP-10 memo) gets its USDC with that memo, unless the request names another account.
    const shared = await signIn(env, wallet, '&memo=5150');
    expect(await transaction2((await start('deposit', {}, shared)).body.id, shared)).toMatchObject({ to: wallet.publicKey(), deposit_memo: '5150', deposit_memo_type: 'id' });
    const named = await start('deposit', { account: wallet.publicKey() }, shared);
    expect(await transaction2(named.body.id, shared)).toMatchObject({ deposit_memo: '5150', deposit_memo_type: 'id' });
    const elsewhere = await start('deposit', { account: Keypair.random().publicKey() }, shared);
    expect(await transaction2(elsewhere.body.id, shared)).not.toHaveProperty('deposit_memo');

    for (const bad of [{ memo: 'abc' }, { memo_type: 'id' }, { memo_type: 'id', memo: '18446744073709551616' }, { memo_type: 'text', memo: 'x'.repeat(29) }, { memo_type: 'hash', memo: 'AAAA' }, { memo_type: 'return', memo: '1' }]) {
      const res = await start('deposit', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error).toMatch(/memo/);
    }
  });

  it('SEP-24 refund_memo: refunds carry it, or else the memo the payment came with', async () => {
    const sender = Keypair.random().publicKey();
    const refundOf = async (body: Record<string, unknown>) => {
      const { body: started } = await start('withdraw', { amount: '10', ...body });
      await completeForm(env, started.id);
      const memo = (await transaction(started.id)).withdraw_memo;
      // Another amount than the transaction's: the anchor sends it back at once.
      await env.backend.control.rails.sendStellarPayment({ from: sender, to: (await transaction(started.id)).withdraw_anchor_account, amount: '3', asset_code: 'USDC', memo });
      const tx = await transaction(started.id);
      expect(tx.refunds.payments).toHaveLength(1);
      return { memo, refund: payment(tx.refunds.payments[0].id)! };
    };
    const named = await refundOf({ refund_memo: '4242', refund_memo_type: 'id' });
    expect(named.refund).toMatchObject({ to: sender, memo: '4242' });
    const same = await refundOf({});
    expect(same.refund).toMatchObject({ to: sender, memo: same.memo });

    for (const bad of [{ refund_memo: '1' }, { refund_memo_type: 'id' }, { refund_memo: 'x', refund_memo_type: 'id' }]) {
      const res = await start('withdraw', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error).toMatch(/refund_memo/);
    }
  });

  it('SEP-24 user_action_required_by: when an incomplete form or an awaited USDC transfer expires, and only then', async () => {
    const { body } = await start('withdraw', { amount: '10' });
    let tx = await transaction(body.id);
    expect(tx.user_action_required_by).toBe(new Date(Date.parse(tx.started_at) + 30 * 60_000).toISOString());
    await advance(env, 60);
    await completeForm(env, body.id);
    tx = await transaction(body.id);
    expect(tx.status).toBe('pending_user_transfer_start');
    expect(tx.user_action_required_by).toBe(new Date(env.backend.clock.now() + 30 * 60_000).toISOString());
    await advance(env, 30 * 60 + 1);
    // The SEP-10 token lives 15 minutes: sign in again.
    token = await signIn(env, wallet);
    tx = await transaction(body.id);
    expect(tx.status).toBe('expired');
    expect(tx).not.toHaveProperty('user_action_required_by');
  });

  it('SEP-24 customer_id: the SEP-12 id of a customer this account created names the customer, as user_id does', async () => {
    const put = await call(env, 'PUT', '/anchor/customer', { headers: bearer(token), body: { first_name: 'Kofi', last_name: 'Owusu', email_address: 'kofi.sep24@example.com' } });
    expect(put.status).toBe(202);
    const res = await start('deposit', { customer_id: put.body.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(env.backend.store.anchor.transactions.get(res.body.id)!.customer_id).toBe(put.body.id);
    const other = await signIn(env, Keypair.random());
    expect((await start('deposit', { customer_id: put.body.id }, other)).status).toBe(404);
    const clash = await start('deposit', { customer_id: put.body.id, user_id: 'another' });
    expect(clash.status).toBe(400);
    expect(clash.body.error).toMatch(/customer_id/);
  });

  it('SEP-12 REJECTED: the answer carries the `message` SEP-12 requires', async () => {
    const put = await call(env, 'PUT', '/anchor/customer', { headers: bearer(token), body: { first_name: 'Yaw', last_name: 'Rejected', email_address: 'yaw.sep12@example.com' } });
    const res = await call(env, 'GET', `/anchor/customer?id=${put.body.id}`, { headers: bearer(token) });
    expect(res.body).toMatchObject({ id: put.body.id, status: 'REJECTED', message: expect.any(String) });
    expect(res.body.message.length).toBeGreaterThan(0);
  });

  it('SEP-12 memo_type: ignored when the token carries the memo', async () => {
    const shared = await signIn(env, wallet, '&memo=77');
    const put = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(shared),
      body: { memo: '77', memo_type: 'text', first_name: 'Esi', last_name: 'Boateng', email_address: 'esi.sep12@example.com' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(202);
    const got = await call(env, 'GET', `/anchor/customer?id=${put.body.id}&memo=77&memo_type=text`, { headers: bearer(shared) });
    expect(got.status).toBe(200);
  });

  it('SEP-12 verification: a mobile_number is VERIFICATION_REQUIRED until PUT /customer sends mobile_number_verification with the code texted to it', async () => {
    const phone = '+233209990001';
    const put = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(token),
      body: { first_name: 'Abena', last_name: 'Asante', email_address: 'abena.sep12@example.com', mobile_number: phone },
    });
    expect(put.status).toBe(202);
    const get = () => call(env, 'GET', `/anchor/customer?id=${put.body.id}`, { headers: bearer(token) });
    expect((await get()).body.provided_fields.mobile_number.status).toBe('VERIFICATION_REQUIRED');
    // The anchor texted a code to the number (the mock's virtual phone).
    const sms = await env.backend.control.rails.otp(phone);
    expect(sms.code).toMatch(/^\d{6}$/);
    const wrong = String((Number(sms.code) + 1) % 1_000_000).padStart(6, '0');
    const refused = await call(env, 'PUT', '/anchor/customer', { headers: bearer(token), body: { id: put.body.id, mobile_number_verification: wrong } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: expect.stringMatching(/code/) });
    expect((await get()).body.provided_fields.mobile_number.status).toBe('VERIFICATION_REQUIRED');
    const other = await call(env, 'PUT', '/anchor/customer', { headers: bearer(token), body: { id: put.body.id, email_address_verification: '123456' } });
    expect(other.status).toBe(400);
    expect(other.body.error).toMatch(/email_address_verification/);

    const ok = await call(env, 'PUT', '/anchor/customer', { headers: bearer(token), body: { id: put.body.id, mobile_number_verification: sms.code } });
    expect(ok.status).toBe(202);
    expect((await get()).body.provided_fields.mobile_number.status).toBe('ACCEPTED');

    // The deprecated PUT /customer/verification does the same and answers the customer (200).
    const phone2 = '+233209990002';
    await call(env, 'PUT', '/anchor/customer', { headers: bearer(token), body: { id: put.body.id, mobile_number: phone2 } });
    expect((await get()).body.provided_fields.mobile_number.status).toBe('VERIFICATION_REQUIRED');
    const code2 = (await env.backend.control.rails.otp(phone2)).code;
    const verified = await call(env, 'PUT', '/anchor/customer/verification', { headers: bearer(token), body: { id: put.body.id, mobile_number_verification: code2 } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id: put.body.id, provided_fields: { mobile_number: { status: 'ACCEPTED' } } });
    const unknown = await call(env, 'PUT', '/anchor/customer/verification', { headers: bearer(token), body: { id: 'no-such-customer', mobile_number_verification: code2 } });
    expect(unknown.status).toBe(404);
    const anonymous = await call(env, 'PUT', '/anchor/customer/verification', { body: { id: put.body.id, mobile_number_verification: code2 } });
    expect(anonymous.status).toBe(403);
  });

  it('SEP-12 DELETE /customer/{account}: a client not authenticated properly gets 401, as SEP-12 lists it', async () => {
    for (const headers of [{}, bearer('not-a-token')]) {
      const res = await call(env, 'DELETE', `/anchor/customer/${wallet.publicKey()}`, { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ type: 'authentication_required', error: expect.stringContaining('SEP-10') });
    }
  });

  it('SEP-38 GET /prices with buy_asset (and buy_amount): answers sell_assets', async () => {
    const buy = await call(env, 'GET', `/anchor/sep38/prices?buy_asset=${encodeURIComponent(usdc)}&buy_amount=10`);
    expect(buy.status, JSON.stringify(buy.body)).toBe(200);
    const deposit = await call(env, 'GET', `/anchor/sep38/price?sell_asset=${GHS}&buy_asset=${encodeURIComponent(usdc)}&buy_amount=10&context=sep24`);
    expect(buy.body).toEqual({ sell_assets: [{ asset: GHS, price: deposit.body.price, decimals: 2 }] });
    const sell = await call(env, 'GET', `/anchor/sep38/prices?buy_asset=${GHS}`);
    const withdrawal = await call(env, 'GET', `/anchor/sep38/price?sell_asset=${encodeURIComponent(usdc)}&buy_asset=${GHS}&buy_amount=100&context=sep24`);
    expect(sell.body).toEqual({ sell_assets: [{ asset: usdc, price: withdrawal.body.price, decimals: 7 }] });
    for (const query of [`sell_asset=${GHS}&buy_asset=${GHS}`, '', `buy_asset=${GHS}&sell_amount=10`, `sell_asset=${GHS}&buy_amount=10`, 'buy_asset=iso4217:NGN']) {
      const res = await call(env, 'GET', `/anchor/sep38/prices?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });

  it('SEP-38 quote: names the delivery method it was asked with, at POST and GET', async () => {
    const created = await call(env, 'POST', '/anchor/sep38/quote', {
      headers: bearer(token),
      body: { context: 'sep24', sell_asset: GHS, buy_asset: usdc, sell_amount: '100', sell_delivery_method: 'mobile_money' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ sell_delivery_method: 'mobile_money' });
    expect(created.body).not.toHaveProperty('buy_delivery_method');
    const got = await call(env, 'GET', `/anchor/sep38/quote/${created.body.id}`, { headers: bearer(token) });
    expect(got.body).toEqual(created.body);
  });
});

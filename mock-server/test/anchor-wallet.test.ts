/**
 * SEP-12 and SEP-24 as a wallet built on Stellar's own wallet library meets them, against the
 * standalone mock on 127.0.0.1: @stellar/typescript-wallet-sdk uploads and reads a customer,
 * deletes its data with `DELETE /customer/{account}`, starts a deposit and a withdrawal with the
 * merchant fields as extra fields, and reads the transactions back in SEP-24's shapes.
 */
import { Memo } from '@stellar/stellar-sdk';
import { Keypair, SigningKeypair, Types, Wallet } from '@stellar/typescript-wallet-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandalone, type MockEnv } from './helpers/env.js';
import { advance, completeForm, createShop, expectSep24Transaction, merchantFields, PHONE, type Shop } from './helpers/interactive.js';

describe('@stellar/typescript-wallet-sdk against the anchor’s SEP-12 and SEP-24 (standalone, 127.0.0.1)', () => {
  let env: MockEnv;
  let shop: Shop;
  const account = SigningKeypair.fromSecret(Keypair.random().secret());
  const anchor = () => Wallet.TestNet().anchor({ homeDomain: new URL(env.origin).host, allowHttp: true });
  const signIn = async () => (await anchor().sep10()).authenticate({ accountKp: account });
  let token: Awaited<ReturnType<typeof signIn>>;

  beforeAll(async () => {
    // A manual clock that starts at the wall clock: the wallet checks its token against the latter.
    env = await startStandalone({ seed: 171 });
    shop = await createShop(env);
    token = await signIn();
  });
  afterAll(() => env.close());

  it('uploads, reads, updates and deletes its customer (SEP-12)', async () => {
    const sep12 = await anchor().sep12(token);
    const added = await sep12.add({ sep9Info: { first_name: 'Efua', last_name: 'NeedsInfo', email_address: 'efua.wallet@example.com' } });
    expect(added).toEqual({ id: expect.any(String) });
    const needs = await sep12.getCustomer({ id: added.id });
    expect(needs).toMatchObject({ id: added.id, status: 'NEEDS_INFO' });
    expect(Object.keys(needs.fields!)).toContain('mobile_number');
    await sep12.update({ id: added.id, sep9Info: { birth_date: '1991-02-03', address: '2 High St', city: 'Cape Coast', address_country_code: 'GHA', mobile_number: '+233201112233' } });
    expect(await sep12.getCustomer({ id: added.id })).toMatchObject({ id: added.id, status: 'ACCEPTED' });
    // The library's delete: DELETE /customer/{its account}.
    await sep12.delete();
    await expect(sep12.getCustomer({ id: added.id })).rejects.toThrow();
    expect(env.backend.store.customers.has(added.id)).toBe(false);
  });

  it("verifies the customer's mobile number with the code texted to it (SEP-12 mobile_number_verification)", async () => {
    const sep12 = await anchor().sep12(token);
    const phone = '+233201119988';
    const { id } = await sep12.add({ sep9Info: { first_name: 'Kwame', last_name: 'Nkansah', email_address: 'kwame.wallet@example.com', mobile_number: phone } });
    expect((await sep12.getCustomer({ id })).provided_fields?.mobile_number).toMatchObject({ status: 'VERIFICATION_REQUIRED' });
    const { code } = await env.backend.control.rails.otp(phone);
    await sep12.update({ id, sep9Info: { mobile_number_verification: code } });
    expect((await sep12.getCustomer({ id })).provided_fields?.mobile_number).toMatchObject({ status: 'ACCEPTED' });
  });

  it('starts a withdrawal and a deposit with the merchant fields and reads them as SEP-24 transactions', async () => {
    const sep24 = anchor().sep24();
    const { id: sellId } = await sep24.withdraw({ assetCode: 'USDC', authToken: token, extraFields: { amount: '10', ...(await merchantFields(env, shop)) } });
    const sell = { id: sellId! };
    expect(env.backend.control.anchor.transaction(sell.id)).toMatchObject({ merchant_id: shop.merchant.id, account: account.publicKey });
    let tx: any = await sep24.getTransactionBy({ authToken: token, id: sell.id });
    expectSep24Transaction(tx);
    // SEP-24 (and the library's WithdrawTransaction) have a withdrawal's `from` from the start.
    expect(tx).toMatchObject({ kind: 'withdrawal', status: 'incomplete', from: account.publicKey });

    const started = await sep24.deposit({ assetCode: 'USDC', authToken: token, extraFields: { amount: '100', ...(await merchantFields(env, shop)) } });
    expect(started).toEqual({ type: 'interactive_customer_info_needed', url: expect.stringContaining('/interactive?token='), id: expect.any(String) });
    const buy = { id: started.id! };
    await completeForm(env, buy.id);
    await env.backend.control.rails.approvePrompt(buy.id);
    await advance(env, 7);
    tx = await sep24.getTransactionBy({ authToken: token, id: buy.id });
    expectSep24Transaction(tx);
    expect(tx).toMatchObject({ kind: 'deposit', status: 'completed', from: PHONE, to: account.publicKey, fee_details: { total: tx.amount_fee, asset: 'iso4217:GHS' } });

    const list = await sep24.getTransactionsForAsset({ authToken: token, assetCode: 'USDC' });
    expect(list.map((t) => t.id)).toEqual([buy.id, sell.id]);
    list.forEach(expectSep24Transaction);
  });

  it("delivers a deposit with the wallet's destinationMemo, and shows it as SEP-24's deposit_memo", async () => {
    const sep24 = anchor().sep24();
    // A custodial wallet's user: the USDC goes to the wallet's account with the user's id memo.
    const destinationMemo = Memo.id('8675309') as unknown as NonNullable<Types.Sep24PostParams['destinationMemo']>;
    const started = await sep24.deposit({ assetCode: 'USDC', authToken: token, destinationMemo, extraFields: { amount: '100' } });
    await completeForm(env, started.id!);
    await env.backend.control.rails.approvePrompt(started.id!);
    await advance(env, 7);
    const tx: any = await sep24.getTransactionBy({ authToken: token, id: started.id! });
    expectSep24Transaction(tx);
    expect(tx).toMatchObject({ status: 'completed', to: account.publicKey, deposit_memo: '8675309', deposit_memo_type: 'id' });
    const sent = [...env.backend.store.stellar.payments.values()].find((p) => p.hash === tx.stellar_transaction_id);
    expect(sent).toMatchObject({ to: account.publicKey, memo: '8675309' });
  });

  it('gets 404 for a transaction another account started', async () => {
    const other = SigningKeypair.fromSecret(Keypair.random().secret());
    const otherToken = await (await anchor().sep10()).authenticate({ accountKp: other });
    const sep24 = anchor().sep24();
    const mine = await sep24.deposit({ assetCode: 'USDC', authToken: token });
    await expect(sep24.getTransactionBy({ authToken: otherToken, id: mine.id! })).rejects.toThrow(/404/);
    expect(await sep24.getTransactionsForAsset({ authToken: otherToken, assetCode: 'USDC' })).toEqual([]);
  });
});

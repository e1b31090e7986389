import { Keypair } from '@stellar/stellar-sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMockBackend, type MockBackend } from '../src/backend.js';
import type { MockContext } from '../src/context.js';
import { setCustomerStatus, upsertCustomer } from '../src/customers.js';
import { HttpError } from '../src/http/errors.js';
import { createMerchant } from '../src/merchants.js';
import { lastOtp } from '../src/otp.js';
import type { CustomerRecord, MerchantRecord } from '../src/store.js';
import {
  completeInteractive,
  createTransaction,
  findTransactionByToken,
  quoteForTransaction,
  sendInteractiveOtp,
  transactionView,
  verifyInteractivePhone,
  type TransactionKind,
} from '../src/transactions.js';

const PHONE = '+233241234567';

/** Runs `fn` and returns the HttpError it throws (failing the test if it throws none). */
async function refusal(fn: () => unknown): Promise<HttpError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('interactive transactions, the domain module', () => {
  let backend: MockBackend;
  let ctx: MockContext;
  let merchant: MerchantRecord;
  let customer: CustomerRecord;
  const wallet = Keypair.random().publicKey();

  beforeEach(async () => {
    backend = createMockBackend({ clock: 'manual', seed: 41 });
    ctx = backend.context;
    merchant = await createMerchant(ctx, { name: 'Shop', legal_name: 'Shop Ltd', email: 'o@shop.example', password: 'pw-123456789' });
    customer = upsertCustomer(ctx, merchant.id, { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' }).customer;
  });

  const start = (kind: TransactionKind, extra: { amount?: number; destination_address?: string } = {}) =>
    createTransaction(ctx, { kind, merchant, customer, account: merchant.stellar_public_key, ...extra });
  const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
  const codeFor = (phone: string) => lastOtp(ctx, phone)!.code;
  /** What a refused call must leave untouched. */
  const snapshot = (id: string) =>
    JSON.stringify({
      tx: backend.store.anchor.transactions.get(id),
      orders: [...backend.store.orders.values()],
      prompts: [...backend.store.mobileMoney.collections.values()],
    });

  describe('findTransactionByToken', () => {
    it('opens the transaction of a fresh token, and nothing for an unknown one', async () => {
      const { transaction, url } = await start('deposit');
      expect(await findTransactionByToken(ctx, tokenOf(url))).toBe(transaction);
      expect(await findTransactionByToken(ctx, 'f'.repeat(48))).toBeUndefined();
      expect(await findTransactionByToken(ctx, '')).toBeUndefined();
    });

    it('stores only a hash of the token', async () => {
      const { transaction, url } = await start('deposit');
      expect(JSON.stringify(transaction)).not.toContain(tokenOf(url));
      expect([...backend.store.anchor.tokens.keys()]).not.toContain(tokenOf(url));
    });

    it('gives nothing for a used token (form finished) or an expired transaction', async () => {
      const used = await start('deposit', { amount: 50, destination_address: wallet });
      sendInteractiveOtp(ctx, used.transaction, PHONE);
      await completeInteractive(ctx, used.transaction, { provider: 'mtn', phone: PHONE, otp_code: codeFor(PHONE) });
      expect(await findTransactionByToken(ctx, tokenOf(used.url))).toBeUndefined();

      const late = await start('withdrawal');
      await backend.clock.advance(30 * 60);
      expect(late.transaction.status).toBe('expired');
      expect(await findTransactionByToken(ctx, tokenOf(late.url))).toBeUndefined();
    });
  });

  describe('quoteForTransaction', () => {
    it("breaks down a buy with the merchant's base and markup fees", async () => {
      merchant.fee_markup_bps = 50;
      const { transaction } = await start('deposit');
      expect(quoteForTransaction(ctx, transaction, 200)).toEqual({
        kind: 'deposit',
        amount_in: 200,
        amount_in_currency: 'GHS',
        // (200 - 3.00 - 0.16) / 15.66
        amount_out: 12.56,
        amount_out_currency: 'USDC',
        rate: 15.66,
        fees: { fee_base_bps: 100, fee_markup_bps: 50, fee_bps: 150, platform_fee: 3, network_fee: 0.16, total: 3.16 },
        limits: { min_fiat: 10, min_crypto: 1, max_fiat: 5000 },
        out_of_range: null,
      });
    });

    it('breaks down a sell, and names a limit the amount misses without throwing', async () => {
      const { transaction } = await start('withdrawal');
      const q = quoteForTransaction(ctx, transaction, 10);
      expect(q).toMatchObject({ amount_in: 10, amount_in_currency: 'USDC', amount_out: 151.8, amount_out_currency: 'GHS', rate: 15.35 });
      expect(quoteForTransaction(ctx, transaction, 0.5).out_of_range).toBe('fiat amount is below the minimum of 10 GHS');
      expect(quoteForTransaction(ctx, transaction, 400).out_of_range).toBe('fiat amount is above the maximum of 5000 GHS per transaction');
      expect((await refusal(() => quoteForTransaction(ctx, transaction, 0))).message).toBe('amount: must be a positive number');
    });
  });

  describe('phone verification', () => {
    it('sends a code without revealing it, and checks it: wrong 422, another number 422 PHONE_NOT_VERIFIED', async () => {
      const { transaction } = await start('deposit');
      const sent = sendInteractiveOtp(ctx, transaction, '+233 24 123 4567');
      expect(sent).toEqual({ phone: PHONE, expires_at: new Date(ctx.clock.now() + 600_000).toISOString() });
      const code = codeFor(PHONE);
      const wrong = await refusal(() => verifyInteractivePhone(ctx, transaction, PHONE, code === '000000' ? '111111' : '000000'));
      expect(wrong).toMatchObject({ status: 422, code: 'INVALID_OTP', message: 'wrong code; 4 tries left' });
      const elsewhere = await refusal(() => verifyInteractivePhone(ctx, transaction, '+233209999999', code));
      expect(elsewhere).toMatchObject({ status: 422, code: 'PHONE_NOT_VERIFIED' });
      expect(transaction.verified_phone).toBeNull();

      sendInteractiveOtp(ctx, transaction, PHONE);
      verifyInteractivePhone(ctx, transaction, PHONE, codeFor(PHONE));
      expect(transaction.verified_phone).toBe(PHONE);
      expect(customer.verified_phones).toEqual([PHONE]);
    });

    it('refuses a malformed phone with 400', async () => {
      const { transaction } = await start('deposit');
      const bad = await refusal(() => sendInteractiveOtp(ctx, transaction, '0241234567'));
      expect(bad).toMatchObject({ status: 400, message: 'phone: must be a number with country code, e.g. +233201234567' });
    });
  });

  describe('completeInteractive', () => {
    it('needs the phone verified: by the code given, or before (on this transaction or the customer)', async () => {
      const first = await start('deposit', { amount: 50, destination_address: wallet });
      const before = snapshot(first.transaction.id);
      const unverified = await refusal(() => completeInteractive(ctx, first.transaction, { provider: 'mtn', phone: PHONE }));
      expect(unverified).toMatchObject({ status: 422, code: 'PHONE_NOT_VERIFIED' });
      expect(snapshot(first.transaction.id)).toBe(before);

      sendInteractiveOtp(ctx, first.transaction, PHONE);
      verifyInteractivePhone(ctx, first.transaction, PHONE, codeFor(PHONE));
      await completeInteractive(ctx, first.transaction, { provider: 'mtn', phone: PHONE });
      expect(first.transaction.status).toBe('pending_user_transfer_start');

      // The customer's number is verified now: the next form needs no code.
      const second = await start('withdrawal', { amount: 5 });
      await completeInteractive(ctx, second.transaction, { provider: 'airteltigo', phone: PHONE });
      expect(second.transaction).toMatchObject({ status: 'pending_user_transfer_start', provider: 'airteltigo', phone: PHONE });
    });

    it('refuses bad input with a clear error and changes nothing', async () => {
      const { transaction } = await start('deposit');
      sendInteractiveOtp(ctx, transaction, PHONE);
      verifyInteractivePhone(ctx, transaction, PHONE, codeFor(PHONE));
      const before = snapshot(transaction.id);
      const cases: [Parameters<typeof completeInteractive>[2], number, string, string][] = [
        [{ provider: 'vodafone', phone: PHONE, amount: 50, destination_address: wallet }, 400, 'VALIDATION_ERROR', 'provider: must be one of mtn, telecel, airteltigo'],
        [{ provider: 'mtn', phone: 'call me', amount: 50, destination_address: wallet }, 400, 'VALIDATION_ERROR', 'phone: must be a number with country code, e.g. +233201234567'],
        [{ provider: 'mtn', phone: PHONE, destination_address: wallet }, 400, 'VALIDATION_ERROR', 'amount: is required'],
        [{ provider: 'mtn', phone: PHONE, amount: -3, destination_address: wallet }, 400, 'VALIDATION_ERROR', 'amount: must be a positive number'],
        [{ provider: 'mtn', phone: PHONE, amount: 50 }, 400, 'VALIDATION_ERROR', 'destination_address: is required'],
        [{ provider: 'mtn', phone: PHONE, amount: 50, destination_address: 'GABC' }, 400, 'VALIDATION_ERROR', 'destination_address: must be a Stellar account (G… or M…)'],
        [{ provider: 'mtn', phone: PHONE, amount: 9.99, destination_address: wallet }, 422, 'AMOUNT_OUT_OF_RANGE', 'fiat amount is below the minimum of 10 GHS'],
        [{ provider: 'mtn', phone: PHONE, amount: 5000.01, destination_address: wallet }, 422, 'AMOUNT_OUT_OF_RANGE', 'fiat amount is above the maximum of 5000 GHS per transaction'],
      ];
      for (const [input, status, code, message] of cases) {
        expect(await refusal(() => completeInteractive(ctx, transaction, input))).toMatchObject({ status, code, message });
        expect(snapshot(transaction.id)).toBe(before);
      }
      setCustomerStatus(ctx, customer, 'REJECTED');
      const kyc = await refusal(() => completeInteractive(ctx, transaction, { provider: 'mtn', phone: PHONE, amount: 50, destination_address: wallet }));
      expect(kyc).toMatchObject({ status: 403, code: 'KYC_NOT_APPROVED', message: 'customer KYC status is REJECTED, not ACCEPTED' });
      expect(snapshot(transaction.id)).toBe(before);
    });

    it("counts the day's volume against the merchant's daily limit", async () => {
      merchant.limits.daily = 120;
      merchant.daily_volume[new Date(ctx.clock.now()).toISOString().slice(0, 10)] = 100;
      const { transaction } = await start('deposit', { destination_address: wallet });
      const refused = await refusal(() => completeInteractive(ctx, transaction, { provider: 'mtn', phone: PHONE, amount: 30 }));
      expect(refused).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', message: 'the daily volume limit of 120 GHS would be exceeded' });
    });

    it('lets the customer change the amount and destination of the request', async () => {
      const other = Keypair.random().publicKey();
      const { transaction } = await start('deposit', { amount: 50, destination_address: wallet });
      sendInteractiveOtp(ctx, transaction, PHONE);
      await completeInteractive(ctx, transaction, { provider: 'MTN MoMo', phone: PHONE, otp_code: codeFor(PHONE), amount: 80, destination_address: other });
      expect(transactionView(ctx, transaction)).toMatchObject({ amount_in: '80.00', to: other });
      expect(backend.store.mobileMoney.collections.get(transaction.collection_id!)).toMatchObject({ amount: 80, provider: 'mtn' });
    });
  });

  describe('refused moves are never applied', () => {
    const completedForm = async (kind: TransactionKind, amount: number) => {
      const { transaction } = await start(kind, { amount, destination_address: wallet });
      sendInteractiveOtp(ctx, transaction, PHONE);
      await completeInteractive(ctx, transaction, { provider: 'mtn', phone: PHONE, otp_code: codeFor(PHONE) });
      return transaction;
    };

    it('a prompt answered twice, or declined after approval, changes nothing', async () => {
      const tx = await completedForm('deposit', 40);
      await backend.control.rails.approvePrompt(tx.id);
      expect(tx.status).toBe('pending_anchor');
      expect(await refusal(() => backend.control.rails.approvePrompt(tx.id))).toMatchObject({ status: 409 });
      expect(await refusal(() => backend.control.rails.declinePrompt(tx.id))).toMatchObject({ status: 409 });
      expect(tx.status).toBe('pending_anchor');
      // The prompt's own timeout, later, changes nothing either.
      await backend.clock.advance(200);
      expect(tx.status).toBe('completed');
      expect(tx.message).toBeNull();
    });

    it('completes exactly once: volume counted once, one outbound payment', async () => {
      const tx = await completedForm('deposit', 40);
      await backend.control.rails.approvePrompt(tx.id);
      await backend.clock.advance(60);
      expect(tx.status).toBe('completed');
      expect(merchant.current_month_volume).toBe(40);
      const outbound = [...backend.store.stellar.payments.values()].filter((p) => p.matched?.id === tx.id);
      expect(outbound).toHaveLength(1);
      expect(await refusal(() => completeInteractive(ctx, tx, { provider: 'mtn', phone: PHONE }))).toMatchObject({
        status: 409,
        message: 'cannot complete form when status is completed',
      });
      expect(await refusal(() => sendInteractiveOtp(ctx, tx, PHONE))).toMatchObject({ status: 409 });
    });

    it('USDC sent twice with the memo settles the withdrawal once; the second transfer goes back to its wallet', async () => {
      const tx = await completedForm('withdrawal', 3);
      const send = () =>
        backend.control.rails.sendStellarPayment({
          from: wallet,
          to: tx.withdraw_anchor_account!,
          amount: '3',
          asset_code: 'USDC',
          memo: tx.withdraw_memo,
        });
      const first = await send();
      const second = await send();
      expect(first.matched).toEqual({ kind: 'transaction', id: tx.id });
      expect(second.matched).toEqual({ kind: 'transaction', id: tx.id });
      expect(tx.stellar_transaction_id).toBe(first.hash);
      expect(tx.refunds).toEqual([
        { stellar_transaction_id: expect.stringMatching(/^[0-9a-f]{64}$/), refunded_payment: second.hash, amount: '3', reason: 'USDC arrived when the transaction was pending_external', status: 'pending' },
      ]);
      await backend.clock.advance(60);
      expect(tx.status).toBe('completed');
      expect(tx.refunds[0]!.status).toBe('completed');
      expect(backend.store.stellar.payments.get(tx.refunds[0]!.stellar_transaction_id)).toMatchObject({
        direction: 'outbound',
        from: tx.withdraw_anchor_account,
        to: wallet,
        amount: '3',
        status: 'confirmed',
      });
      // Paid out once; the second transfer is a partial refund, so `refunded` stays false.
      expect([...backend.store.mobileMoney.payouts.values()].filter((p) => p.owner.id === tx.id)).toHaveLength(1);
      expect(transactionView(ctx, tx)).toMatchObject({ refunded: false, refunds: { amount_refunded: '3.00', amount_fee: '0.00' } });
      expect(await refusal(() => backend.control.rails.failPayout(tx.id))).toMatchObject({ status: 409 });
      expect(tx.status).toBe('completed');
    });

    it('USDC arriving after the withdrawal expired goes back to its wallet, and the transaction stays expired', async () => {
      const tx = await completedForm('withdrawal', 3);
      await backend.clock.advance(30 * 60);
      expect(tx.status).toBe('expired');
      const late = await backend.control.rails.sendStellarPayment({
        from: wallet,
        to: tx.withdraw_anchor_account!,
        amount: '3',
        asset_code: 'USDC',
        memo: tx.withdraw_memo,
      });
      expect(late.matched).toEqual({ kind: 'transaction', id: tx.id });
      expect(tx.status).toBe('expired');
      expect(tx.refunds).toMatchObject([{ refunded_payment: late.hash, amount: '3', reason: 'USDC arrived when the transaction was expired' }]);
      expect(transactionView(ctx, tx).refunded).toBe(false);
      await backend.clock.advance(5);
      expect(transactionView(ctx, tx).refunded).toBe(true);
      expect(backend.store.orders.get(tx.order_id!)?.status).toBe('expired');
    });

    it('the form timer does nothing to a transaction that moved on, and the transfer timer nothing to one that arrived', async () => {
      const tx = await completedForm('withdrawal', 3);
      await backend.control.rails.sendStellarPayment({ from: wallet, to: tx.withdraw_anchor_account!, amount: '3', asset_code: 'USDC', memo: tx.withdraw_memo });
      // No payout before the anchor starts it.
      expect(await refusal(() => backend.control.rails.failPayout(tx.id))).toMatchObject({ status: 404 });
      await backend.clock.advance(2);
      for (let attempt = 1; attempt <= 3; attempt++) {
        await backend.control.rails.failPayout(tx.id, 'network down');
        if (attempt < 3) await backend.clock.advance(30);
      }
      const message = 'The Mobile Money payout failed after 3 attempts: network down. The USDC was sent back.';
      expect(tx).toMatchObject({ status: 'error', message, payout_attempts: 3 });
      await backend.clock.advance(60 * 60);
      expect(tx).toMatchObject({ status: 'error', message, payout_attempts: 3 });
      expect(tx.refunds).toHaveLength(1);
    });
  });
});

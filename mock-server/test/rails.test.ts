import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionRecord, PayoutRecord } from '../src/mobile-money.js';
import { startCollection, startPayout, PROMPT_TIMEOUT_SECONDS, parseProvider } from '../src/mobile-money.js';
import { sendPayment } from '../src/ledger.js';
import { sendOtp, checkOtp, OTP_MAX_ATTEMPTS } from '../src/otp.js';
import { call, MODES, type MockEnv } from './helpers/env.js';

describe.each(MODES)('shared rails, %s', (_name, start) => {
  let env: MockEnv;
  const heard: { collections: CollectionRecord[]; payouts: PayoutRecord[] } = { collections: [], payouts: [] };
  beforeAll(async () => {
    env = await start({ seed: 11 });
    // The rails tell their owner; here the test is the owner.
    env.backend.context.hooks.collection.set('transaction', (r) => void heard.collections.push({ ...r }));
    env.backend.context.hooks.payout.set('transaction', (r) => void heard.payouts.push({ ...r }));
  });
  afterAll(() => env.close());

  const prompt = (ownerId: string) =>
    startCollection(env.backend.context, {
      merchant_id: 'm1',
      owner: { kind: 'transaction', id: ownerId },
      provider: 'mtn',
      phone: '+233201234567',
      amount: 100,
    });

  it('approves a pending Mobile Money prompt by its owner id, once', async () => {
    const c = prompt('tx-approve');
    const res = await call(env, 'POST', '/_mock/mobile-money/tx-approve/approve');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, status: 'approved' });
    expect(heard.collections.at(-1)).toMatchObject({ id: c.id, status: 'approved' });
    const again = await call(env, 'POST', `/_mock/mobile-money/${c.id}/decline`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
  });

  it('times a prompt out after two minutes of clock time when nobody answers', async () => {
    const c = prompt('tx-timeout');
    await env.backend.clock.advance(PROMPT_TIMEOUT_SECONDS - 1);
    expect(c.status).toBe('pending');
    await env.backend.clock.advance(1);
    expect(c.status).toBe('timed_out');
    expect(heard.collections.at(-1)).toMatchObject({ id: c.id, status: 'timed_out' });
  });

  it('answers 404 for an unknown prompt', async () => {
    const res = await call(env, 'POST', '/_mock/mobile-money/nope/approve');
    expect(res.status).toBe(404);
  });

  it('pays out on the clock unless a control call fails the attempt first', async () => {
    const ok = startPayout(env.backend.context, { merchant_id: 'm1', owner: { kind: 'transaction', id: 'tx-pay' }, provider: 'telecel', phone: '+233201234567', amount: 50 });
    await env.backend.clock.advance(5);
    expect(ok.status).toBe('succeeded');
    const bad = startPayout(env.backend.context, { merchant_id: 'm1', owner: { kind: 'transaction', id: 'tx-fail' }, provider: 'telecel', phone: '+233201234567', amount: 50 });
    const res = await call(env, 'POST', '/_mock/payouts/tx-fail/fail', { body: { reason: 'wallet limit reached' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: bad.id, status: 'failed', failure_reason: 'wallet limit reached' });
    expect(heard.payouts.map((p) => [p.owner.id, p.status])).toEqual([
      ['tx-pay', 'succeeded'],
      ['tx-fail', 'failed'],
    ]);
    await env.backend.clock.advance(10);
    expect(bad.status).toBe('failed');
  });

  it('records an inbound Stellar payment and gives it to the owner that claims its memo', async () => {
    env.backend.context.hooks.stellarPayment.set('transaction', (p) => (p.memo === 'claim-me' ? 'tx-memo' : undefined));
    const from = Keypair.random().publicKey();
    const to = Keypair.random().publicKey();
    const claimed = await call(env, 'POST', '/_mock/stellar/payments', { body: { from, to, amount: '12.5', asset_code: 'USDC', memo: 'claim-me' } });
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({ from, to, amount: '12.5', direction: 'inbound', matched: { kind: 'transaction', id: 'tx-memo' } });
    expect(claimed.body.hash).toMatch(/^[0-9a-f]{64}$/);
    const stray = await call(env, 'POST', '/_mock/stellar/payments', { body: { from, to, amount: 1, memo: 'other' } });
    expect(stray.body.matched).toBeNull();
    const bad = await call(env, 'POST', '/_mock/stellar/payments', { body: { from: 'not-a-key', to, amount: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^from: /);
  });

  it('confirms an outgoing USDC payment on the clock', async () => {
    const confirmed: string[] = [];
    env.backend.context.hooks.sendConfirmed.set('transaction', (p) => void confirmed.push(p.hash));
    const p = sendPayment(env.backend.context, { kind: 'transaction', id: 'tx-send' }, { from: 'GA', to: 'GB', amount: '5', memo: null });
    expect(p.status).toBe('pending');
    await env.backend.clock.advance(5);
    expect(p.status).toBe('confirmed');
    expect(confirmed).toEqual([p.hash]);
  });

  it('exposes the newest one-time password of a phone to tests, and only that one is valid', async () => {
    const first = sendOtp(env.backend.context, '+233240000001', 'test:1');
    const second = sendOtp(env.backend.context, '+233240000001', 'test:1');
    const res = await call(env, 'GET', `/_mock/otp?phone=${encodeURIComponent('+233240000001')}`);
    expect(res.body).toMatchObject({ code: second.code, purpose: 'test:1' });
    expect(second.code).toMatch(/^\d{6}$/);
    expect(first.used).toBe(true);
    expect(() => checkOtp(env.backend.context, 'test:1', second.code)).not.toThrow();
    expect(() => checkOtp(env.backend.context, 'test:1', second.code)).toThrow(expect.objectContaining({ status: 422, code: 'INVALID_OTP', message: 'code already used; request a new one' }));
    expect((await call(env, 'GET', '/_mock/otp?phone=%2B233999')).status).toBe(404);
  });

  it('allows a bounded number of wrong codes and expires codes after ten minutes', async () => {
    const otp = sendOtp(env.backend.context, '+233240000002', 'test:2');
    const wrong = otp.code === '000000' ? '111111' : '000000';
    for (let i = 1; i < OTP_MAX_ATTEMPTS; i++) {
      expect(() => checkOtp(env.backend.context, 'test:2', wrong)).toThrow(expect.objectContaining({ status: 422, code: 'INVALID_OTP', message: expect.stringMatching(/^wrong code/) }));
    }
    expect(() => checkOtp(env.backend.context, 'test:2', wrong)).toThrow(/too many wrong codes/);
    expect(() => checkOtp(env.backend.context, 'test:2', otp.code)).toThrow(/too many wrong codes/);
    const later = sendOtp(env.backend.context, '+233240000002', 'test:3');
    await env.backend.clock.advance(600);
    expect(() => checkOtp(env.backend.context, 'test:3', later.code)).toThrow(expect.objectContaining({ status: 422, code: 'OTP_EXPIRED', message: 'code expired; request a new one' }));
  });
});

describe('providers', () => {
  it('accepts an id or a display name in any case, and nothing else', () => {
    expect(parseProvider('MTN')).toBe('mtn');
    expect(parseProvider('Telecel Cash')).toBe('telecel');
    expect(parseProvider('airteltigo')).toBe('airteltigo');
    expect(parseProvider('AirtelTigo Money')).toBe('airteltigo');
    expect(parseProvider('vodafone')).toBeUndefined();
    expect(parseProvider('')).toBeUndefined();
  });
});

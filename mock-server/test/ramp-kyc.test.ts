import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/merchants.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { expectEnvelope, expectError } from './helpers/merchant.js';
import { advance, newPhone, rampMerchant, type RampMerchant } from './ramp-setup.js';

describe.each(MODES)('ramp KYC and access, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 11 });
  });
  afterAll(() => env.close());

  const initiate = (m: RampMerchant, phone: string, extra: Record<string, unknown> = {}) =>
    call(env, 'POST', '/api/v1/ramp/kyc/initiate', {
      headers: m.auth,
      body: { first_name: 'Abena', last_name: 'Owusu', phone, provider_name: 'Telecel Cash', ...extra },
    });
  const verify = (m: RampMerchant, kyc_id: string, otp_code: string) =>
    call(env, 'POST', '/api/v1/ramp/kyc/verify', { headers: m.auth, body: { kyc_id, otp_code } });
  const codeFor = async (phone: string) => (await call(env, 'GET', `/_mock/otp?phone=${phone}`)).body.code as string;
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('refuses a missing or unknown key with 401 and a public key with 403, in the envelope', async () => {
    const none = await call(env, 'POST', '/api/v1/ramp/kyc/initiate', { body: {} });
    expectError(none, 401, 'UNAUTHORIZED');
    const unknown = await call(env, 'GET', '/api/v1/ramp/orders/RMP-20260101-x', { headers: { authorization: 'Bearer sika_secret_nope' } });
    expectError(unknown, 401, 'UNAUTHORIZED');
    const m = await rampMerchant(env);
    const { key } = await createApiKey(env.backend.context, m.merchant, { key_type: 'public' });
    const pub = await call(env, 'POST', '/api/v1/ramp/kyc/initiate', { headers: { authorization: `Bearer ${key}` }, body: {} });
    expectError(pub, 403, 'FORBIDDEN');
  });

  it('answers 403 RAMP_NOT_ENABLED until the operator activates the merchant', async () => {
    const m = await rampMerchant(env, { enable: false });
    const phone = newPhone();
    const before = await initiate(m, phone);
    expectError(before, 403, 'RAMP_NOT_ENABLED');
    expect([...env.backend.store.ramp.kyc.values()].filter((k) => k.phone === phone)).toEqual([]);
    const enabled = await call(env, 'POST', `/_mock/merchants/${m.merchant.id}/ramp/enable`);
    expect(enabled.status).toBe(200);
    const after = await initiate(m, phone);
    expect(after.status).toBe(201);
  });

  it('initiates KYC with a kyc_id and sends a 6-digit code readable through control', async () => {
    const m = await rampMerchant(env);
    const phone = newPhone();
    const res = await initiate(m, phone);
    expect(res.status).toBe(201);
    expectEnvelope(res.body);
    expect(res.body.data).toEqual({
      kyc_id: expect.stringMatching(/^kyc_[0-9a-f-]{36}$/),
      status: 'pending',
      phone,
      provider_name: 'Telecel Cash',
      verified_at: null,
      otp_expires_at: expect.any(String),
    });
    const otp = await call(env, 'GET', `/_mock/otp?phone=${phone}`);
    expect(otp.body.code).toMatch(/^\d{6}$/);
    expect(Date.parse(res.body.data.otp_expires_at) - Date.parse((await call(env, 'GET', '/_mock/clock')).body.now)).toBe(600_000);
  });

  it('verifies the phone with the right code, once', async () => {
    const m = await rampMerchant(env);
    const phone = newPhone();
    const { kyc_id } = (await initiate(m, phone)).body.data;
    const code = await codeFor(phone);
    const res = await verify(m, kyc_id, code);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ kyc_id, status: 'verified', phone, verified_at: expect.any(String) });
    const again = await verify(m, kyc_id, code);
    expectError(again, 422, 'INVALID_OTP');
    expect(again.body.error.message).toMatch(/already used/);
  });

  it('refuses wrong codes with the tries left, then 429 after the fifth, and the right code afterwards too', async () => {
    const m = await rampMerchant(env);
    const phone = newPhone();
    const { kyc_id } = (await initiate(m, phone)).body.data;
    const code = await codeFor(phone);
    for (const left of [4, 3, 2, 1]) {
      const res = await verify(m, kyc_id, wrong(code));
      expectError(res, 422, 'INVALID_OTP');
      expect(res.body.error.message).toBe(`wrong code; ${left} ${left === 1 ? 'try' : 'tries'} left`);
    }
    expectError(await verify(m, kyc_id, wrong(code)), 429, 'RATE_LIMITED');
    expectError(await verify(m, kyc_id, code), 429, 'RATE_LIMITED');
    expect(env.backend.store.ramp.kyc.get(kyc_id)?.status).toBe('pending');
  });

  it('refuses an expired code after 10 minutes of clock time and accepts a fresh one', async () => {
    const m = await rampMerchant(env);
    const phone = newPhone();
    const first = (await initiate(m, phone)).body.data.kyc_id;
    const code = await codeFor(phone);
    await advance(env, 600);
    const late = await verify(m, first, code);
    expectError(late, 422, 'OTP_EXPIRED');
    expect(late.body.error.message).toMatch(/expired/);
    const second = (await initiate(m, phone)).body.data.kyc_id;
    expect(second).not.toBe(first);
    expect((await verify(m, second, await codeFor(phone))).status).toBe(200);
  });

  it('keeps a KYC to its merchant: another merchant gets 404 and its code does not verify there', async () => {
    const a = await rampMerchant(env);
    const b = await rampMerchant(env);
    const phone = newPhone();
    const { kyc_id } = (await initiate(a, phone)).body.data;
    expectError(await verify(b, kyc_id, await codeFor(phone)), 404, 'NOT_FOUND');
    expectError(await verify(a, 'kyc_unknown', '123456'), 404, 'NOT_FOUND');
  });

  it('validates the initiate and verify bodies and stores nothing for bad input', async () => {
    const m = await rampMerchant(env);
    const before = env.backend.store.ramp.kyc.size;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ phone: '+233241234567' }, /^phone: must be a local number/],
      [{ phone: '024123' }, /^phone: /],
      [{ provider_name: 'Vodafone Money' }, /^provider_name: must be one of MTN MoMo, Telecel Cash, AirtelTigo Money/],
      [{ first_name: '' }, /^first_name: /],
    ];
    for (const [extra, message] of cases) {
      const res = await initiate(m, extra.phone === undefined ? newPhone() : String(extra.phone), extra);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.message).toMatch(message);
    }
    expectError(await call(env, 'POST', '/api/v1/ramp/kyc/verify', { headers: m.auth, body: { kyc_id: 'x', otp_code: '12ab56' } }), 400, 'VALIDATION_ERROR');
    expectError(await call(env, 'POST', '/api/v1/ramp/kyc/verify', { headers: { ...m.auth, 'content-type': 'application/json' }, rawBody: 'nope' }), 400, 'VALIDATION_ERROR');
    expect(env.backend.store.ramp.kyc.size).toBe(before);
  });

  it('accepts provider ids and names in any case', async () => {
    const m = await rampMerchant(env);
    for (const [given, shown] of [['mtn', 'MTN MoMo'], ['AIRTELTIGO', 'AirtelTigo Money'], ['telecel', 'Telecel Cash']]) {
      const res = await initiate(m, newPhone(), { provider_name: given });
      expect(res.body.data.provider_name).toBe(shown);
    }
  });
});

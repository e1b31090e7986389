import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RampClient } from '../src/clients/ramp.js';
import {
  AuthenticationError,
  CredentialError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  ValidationError,
} from '../src/index.js';
import { MODES, type MockEnv } from './helpers/mock.js';
import { newPhone, newRamp, type Ramp } from './helpers/ramp.js';

describe.each(MODES)('ramp.kyc, %s', (_name, start) => {
  let env: MockEnv;
  let ramp: Ramp;
  beforeAll(async () => {
    env = await start({ seed: 81 });
    ramp = await newRamp(env);
  });
  afterAll(() => env.close());

  const initiate = (phone = newPhone()) => ramp.client.kyc.initiate({ first_name: 'Kwame', last_name: 'Mensah', phone, provider_name: 'MTN' });

  it('sends a code to the phone and verifies it', async () => {
    const phone = newPhone();
    const started = await initiate(phone);
    expect(started).toMatchObject({ kyc_id: expect.stringMatching(/^kyc_/), status: 'pending', phone, verified_at: null });
    expect(Date.parse(started.otp_expires_at!)).toBeGreaterThan(env.backend.clock.now());
    const verified = await ramp.client.kyc.verify({ kyc_id: started.kyc_id, otp_code: env.backend.control.rails.otp(phone).code });
    expect(verified).toMatchObject({ kyc_id: started.kyc_id, status: 'verified', verified_at: new Date(env.backend.clock.now()).toISOString() });
  });

  it('answers a wrong code with UnprocessableEntityError naming the tries left, and the fifth with RateLimitError', async () => {
    const phone = newPhone();
    const { kyc_id } = await initiate(phone);
    const right = env.backend.control.rails.otp(phone).code;
    const wrong = right === '000000' ? '111111' : '000000';
    const before = ramp.sent.length;
    const first = await ramp.client.kyc.verify({ kyc_id, otp_code: wrong }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(UnprocessableEntityError);
    expect(first).toMatchObject({ status: 422, code: 'INVALID_OTP', message: '422 INVALID_OTP: wrong code; 4 tries left' });
    for (let i = 0; i < 3; i++) await expect(ramp.client.kyc.verify({ kyc_id, otp_code: wrong })).rejects.toBeInstanceOf(UnprocessableEntityError);
    await expect(ramp.client.kyc.verify({ kyc_id, otp_code: wrong })).rejects.toBeInstanceOf(RateLimitError);
    // A verify has no idempotency key: nothing was repeated behind the caller's back.
    expect(ramp.sent.length - before).toBe(5);
    await expect(ramp.client.kyc.verify({ kyc_id, otp_code: right })).rejects.toBeInstanceOf(RateLimitError);
  });

  it('answers a used code with UnprocessableEntityError INVALID_OTP and an expired one with OTP_EXPIRED', async () => {
    const used = newPhone();
    const first = await initiate(used);
    const code = env.backend.control.rails.otp(used).code;
    await ramp.client.kyc.verify({ kyc_id: first.kyc_id, otp_code: code });
    const again = await ramp.client.kyc.verify({ kyc_id: first.kyc_id, otp_code: code }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(UnprocessableEntityError);
    expect(again).toMatchObject({ status: 422, code: 'INVALID_OTP', message: '422 INVALID_OTP: code already used; request a new one' });

    const late = newPhone();
    const second = await initiate(late);
    await env.backend.clock.advance(600);
    const expired = await ramp.client.kyc.verify({ kyc_id: second.kyc_id, otp_code: env.backend.control.rails.otp(late).code }).catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(UnprocessableEntityError);
    expect(expired).toMatchObject({ status: 422, code: 'OTP_EXPIRED', message: '422 OTP_EXPIRED: code expired; request a new one' });
  });

  it('refuses a malformed phone, provider or code before sending, naming each field', async () => {
    const before = ramp.sent.length;
    const error = await ramp.client.kyc
      .initiate({ first_name: 'Kwame', last_name: ' ', phone: '+233241234567', provider_name: '' })
      .catch((e: unknown) => e as ValidationError);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path.join('.'))).toEqual(['last_name', 'phone', 'provider_name']);
    await expect(ramp.client.kyc.verify({ kyc_id: 'kyc_1', otp_code: ' ' })).rejects.toThrow('otp_code: must be the code the user received');
    expect(ramp.sent.length).toBe(before);
  });

  it('answers an unknown key with AuthenticationError and a merchant not activated with RAMP_NOT_ENABLED', async () => {
    const stranger = new RampClient({ baseUrl: env.origin, secretKey: 'sika_secret_0123456789abcdef0123456789abcdef0123456789abcdef' });
    await expect(stranger.kyc.initiate({ first_name: 'A', last_name: 'B', phone: newPhone(), provider_name: 'MTN' })).rejects.toBeInstanceOf(AuthenticationError);
    const inactive = await newRamp(env, {}, { enable: false });
    const error = await inactive.client.kyc.initiate({ first_name: 'A', last_name: 'B', phone: newPhone(), provider_name: 'MTN' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'RAMP_NOT_ENABLED' });
  });

  it('refuses a public key at construction without echoing it', () => {
    const key = 'sika_public_0123456789abcdef0123456789abcdef';
    const error = (() => {
      try {
        return new RampClient({ baseUrl: env.origin, secretKey: key });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CredentialError);
    expect(String(error)).not.toContain(key);
  });
});

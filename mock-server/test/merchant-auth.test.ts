import { createHmac } from 'node:crypto';
import { StrKey } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { expectEnvelope, expectError, registerMerchant, snapshot } from './helpers/merchant.js';

const NANO_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;

const decodePart = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe.each(MODES)('merchant register, login and profile, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start();
  });
  afterAll(() => env.close());

  it('registers a merchant with every documented default', async () => {
    const res = await call(env, 'POST', '/api/v1/merchant/register', {
      body: { name: 'Ama Foods', legal_name: 'Ama Foods Ltd', email: 'ama@example.com', password: 'a long password' },
    });
    expect(res.status).toBe(201);
    expectEnvelope(res.body);
    const m = res.body.data;
    expect(m).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      name: 'Ama Foods',
      legal_name: 'Ama Foods Ltd',
      email: 'ama@example.com',
      status: 'pending',
      tier: 'starter',
      fee_base_bps: 100,
      fee_markup_bps: 0,
      monthly_volume_limit: 100_000,
      current_month_volume: 0,
      stellar_public_key: expect.any(String),
      is_test_mode: false,
      created_at: expect.stringMatching(NANO_ISO),
      updated_at: expect.stringMatching(NANO_ISO),
    });
    expect(StrKey.isValidEd25519PublicKey(m.stellar_public_key)).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('a long password');
    const stored = env.backend.store.merchants.get(m.id)!;
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    expect(stored.password_hash).not.toContain('a long password');
  });

  it('refuses a second account with the same e-mail, in any letter case', async () => {
    const before = snapshot(env.backend.store);
    const res = await call(env, 'POST', '/api/v1/merchant/register', {
      body: { name: 'Other', legal_name: 'Other Ltd', email: 'AMA@example.com', password: 'another password' },
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it('refuses bad JSON, a missing field, a wrong type or a short password, changing nothing', async () => {
    const valid = { name: 'N', legal_name: 'N Ltd', email: 'new@example.com', password: 'long enough' };
    const before = snapshot(env.backend.store);
    const bodies: { rawBody?: string; body?: unknown }[] = [
      { rawBody: '{"name": "N",' },
      { rawBody: '' },
      { body: [valid] },
      { body: { ...valid, legal_name: undefined } },
      { body: { ...valid, email: 'not-an-email' } },
      { body: { ...valid, name: 42 } },
      { body: { ...valid, password: 'short' } },
    ];
    for (const init of bodies) {
      const res = await call(env, 'POST', '/api/v1/merchant/register', { ...init, headers: { 'content-type': 'application/json' } });
      expectError(res, 400, 'VALIDATION_ERROR');
    }
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it('logs in with a JWT signed HS256 and valid 24 hours of clock time', async () => {
    const m = await registerMerchant(env);
    const res = await call(env, 'POST', '/api/v1/merchant/login', { body: { email: m.email, password: m.password } });
    expect(res.status).toBe(200);
    expectEnvelope(res.body);
    const now = env.backend.clock.now();
    expect(res.body.data).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 86_400,
      expires_at: new Date(Math.floor(now / 1000) * 1000 + 86_400_000).toISOString(),
    });
    const [head, body, sig] = res.body.data.access_token.split('.');
    expect(decodePart(head)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodePart(body);
    expect(claims.sub).toBe(m.id);
    expect(claims.exp - claims.iat).toBe(86_400);
    const expected = createHmac('sha256', env.backend.context.jwtSecret).update(`${head}.${body}`).digest('base64url');
    expect(sig).toBe(expected);
  });

  it('answers a wrong password and an unknown e-mail the same way', async () => {
    const m = await registerMerchant(env);
    const wrong = await call(env, 'POST', '/api/v1/merchant/login', { body: { email: m.email, password: 'not the password' } });
    const unknown = await call(env, 'POST', '/api/v1/merchant/login', { body: { email: 'nobody@example.com', password: 'not the password' } });
    expectError(wrong, 401, 'UNAUTHORIZED');
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body.error).toEqual(wrong.body.error);
    expect(wrong.body.error.message).toBe('invalid e-mail or password');
  });

  it('refuses a login body without a password as VALIDATION_ERROR', async () => {
    expectError(await call(env, 'POST', '/api/v1/merchant/login', { body: { email: 'a@example.com' } }), 400, 'VALIDATION_ERROR');
    expectError(await call(env, 'POST', '/api/v1/merchant/login', { rawBody: 'email=a' }), 400, 'VALIDATION_ERROR');
  });

  it('shows the profile with the access token', async () => {
    const m = await registerMerchant(env, { name: 'Profile Co' });
    const res = await call(env, 'GET', '/api/v1/merchant/profile', { headers: m.auth });
    expect(res.status).toBe(200);
    expectEnvelope(res.body);
    expect(res.body.data).toMatchObject({ id: m.id, name: 'Profile Co', email: m.email, status: 'pending', tier: 'starter' });
    expect(res.body.data).not.toHaveProperty('password_hash');
    expect(res.body.data).not.toHaveProperty('stellar_secret');
  });

  it('refuses a missing, malformed, tampered or foreign-signed token with 401', async () => {
    const m = await registerMerchant(env);
    const [head, body] = m.token.split('.');
    const claims = decodePart(body!);
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    const foreignSig = createHmac('sha256', 'not the mock secret').update(`${head}.${body}`).digest('base64url');
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer' },
      { authorization: 'Bearer not-a-jwt' },
      { authorization: `Bearer ${head}.${forged}.${m.token.split('.')[2]}` },
      { authorization: `Bearer ${head}.${body}.${foreignSig}` },
      { authorization: `Basic ${m.token}` },
    ]) {
      expectError(await call(env, 'GET', '/api/v1/merchant/profile', { headers }), 401, 'UNAUTHORIZED');
    }
  });

  it('expires the access token after 24 hours of clock time', async () => {
    const m = await registerMerchant(env);
    await env.backend.clock.advance(24 * 3600 - 1);
    expect((await call(env, 'GET', '/api/v1/merchant/profile', { headers: m.auth })).status).toBe(200);
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 1 } });
    const res = await call(env, 'GET', '/api/v1/merchant/profile', { headers: m.auth });
    expectError(res, 401, 'UNAUTHORIZED');
    expect(res.body.error.message).toBe('invalid or expired access token');
  });
});

describe.each(MODES)('merchant login attempts, bounded in clock time, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start();
  });
  afterAll(() => env.close());
  const attempt = (email: string, password: string) => call(env, 'POST', '/api/v1/merchant/login', { body: { email, password } });

  it('refuses the 11th attempt at one e-mail within 15 minutes with 429 and Retry-After, even with the right password', async () => {
    const m = await registerMerchant(env);
    for (let i = 0; i < 10; i++) expectError(await attempt(m.email, `guess ${i}`), 401, 'UNAUTHORIZED');
    const limited = await attempt(m.email.toUpperCase(), m.password);
    expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('900');
    expect(limited.body.data).toBeUndefined();

    await env.backend.clock.advance(899);
    expectError(await attempt(m.email, m.password), 429, 'RATE_LIMITED');
    await env.backend.clock.advance(1);
    expect((await attempt(m.email, m.password)).status).toBe(200);
    // A success starts the e-mail's count again.
    for (let i = 0; i < 10; i++) expectError(await attempt(m.email, `guess ${i}`), 401, 'UNAUTHORIZED');
    expectError(await attempt(m.email, m.password), 429, 'RATE_LIMITED');
    await env.backend.clock.advance(900);
  });

  it('refuses a client after 50 failed logins across e-mails, whatever e-mail it tries next', async () => {
    const m = await registerMerchant(env);
    for (let i = 0; i < 50; i++) {
      expectError(await attempt(`spray${Math.floor(i / 5)}@example.com`, `guess ${i}`), 401, 'UNAUTHORIZED');
    }
    const limited = await attempt(m.email, m.password);
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await env.backend.clock.advance(900);
    expect((await attempt(m.email, m.password)).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSession } from '../src/http/auth.js';
import { HttpError } from '../src/http/errors.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { createKey, expectEnvelope, expectError, registerMerchant, snapshot, type TestMerchant } from './helpers/merchant.js';

describe.each(MODES)('widget sessions, %s', (_name, start) => {
  let env: MockEnv;
  let merchant: TestMerchant;
  let sk: Record<string, string>;
  let n = 0;
  beforeAll(async () => {
    env = await start();
    merchant = await registerMerchant(env);
    sk = { 'x-api-key': (await createKey(env, merchant)).key };
  });
  afterAll(() => env.close());

  async function customer(lastName = 'Mensah', headers = sk): Promise<string> {
    const res = await call(env, 'POST', '/api/v1/widget/customer', {
      headers,
      body: { first_name: 'Ama', last_name: lastName, email_address: `c${++n}@example.com` },
    });
    return res.body.data.id;
  }
  const createSession = (user_id: unknown, headers = sk) => call(env, 'POST', '/api/v1/widget/session', { headers, body: { user_id } });

  /** The error a session-protected endpoint answers for these session credentials. */
  function refusal(id: string, token: string): string | undefined {
    try {
      findSession(env.backend.context, id, token);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(401);
      return (error as HttpError).message;
    }
  }

  it('creates a 30-minute session for an ACCEPTED customer, in the usual envelope', async () => {
    const userId = await customer();
    const res = await createSession(userId);
    expect(res.status).toBe(201);
    expectEnvelope(res.body);
    expect(res.body.data).toEqual({
      session_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      session_token: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      merchant_id: merchant.id,
      expires_at: new Date(env.backend.clock.now() + 30 * 60_000).toISOString(),
    });
    expect(res.body.data.session_token).not.toBe(res.body.data.session_id);
  });

  it('expires the session after 30 minutes of clock time', async () => {
    const { session_id, session_token } = (await createSession(await customer())).body.data;
    await env.backend.clock.advance(30 * 60 - 1);
    expect(refusal(session_id, session_token)).toBeUndefined();
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 1 } });
    expect(refusal(session_id, session_token)).toBe('session expired');
  });

  it('refuses a wrong token, an unknown id, or a deleted customer\'s session', async () => {
    const userId = await customer();
    const { session_id, session_token } = (await createSession(userId)).body.data;
    expect(refusal(session_id, session_token.replace(/.$/, (c: string) => (c === '0' ? '1' : '0')))).toBe('invalid session');
    expect(refusal('00000000-0000-4000-8000-000000000000', session_token)).toBe('invalid session');
    await call(env, 'DELETE', `/api/v1/widget/customer/${userId}`, { headers: sk });
    expect(refusal(session_id, session_token)).toBe('invalid session');
  });

  it('answers 403 KYC_NOT_APPROVED unless the customer is ACCEPTED', async () => {
    const cases = [
      ['NeedsInfo', 'NEEDS_INFO'],
      ['Processing', 'PROCESSING'],
      ['Rejected', 'REJECTED'],
    ] as const;
    for (const [lastName, status] of cases) {
      const userId = await customer(lastName);
      const before = snapshot(env.backend.store);
      const res = await createSession(userId);
      expectError(res, 403, 'KYC_NOT_APPROVED');
      expect(res.body.error.message).toContain(status);
      expect(snapshot(env.backend.store)).toEqual(before);
    }
  });

  it('gives a session once a Processing customer is accepted on the clock', async () => {
    const userId = await customer('Processing');
    expectError(await createSession(userId), 403, 'KYC_NOT_APPROVED');
    await env.backend.clock.advance(60);
    expect((await createSession(userId)).status).toBe(201);
  });

  it('answers 404 for an unknown customer or another merchant\'s', async () => {
    const other = await registerMerchant(env);
    const theirs = await customer('Mensah', { 'x-api-key': (await createKey(env, other)).key });
    expectError(await createSession(theirs), 404, 'NOT_FOUND');
    expectError(await createSession('00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
  });

  it('refuses a bad body with VALIDATION_ERROR, a public key with 403 and no key with 401, creating nothing', async () => {
    const userId = await customer();
    const pk = await createKey(env, merchant, { key_type: 'public' });
    const before = snapshot(env.backend.store);
    expectError(await createSession(undefined), 400, 'VALIDATION_ERROR');
    expectError(await createSession(42), 400, 'VALIDATION_ERROR');
    expectError(await call(env, 'POST', '/api/v1/widget/session', { headers: sk, rawBody: 'user_id=1' }), 400, 'VALIDATION_ERROR');
    expectError(await createSession(userId, { 'x-api-key': pk.key }), 403, 'FORBIDDEN');
    expectError(await createSession(userId, {}), 401, 'UNAUTHORIZED');
    expectError(await createSession(userId, { 'x-api-key': 'sika_secret_nope' }), 401, 'UNAUTHORIZED');
    expect(snapshot(env.backend.store)).toEqual(before);
  });
});

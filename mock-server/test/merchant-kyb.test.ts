import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { expectEnvelope, expectError, registerMerchant, snapshot } from './helpers/merchant.js';

const submission = {
  registration_number: 'CS123456789',
  country: 'GHA',
  documents: [
    { type: 'certificate_of_incorporation', url: 'https://files.example.com/coi.pdf' },
    { type: 'director_id', url: 'https://files.example.com/id.png' },
  ],
};

describe.each(MODES)('merchant KYB, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start();
  });
  afterAll(() => env.close());

  it('starts not_submitted, then shows the submission as submitted', async () => {
    const m = await registerMerchant(env);
    const initial = await call(env, 'GET', '/api/v1/merchant/kyb/status', { headers: m.auth });
    expect(initial.status).toBe(200);
    expectEnvelope(initial.body);
    expect(initial.body.data).toEqual({
      status: 'not_submitted',
      submitted_at: null,
      reviewed_at: null,
      rejection_reason: null,
      registration_number: null,
      country: null,
      documents: [],
    });
    const res = await call(env, 'POST', '/api/v1/merchant/kyb/submit', { headers: m.auth, body: submission });
    expect(res.status).toBe(200);
    expectEnvelope(res.body);
    const expected = { ...submission, status: 'submitted', submitted_at: expect.stringMatching(/Z$/), reviewed_at: null, rejection_reason: null };
    expect(res.body.data).toEqual(expected);
    expect((await call(env, 'GET', '/api/v1/merchant/kyb/status', { headers: m.auth })).body.data).toEqual(expected);
  });

  it('refuses a second submission while under review with 409 INVALID_STATE', async () => {
    const m = await registerMerchant(env);
    await call(env, 'POST', '/api/v1/merchant/kyb/submit', { headers: m.auth, body: submission });
    expectError(await call(env, 'POST', '/api/v1/merchant/kyb/submit', { headers: m.auth, body: submission }), 409, 'INVALID_STATE');
  });

  it('makes the merchant active once the operator approves', async () => {
    const m = await registerMerchant(env);
    await call(env, 'POST', '/api/v1/merchant/kyb/submit', { headers: m.auth, body: submission });
    const approved = await call(env, 'POST', `/_mock/merchants/${m.id}/kyb/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('active');
    expect((await call(env, 'GET', '/api/v1/merchant/kyb/status', { headers: m.auth })).body.data).toMatchObject({
      status: 'approved',
      reviewed_at: expect.stringMatching(/Z$/),
    });
    expect((await call(env, 'GET', '/api/v1/merchant/profile', { headers: m.auth })).body.data.status).toBe('active');
    expectError(await call(env, 'POST', '/api/v1/merchant/kyb/submit', { headers: m.auth, body: submission }), 409, 'INVALID_STATE');
  });

  it('shows a rejection with its reason and accepts a new submission after it', async () => {
    const m = await registerMerchant(env);
    await call(env, 'POST', '/api/v1/merchant/kyb/submit', { headers: m.auth, body: submission });
    const rejected = await call(env, 'POST', `/_mock/merchants/${m.id}/kyb/reject`, { body: { reason: 'certificate is unreadable' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body.status).toBe('pending');
    const status = await call(env, 'GET', '/api/v1/merchant/kyb/status', { headers: m.auth });
    expect(status.body.data).toMatchObject({ status: 'rejected', rejection_reason: 'certificate is unreadable' });
    const again = await call(env, 'POST', '/api/v1/merchant/kyb/submit', { headers: m.auth, body: submission });
    expect(again.body.data).toMatchObject({ status: 'submitted', rejection_reason: null, reviewed_at: null });
  });

  it('approves without a submission in one control call, and refuses to reject what was not submitted', async () => {
    const m = await registerMerchant(env);
    expectError(await call(env, 'POST', `/_mock/merchants/${m.id}/kyb/reject`), 409, 'INVALID_STATE');
    expect(env.backend.control.merchants.approveKyb(m.id).status).toBe('active');
    expect(() => env.backend.control.merchants.approveKyb(m.id)).toThrow(/cannot approve when status is approved/);
    expectError(await call(env, 'POST', '/_mock/merchants/00000000-0000-4000-8000-000000000000/kyb/approve'), 404, 'NOT_FOUND');
  });

  it('refuses an invalid submission with VALIDATION_ERROR and keeps not_submitted', async () => {
    const m = await registerMerchant(env);
    const before = snapshot(env.backend.store);
    for (const body of [
      {},
      { ...submission, registration_number: '' },
      { ...submission, country: 'GH' },
      { ...submission, documents: [] },
      { ...submission, documents: [{ type: 'id' }] },
      { ...submission, documents: [{ type: 'id', url: 'javascript:alert(1)' }] },
      { ...submission, documents: 'coi.pdf' },
    ]) {
      expectError(await call(env, 'POST', '/api/v1/merchant/kyb/submit', { headers: m.auth, body }), 400, 'VALIDATION_ERROR');
    }
    expectError(
      await call(env, 'POST', '/api/v1/merchant/kyb/submit', { headers: m.auth, rawBody: 'not json' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it('needs the access token for both endpoints', async () => {
    expectError(await call(env, 'GET', '/api/v1/merchant/kyb/status'), 401, 'UNAUTHORIZED');
    expectError(await call(env, 'POST', '/api/v1/merchant/kyb/submit', { body: submission }), 401, 'UNAUTHORIZED');
  });
});

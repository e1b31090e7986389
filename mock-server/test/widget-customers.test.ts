import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { createKey, expectEnvelope, expectError, registerMerchant, snapshot, type TestMerchant } from './helpers/merchant.js';

const ama = { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' };
const missing = {
  birth_date: '1990-04-12',
  address: '12 Oxford Street',
  city: 'Accra',
  address_country_code: 'GHA',
  mobile_number: '+233201234567',
};

describe.each(MODES)('widget customers (KYC), %s', (_name, start) => {
  let env: MockEnv;
  let merchant: TestMerchant;
  let sk: Record<string, string>;
  beforeAll(async () => {
    env = await start();
    merchant = await registerMerchant(env);
    sk = { 'x-api-key': (await createKey(env, merchant)).key };
  });
  afterAll(() => env.close());

  const create = (body: unknown, headers = sk) => call(env, 'POST', '/api/v1/widget/customer', { headers, body });
  const get = (id: string, headers = sk) => call(env, 'GET', `/api/v1/widget/customer/${id}`, { headers });

  it('creates an ACCEPTED customer and shows its provided fields', async () => {
    const res = await create({ ...ama, birth_date: '1990-04-12' });
    expect(res.status).toBe(201);
    expectEnvelope(res.body);
    expect(res.body.data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'ACCEPTED' });
    const lookup = await get(res.body.data.id);
    expect(lookup.status).toBe(200);
    expectEnvelope(lookup.body);
    expect(lookup.body.data).toEqual({
      id: res.body.data.id,
      status: 'ACCEPTED',
      provided_fields: {
        first_name: { type: 'string', description: 'given name', status: 'ACCEPTED' },
        last_name: { type: 'string', description: 'family name', status: 'ACCEPTED' },
        email_address: { type: 'string', description: 'e-mail address', status: 'ACCEPTED' },
        birth_date: { type: 'date', description: 'date of birth, YYYY-MM-DD', status: 'ACCEPTED' },
      },
    });
  });

  it('reports a phone number not yet OTP-verified as VERIFICATION_REQUIRED', async () => {
    const { id } = (await create({ ...ama, email_address: 'phone@example.com', mobile_number: '+233201234567' })).body.data;
    const fields = (await get(id)).body.data.provided_fields;
    expect(fields.mobile_number).toEqual({ type: 'string', description: 'mobile number with country code', status: 'VERIFICATION_REQUIRED' });
    expect(fields.first_name.status).toBe('ACCEPTED');
  });

  it('asks a NeedsInfo customer for the missing fields, then accepts the same record once they come', async () => {
    const base = { first_name: 'Kwame', last_name: 'NeedsInfo', email_address: 'kwame@example.com' };
    const first = await create(base);
    expect(first.status).toBe(201);
    expect(first.body.data.status).toBe('NEEDS_INFO');
    const lookup = (await get(first.body.data.id)).body.data;
    expect(lookup).toEqual({
      id: first.body.data.id,
      status: 'NEEDS_INFO',
      fields: {
        birth_date: { type: 'date', description: 'date of birth, YYYY-MM-DD' },
        address: { type: 'string', description: 'street address' },
        city: { type: 'string', description: 'city' },
        address_country_code: { type: 'string', description: 'country, ISO 3166-1 alpha-3' },
        mobile_number: { type: 'string', description: 'mobile number with country code' },
      },
    });
    expect(lookup).not.toHaveProperty('provided_fields');

    const partial = await create({ ...base, birth_date: missing.birth_date, city: missing.city });
    expect(partial.status).toBe(200);
    expect(partial.body.data).toEqual({ id: first.body.data.id, status: 'NEEDS_INFO' });
    expect(Object.keys((await get(first.body.data.id)).body.data.fields)).toEqual(['address', 'address_country_code', 'mobile_number']);

    const done = await create({ ...base, ...missing, email_address: 'KWAME@example.com' });
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ id: first.body.data.id, status: 'ACCEPTED' });
    expect([...env.backend.store.customers.values()].filter((c) => c.fields.last_name === 'NeedsInfo')).toHaveLength(1);
  });

  it('keeps a Processing customer under review until 60 s of clock time pass', async () => {
    const { id, status } = (await create({ first_name: 'Efua', last_name: 'Processing', email_address: 'efua@example.com' })).body.data;
    expect(status).toBe('PROCESSING');
    expect((await get(id)).body.data.provided_fields.first_name.status).toBe('PROCESSING');
    await env.backend.clock.advance(59);
    expect((await get(id)).body.data.status).toBe('PROCESSING');
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 1 } });
    const after = (await get(id)).body.data;
    expect(after.status).toBe('ACCEPTED');
    expect(after.provided_fields.first_name.status).toBe('ACCEPTED');
  });

  it('rejects a Rejected customer for good, every field REJECTED with a reason', async () => {
    const body = { first_name: 'Yaw', last_name: 'Rejected', email_address: 'yaw@example.com' };
    const { id, status } = (await create(body)).body.data;
    expect(status).toBe('REJECTED');
    expect((await get(id)).body.data.provided_fields.last_name).toEqual({
      type: 'string',
      description: 'family name',
      status: 'REJECTED',
      error: expect.any(String),
    });
    expect((await create({ ...body, ...missing })).body.data).toEqual({ id, status: 'REJECTED' });
  });

  it('sets any status through PUT /_mock/customers/{id}/status', async () => {
    const { id } = (await create({ ...ama, email_address: 'control@example.com' })).body.data;
    for (const status of ['PROCESSING', 'REJECTED', 'ACCEPTED'] as const) {
      const res = await call(env, 'PUT', `/_mock/customers/${id}/status`, { body: { status } });
      expect(res.status).toBe(200);
      expect((await get(id)).body.data.status).toBe(status);
    }
    expectError(await call(env, 'PUT', `/_mock/customers/${id}/status`, { body: { status: 'DONE' } }), 400, 'VALIDATION_ERROR');
    expectError(await call(env, 'PUT', '/_mock/customers/nope/status', { body: { status: 'ACCEPTED' } }), 404, 'NOT_FOUND');
  });

  it('deletes a customer; the id is unusable afterwards', async () => {
    const { id } = (await create({ ...ama, email_address: 'gone@example.com' })).body.data;
    const res = await call(env, 'DELETE', `/api/v1/widget/customer/${id}`, { headers: sk });
    expect(res.status).toBe(200);
    expectEnvelope(res.body);
    expect(res.body.data).toEqual({ deleted: true });
    expectError(await get(id), 404, 'NOT_FOUND');
    expectError(await call(env, 'DELETE', `/api/v1/widget/customer/${id}`, { headers: sk }), 404, 'NOT_FOUND');
    expectError(await call(env, 'POST', '/api/v1/widget/session', { headers: sk, body: { user_id: id } }), 404, 'NOT_FOUND');
  });

  it('hides another merchant\'s customers behind 404, and keeps them', async () => {
    const other = await registerMerchant(env);
    const otherSk = { 'x-api-key': (await createKey(env, other)).key };
    const { id } = (await create({ ...ama, email_address: 'theirs@example.com' }, otherSk)).body.data;
    expectError(await get(id), 404, 'NOT_FOUND');
    expectError(await call(env, 'DELETE', `/api/v1/widget/customer/${id}`, { headers: sk }), 404, 'NOT_FOUND');
    expect((await get(id, otherSk)).status).toBe(200);
    // The same name and e-mail at another merchant is another customer.
    const mine = await create({ ...ama, email_address: 'theirs@example.com' });
    expect(mine.status).toBe(201);
    expect(mine.body.data.id).not.toBe(id);
  });

  it('refuses a public key with 403 FORBIDDEN and a missing or revoked key with 401', async () => {
    const pk = await createKey(env, merchant, { key_type: 'public', domains: [] });
    const { id } = (await create({ ...ama, email_address: 'keys@example.com' })).body.data;
    const before = snapshot(env.backend.store);
    expectError(await create(ama, { 'x-api-key': pk.key }), 403, 'FORBIDDEN');
    expectError(await get(id, { 'x-api-key': pk.key }), 403, 'FORBIDDEN');
    expectError(await call(env, 'DELETE', `/api/v1/widget/customer/${id}`, { headers: { 'x-api-key': pk.key } }), 403, 'FORBIDDEN');
    expectError(await create(ama, {}), 401, 'UNAUTHORIZED');
    expect(snapshot(env.backend.store)).toEqual(before);

    const revocable = await createKey(env, merchant);
    await call(env, 'DELETE', `/api/v1/merchant/apikeys/${revocable.id}`, { headers: merchant.auth });
    expectError(await get(id, { 'x-api-key': revocable.key }), 401, 'UNAUTHORIZED');
  });

  it('refuses bad JSON, missing fields and bad formats with VALIDATION_ERROR, creating nothing', async () => {
    const before = snapshot(env.backend.store);
    for (const body of [
      {},
      { first_name: 'Ama', last_name: 'Mensah' },
      { ...ama, email_address: 'not-an-email' },
      { ...ama, first_name: 7 },
      { ...ama, birth_date: '12/04/1990' },
      { ...ama, birth_date: '1990-02-30' },
      { ...ama, address_country_code: 'GH' },
      { ...ama, mobile_number: '0201234567' },
      [ama],
    ]) {
      expectError(await create(body), 400, 'VALIDATION_ERROR');
    }
    expectError(await call(env, 'POST', '/api/v1/widget/customer', { headers: sk, rawBody: '{"first_name":' }), 400, 'VALIDATION_ERROR');
    expect(snapshot(env.backend.store)).toEqual(before);
  });
});

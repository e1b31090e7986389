import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { createShop, signIn, type Shop } from './helpers/interactive.js';

describe.each(MODES)('SEP-12 customers at the anchor, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Shop;
  let merchantToken: string;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  beforeAll(async () => {
    env = await start({ seed: 21 });
    shop = await createShop(env);
    // The widget backend signs in with the merchant's own Stellar key; so can a test.
    merchantToken = await signIn(env, Keypair.fromSecret(shop.merchant.stellar_secret));
  });
  afterAll(() => env.close());

  it("shows the widget backend's customer under the same id", async () => {
    const anchor = await call(env, 'GET', `/anchor/customer?id=${shop.customer.id}`, { headers: bearer(merchantToken) });
    const widget = await call(env, 'GET', `/api/v1/widget/customer/${shop.customer.id}`, { headers: { 'x-api-key': shop.secretKey } });
    expect(anchor.status).toBe(200);
    expect(anchor.body).toEqual(widget.body.data);
    expect(anchor.body).toMatchObject({ id: shop.customer.id, status: 'ACCEPTED' });
    expect(anchor.body.provided_fields.first_name).toEqual({ type: 'string', description: 'given name', status: 'ACCEPTED' });
  });

  it('creates a customer with PUT (202 {id}) that the widget backend then sees', async () => {
    const put = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(merchantToken),
      body: { first_name: 'Kofi', last_name: 'Boateng', email_address: 'kofi@example.com', account: 'ignored' },
    });
    expect(put.status).toBe(202);
    expect(Object.keys(put.body)).toEqual(['id']);
    const widget = await call(env, 'GET', `/api/v1/widget/customer/${put.body.id}`, { headers: { 'x-api-key': shop.secretKey } });
    expect(widget.status).toBe(200);
    expect(widget.body.data.status).toBe('ACCEPTED');
  });

  it('takes multipart bodies and adds missing fields to a NEEDS_INFO customer with PUT {id}', async () => {
    const form = new FormData();
    form.set('first_name', 'Esi');
    form.set('last_name', 'NeedsInfo');
    form.set('email_address', 'esi@example.com');
    const created = await fetch(`${env.origin}/anchor/customer`, { method: 'PUT', headers: bearer(merchantToken), body: form });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    const before = await call(env, 'GET', `/anchor/customer?id=${id}`, { headers: bearer(merchantToken) });
    expect(before.body.status).toBe('NEEDS_INFO');
    expect(Object.keys(before.body.fields)).toEqual(['birth_date', 'address', 'city', 'address_country_code', 'mobile_number']);
    const more = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(merchantToken),
      body: { id, birth_date: '1990-04-01', address: '1 Ring Rd', city: 'Accra', address_country_code: 'GHA', mobile_number: '+233201111111' },
    });
    expect(more.status).toBe(202);
    expect(more.body).toEqual({ id });
    const after = await call(env, 'GET', `/anchor/customer?id=${id}`, { headers: bearer(merchantToken) });
    expect(after.body.status).toBe('ACCEPTED');
    expect(after.body.provided_fields.mobile_number.status).toBe('VERIFICATION_REQUIRED');
  });

  it('refuses invalid fields with 400 {error} and stores nothing', async () => {
    const count = env.backend.store.customers.size;
    const res = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(merchantToken),
      body: { first_name: 'Yaw', last_name: 'Asante', email_address: 'not-an-email' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringMatching(/^email_address: /) });
    expect(env.backend.store.customers.size).toBe(count);
  });

  it("keeps another account away from a merchant's customers (404)", async () => {
    const stranger = await signIn(env, Keypair.random());
    for (const [method, path, body] of [
      ['GET', `/anchor/customer?id=${shop.customer.id}`, undefined],
      ['PUT', '/anchor/customer', { id: shop.customer.id, city: 'Kumasi' }],
      ['DELETE', `/anchor/customer/${shop.customer.id}`, undefined],
    ] as const) {
      const res = await call(env, method, path, { headers: bearer(stranger), ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ error: 'customer not found' });
    }
    expect(env.backend.store.customers.get(shop.customer.id)!.fields.city).toBeUndefined();
  });

  it("gives a direct client its own customer: NEEDS_INFO before it registers, then the record", async () => {
    const token = await signIn(env, Keypair.random());
    const before = await call(env, 'GET', '/anchor/customer', { headers: bearer(token) });
    expect(before.body).toEqual({
      status: 'NEEDS_INFO',
      fields: {
        first_name: { type: 'string', description: 'given name' },
        last_name: { type: 'string', description: 'family name' },
        email_address: { type: 'string', description: 'e-mail address' },
      },
    });
    const put = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(token),
      body: { first_name: 'Abena', last_name: 'Owusu', email_address: 'abena@example.com' },
    });
    const after = await call(env, 'GET', '/anchor/customer', { headers: bearer(token) });
    expect(after.body).toMatchObject({ id: put.body.id, status: 'ACCEPTED' });
  });

  it('deletes a customer (200 {message}); the id is unusable on both surfaces afterwards', async () => {
    const { body } = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(merchantToken),
      body: { first_name: 'Akua', last_name: 'Darko', email_address: 'akua@example.com' },
    });
    const session = await call(env, 'POST', '/api/v1/widget/session', { headers: { 'x-api-key': shop.secretKey }, body: { user_id: body.id } });
    expect(session.status).toBe(201);
    const del = await call(env, 'DELETE', `/anchor/customer/${body.id}`, { headers: bearer(merchantToken) });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: `customer ${body.id} deleted` });
    expect((await call(env, 'GET', `/anchor/customer?id=${body.id}`, { headers: bearer(merchantToken) })).status).toBe(404);
    expect((await call(env, 'GET', `/api/v1/widget/customer/${body.id}`, { headers: { 'x-api-key': shop.secretKey } })).status).toBe(404);
    expect(env.backend.store.sessions.has(session.body.data.session_id)).toBe(false);
  });

  it('needs a SEP-10 token (403 authentication_required)', async () => {
    const res = await call(env, 'PUT', '/anchor/customer', { body: { first_name: 'A', last_name: 'B', email_address: 'a@b.co' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ type: 'authentication_required', error: 'missing Authorization: Bearer <SEP-10 token>' });
  });
});

import { Keypair, MuxedAccount, Account } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshot } from './helpers/merchant.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { createShop, merchantFields, signIn, type Shop } from './helpers/interactive.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const qs = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** SEP-12's GET /customer answer: `status` always; `id`, `fields`, `provided_fields`, `message` as SEP-12 types them. */
function expectSep12Customer(body: any) {
  expect(['ACCEPTED', 'PROCESSING', 'NEEDS_INFO', 'REJECTED']).toContain(body.status);
  for (const key of Object.keys(body)) expect(['id', 'status', 'fields', 'provided_fields', 'message']).toContain(key);
  if ('id' in body) expect(typeof body.id).toBe('string');
  if (body.status === 'NEEDS_INFO') expect(typeof body.fields).toBe('object');
  for (const field of Object.values<any>(body.fields ?? {})) {
    expect(['string', 'binary', 'number', 'date']).toContain(field.type);
    expect(typeof field.description).toBe('string');
  }
  for (const field of Object.values<any>(body.provided_fields ?? {})) {
    expect(['string', 'binary', 'number', 'date']).toContain(field.type);
    expect(['ACCEPTED', 'PROCESSING', 'REJECTED', 'VERIFICATION_REQUIRED']).toContain(field.status);
  }
}

describe.each(MODES)('SEP-12 customers at the anchor, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Shop;
  /** The merchant backend's own Stellar account (any keypair it holds). */
  const backendKeys = Keypair.random();
  let backend: string;
  beforeAll(async () => {
    env = await start({ seed: 21 });
    shop = await createShop(env);
    backend = await signIn(env, backendKeys);
  });
  afterAll(() => env.close());

  it("shows the widget backend's customer under the same id to the merchant's backend, with a session for it", async () => {
    const fields = await merchantFields(env, shop);
    const anchor = await call(env, 'GET', `/anchor/customer?id=${shop.customer.id}&${qs(fields)}`, { headers: bearer(backend) });
    const widget = await call(env, 'GET', `/api/v1/widget/customer/${shop.customer.id}`, { headers: { 'x-api-key': shop.secretKey } });
    expect(anchor.status).toBe(200);
    expectSep12Customer(anchor.body);
    expect(anchor.body).toEqual(widget.body.data);
    expect(anchor.body).toMatchObject({ id: shop.customer.id, status: 'ACCEPTED' });
    expect(anchor.body.provided_fields.first_name).toEqual({ type: 'string', description: 'given name', status: 'ACCEPTED' });
    // Without `id`, the merchant fields name the customer: the session's.
    const bySession = await call(env, 'GET', `/anchor/customer?${qs(fields)}`, { headers: bearer(backend) });
    expect(bySession.body).toEqual(anchor.body);
  });

  it("keeps a widget customer from anyone without the merchant's fields for it (404 as for an unknown id)", async () => {
    const other = await createShop(env);
    const otherCustomer = await merchantFields(env, shop, (await call(env, 'POST', '/api/v1/widget/customer', {
      headers: { 'x-api-key': shop.secretKey },
      body: { first_name: 'Kojo', last_name: 'Asare', email_address: 'kojo@example.com' },
    })).body.data.id);
    const theirs = await merchantFields(env, other);
    const before = snapshot(env.backend.store);
    for (const query of [
      '',
      // The session is for another customer of the same merchant.
      `&${qs(otherCustomer)}`,
      // Another merchant's valid fields.
      `&${qs(theirs)}`,
    ]) {
      for (const [method, path, body] of [
        ['GET', `/anchor/customer?id=${shop.customer.id}${query}`, undefined],
        ['DELETE', `/anchor/customer/${shop.customer.id}?${query.slice(1)}`, undefined],
      ] as const) {
        const res = await call(env, method, path, { headers: bearer(backend), ...(body ? { body } : {}) });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({ error: 'customer not found' });
      }
      const put = await call(env, 'PUT', '/anchor/customer', {
        headers: bearer(backend),
        body: { id: shop.customer.id, city: 'Kumasi', ...Object.fromEntries(new URLSearchParams(query.slice(1))) },
      });
      expect(put.status).toBe(404);
    }
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it("creates a customer with PUT and the merchant fields: the merchant's, seen at the widget backend", async () => {
    const put = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(backend),
      body: { first_name: 'Kofi', last_name: 'Boateng', email_address: 'kofi@example.com', ...(await merchantFields(env, shop)) },
    });
    expect(put.status).toBe(202);
    expect(Object.keys(put.body)).toEqual(['id']);
    expect(env.backend.store.customers.get(put.body.id)).toMatchObject({ merchant_id: shop.merchant.id, account: backendKeys.publicKey() });
    const widget = await call(env, 'GET', `/api/v1/widget/customer/${put.body.id}`, { headers: { 'x-api-key': shop.secretKey } });
    expect(widget.status).toBe(200);
    expect(widget.body.data.status).toBe('ACCEPTED');
    // The account that created it reads it without fields.
    expect((await call(env, 'GET', `/anchor/customer?id=${put.body.id}`, { headers: bearer(backend) })).status).toBe(200);
  });

  it('takes multipart bodies and adds missing fields to a NEEDS_INFO customer with PUT {id}', async () => {
    const form = new FormData();
    form.set('first_name', 'Esi');
    form.set('last_name', 'NeedsInfo');
    form.set('email_address', 'esi@example.com');
    const created = await fetch(`${env.origin}/anchor/customer`, { method: 'PUT', headers: bearer(backend), body: form });
    expect(created.status).toBe(202);
    const { id } = (await created.json()) as { id: string };
    const before = await call(env, 'GET', `/anchor/customer?id=${id}`, { headers: bearer(backend) });
    expectSep12Customer(before.body);
    expect(before.body.status).toBe('NEEDS_INFO');
    expect(Object.keys(before.body.fields)).toEqual(['birth_date', 'address', 'city', 'address_country_code', 'mobile_number']);
    const more = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(backend),
      body: { id, birth_date: '1990-04-01', address: '1 Ring Rd', city: 'Accra', address_country_code: 'GHA', mobile_number: '+233201111111' },
    });
    expect(more.status).toBe(202);
    expect(more.body).toEqual({ id });
    const after = await call(env, 'GET', `/anchor/customer?id=${id}`, { headers: bearer(backend) });
    expectSep12Customer(after.body);
    expect(after.body.status).toBe('ACCEPTED');
    expect(after.body.provided_fields.mobile_number.status).toBe('VERIFICATION_REQUIRED');
  });

  it('refuses invalid fields, bad merchant fields and a memo or account other than the token’s with 400/401/403, storing nothing', async () => {
    const fields = await merchantFields(env, shop);
    const person = { first_name: 'Yaw', last_name: 'Asante', email_address: 'yaw@example.com' };
    const cases: [Record<string, unknown>, number, string | RegExp][] = [
      [{ ...person, email_address: 'not-an-email' }, 400, /^email_address: /],
      [{ ...person, merchant_id: shop.merchant.id }, 400, 'session_id, session_token, api_key, user_id: required with the other merchant fields (send all five, or none)'],
      [{ ...person, ...fields, session_token: 'wrong' }, 401, 'invalid session'],
      [{ ...person, ...fields, api_key: shop.secretKey }, 403, 'api_key: not an active public key'],
      [{ ...person, ...fields, merchant_id: 'nope' }, 403, 'merchant_id: unknown merchant'],
      [{ ...person, ...fields, user_id: 'someone-else' }, 403, "user_id: not the session's customer"],
      [{ ...person, account: Keypair.random().publicKey() }, 400, "account: does not match the SEP-10 token's account"],
      [{ ...person, memo: 'abc' }, 400, 'memo: must be an id memo (a positive 64-bit integer)'],
      [{ ...person, memo: '12', memo_type: 'text' }, 400, 'memo_type: only id memos are supported'],
    ];
    const before = snapshot(env.backend.store);
    for (const [body, status, error] of cases) {
      const res = await call(env, 'PUT', '/anchor/customer', { headers: bearer(backend), body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(Object.keys(res.body)).toEqual(['error']);
      if (typeof error === 'string') expect(res.body.error).toBe(error);
      else expect(res.body.error).toMatch(error);
    }
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it('refuses a memo that disagrees with the token’s memo (400) and keeps each memo’s customers apart', async () => {
    const shared = Keypair.random();
    const alice = await signIn(env, shared, '&memo=1001');
    const put = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(alice),
      body: { first_name: 'Alice', last_name: 'Mensah', email_address: 'alice@example.com', memo: '1001', memo_type: 'id' },
    });
    expect(put.status).toBe(202);
    const wrong = await call(env, 'GET', `/anchor/customer?id=${put.body.id}&memo=1002`, { headers: bearer(alice) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'memo: does not match the memo of the SEP-10 token' });
    const bob = await signIn(env, shared, '&memo=1002');
    expect((await call(env, 'GET', `/anchor/customer?id=${put.body.id}`, { headers: bearer(bob) })).status).toBe(404);
    // A muxed account's memo is its id.
    const muxed = new MuxedAccount(new Account(shared.publicKey(), '0'), '77');
    const challenge = await call(env, 'GET', `/anchor/auth?account=${muxed.accountId()}`);
    expect(challenge.status).toBe(200);
    const { TransactionBuilder } = await import('@stellar/stellar-sdk');
    const tx = TransactionBuilder.fromXDR(challenge.body.transaction, challenge.body.network_passphrase);
    tx.sign(shared);
    const token = (await call(env, 'POST', '/anchor/auth', { body: { transaction: tx.toXDR() } })).body.token as string;
    const mux = await call(env, 'GET', '/anchor/customer?memo=78', { headers: bearer(token) });
    expect(mux.status).toBe(400);
    expect((await call(env, 'GET', '/anchor/customer?memo=77', { headers: bearer(token) })).status).toBe(200);
  });

  it('gives a direct client its own customer: NEEDS_INFO before it registers, then the record; nobody else sees it', async () => {
    const wallet = Keypair.random();
    const token = await signIn(env, wallet);
    const before = await call(env, 'GET', '/anchor/customer', { headers: bearer(token) });
    expectSep12Customer(before.body);
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
      body: { first_name: 'Abena', last_name: 'Owusu', email_address: 'abena@example.com', account: wallet.publicKey() },
    });
    expect(env.backend.store.customers.get(put.body.id)).toMatchObject({ merchant_id: null, account: wallet.publicKey() });
    const after = await call(env, 'GET', '/anchor/customer', { headers: bearer(token) });
    expect(after.body).toMatchObject({ id: put.body.id, status: 'ACCEPTED' });
    const stranger = await signIn(env, Keypair.random());
    expect((await call(env, 'GET', `/anchor/customer?id=${put.body.id}`, { headers: bearer(stranger) })).status).toBe(404);
  });

  it('deletes a customer by id (200 {message}); the id is unusable on both surfaces and its sessions end', async () => {
    const fields = await merchantFields(env, shop);
    const { body } = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(backend),
      body: { first_name: 'Akua', last_name: 'Darko', email_address: 'akua@example.com', ...fields },
    });
    const session = await call(env, 'POST', '/api/v1/widget/session', { headers: { 'x-api-key': shop.secretKey }, body: { user_id: body.id } });
    expect(session.status).toBe(201);
    const del = await call(env, 'DELETE', `/anchor/customer/${body.id}`, { headers: bearer(backend) });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: `customer ${body.id} deleted` });
    expect((await call(env, 'GET', `/anchor/customer?id=${body.id}`, { headers: bearer(backend) })).status).toBe(404);
    expect((await call(env, 'GET', `/api/v1/widget/customer/${body.id}`, { headers: { 'x-api-key': shop.secretKey } })).status).toBe(404);
    expect(env.backend.store.sessions.has(session.body.data.session_id)).toBe(false);
  });

  it("deletes an account's customer data with SEP-12's DELETE /customer/{account}; another account's is 404", async () => {
    const wallet = Keypair.random();
    const token = await signIn(env, wallet);
    const a = await call(env, 'PUT', '/anchor/customer', { headers: bearer(token), body: { first_name: 'Efua', last_name: 'Ansah', email_address: 'efua@example.com' } });
    const b = await call(env, 'PUT', '/anchor/customer', { headers: bearer(token), body: { first_name: 'Efua', last_name: 'Ansah', email_address: 'efua2@example.com' } });
    const before = snapshot(env.backend.store);
    const theirs = await call(env, 'DELETE', `/anchor/customer/${wallet.publicKey()}`, { headers: bearer(backend) });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ error: 'customer not found' });
    expect(snapshot(env.backend.store)).toEqual(before);

    const del = await call(env, 'DELETE', `/anchor/customer/${wallet.publicKey()}`, { headers: bearer(token) });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: `customer data of ${wallet.publicKey()} deleted` });
    for (const id of [a.body.id, b.body.id]) expect(env.backend.store.customers.has(id)).toBe(false);
    // Nothing left: 404 as SEP-12 says ("anchor has no information on the customer").
    expect((await call(env, 'DELETE', `/anchor/customer/${wallet.publicKey()}`, { headers: bearer(token) })).status).toBe(404);
  });

  it('needs a SEP-10 token (403 authentication_required)', async () => {
    const res = await call(env, 'PUT', '/anchor/customer', { body: { first_name: 'A', last_name: 'B', email_address: 'a@b.co' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ type: 'authentication_required', error: 'missing Authorization: Bearer <SEP-10 token>' });
  });
});

/**
 * One identity model on both surfaces (issue 15, section 1), as a merchant following
 * docs/guides/ meets it, over real HTTP against the standalone mock on 127.0.0.1. The merchant's
 * backend holds its secret and public keys and a Stellar keypair of its own; it never has the
 * secret of the merchant's `stellar_public_key`, and no test here reads one.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStandalone, type MockEnv } from './helpers/env.js';
import { snapshot } from './helpers/merchant.js';
import { advance, completeForm, createShop, getTransaction, merchantFields, openSession, signIn, type Shop } from './helpers/interactive.js';
import { startReceiver, type Receiver } from './helpers/receiver.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('one identity model for the widget backend and the anchor (standalone, 127.0.0.1)', () => {
  let env: MockEnv;
  let shop: Shop;
  let other: Shop;
  let receiver: Receiver;
  /** The merchant backend's own Stellar account, and its SEP-10 token. */
  const backendKeys = Keypair.random();
  let backend: string;
  const widget = (s: Shop) => ({ 'x-api-key': s.secretKey });
  const newCustomer = async (s: Shop, email: string) => {
    const res = await call(env, 'POST', '/api/v1/widget/customer', { headers: widget(s), body: { first_name: 'Ama', last_name: 'Owusu', email_address: email } });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    env = await startStandalone({ seed: 151 });
    receiver = await startReceiver();
    shop = await createShop(env);
    other = await createShop(env);
    backend = await signIn(env, backendKeys);
    const login = await call(env, 'POST', '/api/v1/merchant/login', { body: { email: shop.merchant.email, password: 'correct horse battery' } });
    const hook = await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: bearer(login.body.data.access_token), body: { url: receiver.url } });
    expect(hook.status).toBe(200);
  });
  afterAll(async () => {
    await env.close();
    await receiver.close();
  });

  it('uses a widget customer as user_id at the anchor with the merchant fields, and reads it at SEP-12', async () => {
    const id = await newCustomer(shop, 'widget-first@example.com');
    const fields = await merchantFields(env, shop, id);
    const read = await call(env, 'GET', `/anchor/customer?id=${id}&${new URLSearchParams(fields)}`, { headers: bearer(backend) });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, status: 'ACCEPTED' });

    const wallet = Keypair.random().publicKey();
    const buy = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: bearer(backend),
      body: { asset_code: 'USDC', amount: '100', account: wallet, ...fields },
    });
    expect(buy.status).toBe(200);
    await completeForm(env, buy.body.id);
    await call(env, 'POST', `/_mock/mobile-money/${buy.body.id}/approve`);
    await advance(env, 7);
    expect(await getTransaction(env, backend, buy.body.id)).toMatchObject({ status: 'completed', to: wallet });
    // The merchant's: an order in its list, its webhook, its volume.
    const order = [...env.backend.store.orders.values()].find((o) => o.transaction_id === buy.body.id);
    expect(order).toMatchObject({ merchant_id: shop.merchant.id, status: 'completed', type: 'onramp' });
    await expect.poll(() => receiver.received.map((r) => JSON.parse(r.body).order_id)).toContain(order!.id);
    expect(Object.values(shop.merchant.daily_volume).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(100);
  });

  it("uses a customer the merchant's backend made at the anchor at the widget backend: GET, session, interactive, DELETE", async () => {
    const put = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(backend),
      body: { first_name: 'Kwesi', last_name: 'Appiah', email_address: 'kwesi@example.com', ...(await merchantFields(env, shop)) },
    });
    expect(put.status).toBe(202);
    const id = put.body.id as string;
    expect((await call(env, 'GET', `/api/v1/widget/customer/${id}`, { headers: widget(shop) })).body.data).toMatchObject({ id, status: 'ACCEPTED' });
    expect((await call(env, 'GET', `/api/v1/widget/customer/${id}`, { headers: widget(other) })).status).toBe(404);
    const session = await openSession(env, shop, id);
    const sell = await call(env, 'POST', '/api/v1/widget/withdraw/interactive', {
      headers: widget(shop),
      body: { asset_code: 'USDC', user_id: id, api_key: shop.publicKey, onchain_amount: 5 },
    });
    expect(sell.status).toBe(200);
    expect(env.backend.control.anchor.transaction(sell.body.data.id)).toMatchObject({ merchant_id: shop.merchant.id, customer_id: id });

    // Deleted at the widget backend: 404 at both surfaces, and its sessions end.
    expect((await call(env, 'DELETE', `/api/v1/widget/customer/${id}`, { headers: widget(shop) })).body.data).toEqual({ deleted: true });
    expect((await call(env, 'GET', `/anchor/customer?id=${id}`, { headers: bearer(backend) })).status).toBe(404);
    expect((await call(env, 'GET', `/api/v1/widget/customer/${id}`, { headers: widget(shop) })).status).toBe(404);
    const stale = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: bearer(backend),
      body: { asset_code: 'USDC', merchant_id: shop.merchant.id, session_id: session.session_id, session_token: session.session_token, api_key: shop.publicKey, user_id: id },
    });
    expect(stale.status).toBe(401);
    expect(env.backend.store.sessions.has(session.session_id)).toBe(false);
  });

  it('deletes a widget customer at the anchor (merchant fields): unusable at both surfaces', async () => {
    const id = await newCustomer(shop, 'deleted-at-anchor@example.com');
    const fields = await merchantFields(env, shop, id);
    const del = await call(env, 'DELETE', `/anchor/customer/${id}?${new URLSearchParams(fields)}`, { headers: bearer(backend) });
    expect(del.status).toBe(200);
    expect((await call(env, 'GET', `/api/v1/widget/customer/${id}`, { headers: widget(shop) })).status).toBe(404);
    expect((await call(env, 'POST', '/api/v1/widget/session', { headers: widget(shop), body: { user_id: id } })).status).toBe(404);
    expect([...env.backend.store.sessions.values()].some((s) => s.user_id === id)).toBe(false);
  });

  it("lets the first merchant that presents a wallet's own customer adopt it; another merchant then gets 404", async () => {
    const wallet = Keypair.random();
    const token = await signIn(env, wallet);
    const put = await call(env, 'PUT', '/anchor/customer', { headers: bearer(token), body: { first_name: 'Adwoa', last_name: 'Sarpong', email_address: 'adwoa@example.com' } });
    const id = put.body.id as string;
    expect(env.backend.store.customers.get(id)).toMatchObject({ merchant_id: null, account: wallet.publicKey() });
    // A refused use adopts nothing: an amount the anchor refuses after the customer was found.
    const before = snapshot(env.backend.store);
    const refused = await call(env, 'POST', '/api/v1/widget/deposit/interactive', {
      headers: widget(other),
      body: { asset_code: 'USDC', user_id: id, api_key: other.publicKey, fiat_amount: 2 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect(snapshot(env.backend.store)).toEqual(before);

    expect((await call(env, 'GET', `/api/v1/widget/customer/${id}`, { headers: widget(shop) })).status).toBe(200);
    expect(env.backend.store.customers.get(id)!.merchant_id).toBe(shop.merchant.id);
    for (const [method, path, body] of [
      ['GET', `/api/v1/widget/customer/${id}`, undefined],
      ['DELETE', `/api/v1/widget/customer/${id}`, undefined],
      ['POST', '/api/v1/widget/session', { user_id: id }],
    ] as const) {
      const res = await call(env, method, path, { headers: widget(other), ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    // The wallet that made it still reaches it at the anchor.
    expect((await call(env, 'GET', `/anchor/customer?id=${id}`, { headers: bearer(token) })).status).toBe(200);
  });

  it("adopts a wallet's own customer when a merchant opens a session for it, and keeps the wallet's access", async () => {
    const wallet = Keypair.random();
    const token = await signIn(env, wallet);
    const put = await call(env, 'PUT', '/anchor/customer', { headers: bearer(token), body: { first_name: 'Yaw', last_name: 'Darko', email_address: 'yaw.darko@example.com' } });
    const session = await openSession(env, other, put.body.id);
    expect(session.merchant_id).toBe(other.merchant.id);
    expect(env.backend.store.customers.get(put.body.id)).toMatchObject({ merchant_id: other.merchant.id, account: wallet.publicKey() });
    expect((await call(env, 'POST', '/api/v1/widget/session', { headers: widget(shop), body: { user_id: put.body.id } })).status).toBe(404);
    // The merchant now reaches it at the anchor with its fields from any account; the wallet still without.
    const fields = { merchant_id: other.merchant.id, session_id: session.session_id, session_token: session.session_token, api_key: other.publicKey, user_id: put.body.id };
    expect((await call(env, 'GET', `/anchor/customer?${new URLSearchParams(fields)}`, { headers: bearer(backend) })).body).toMatchObject({ id: put.body.id });
    expect((await call(env, 'GET', `/anchor/customer?id=${put.body.id}`, { headers: bearer(token) })).status).toBe(200);
  });

  it('attributes nothing to a merchant whose session has expired, and names no merchant by merchant_id alone', async () => {
    const fields = await merchantFields(env, shop);
    await advance(env, 30 * 60);
    backend = await signIn(env, backendKeys);
    const before = snapshot(env.backend.store);
    const count = env.backend.store.anchor.transactions.size;
    const late = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', { headers: bearer(backend), body: { asset_code: 'USDC', ...fields } });
    expect(late.status).toBe(401);
    expect(late.body).toEqual({ error: 'session expired' });
    const alone = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', { headers: bearer(backend), body: { asset_code: 'USDC', merchant_id: shop.merchant.id } });
    expect(alone.status).toBe(400);
    expect(env.backend.store.anchor.transactions.size).toBe(count);
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it("answers GET /transaction without merchant fields only to the account that started it; a transaction through the widget backend is the service's", async () => {
    const fields = await merchantFields(env, shop);
    const mine = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', { headers: bearer(backend), body: { asset_code: 'USDC', ...fields } });
    expect((await call(env, 'GET', `/anchor/transaction?id=${mine.body.id}`, { headers: bearer(backend) })).status).toBe(200);
    const viaWidget = await call(env, 'POST', '/api/v1/widget/deposit/interactive', {
      headers: widget(shop),
      body: { asset_code: 'USDC', user_id: shop.customer.id, api_key: shop.publicKey },
    });
    expect(viaWidget.body.data.url).toMatch(/\/interactive\?token=[0-9a-f]{48}$/);
    // The control API names the account each transaction belongs to.
    expect(env.backend.control.anchor.transaction(mine.body.id).account).toBe(backendKeys.publicKey());
    expect((await call(env, 'GET', `/_mock/transactions/${viaWidget.body.data.id}`)).body.account).toBe(shop.merchant.stellar_public_key);
    const stranger = await signIn(env, Keypair.random());
    for (const [token, id] of [
      [stranger, mine.body.id],
      [backend, viaWidget.body.data.id],
    ]) {
      const res = await call(env, 'GET', `/anchor/transaction?id=${id}`, { headers: bearer(token) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'transaction not found' });
    }
    const list = await call(env, 'GET', '/anchor/transactions?asset_code=USDC', { headers: bearer(stranger) });
    expect(list.body).toEqual({ transactions: [] });
  });
  it("lets the merchant's backend read a widget-backend transaction at the anchor with the merchant fields of its customer's session", async () => {
    const id = await newCustomer(shop, 'reads-status@example.com');
    const wallet = Keypair.random().publicKey();
    const buy = await call(env, 'POST', '/api/v1/widget/deposit/interactive', {
      headers: widget(shop),
      body: { asset_code: 'USDC', user_id: id, api_key: shop.publicKey, fiat_amount: 40, destination_address: wallet },
    });
    expect(buy.status).toBe(200);
    const txId = buy.body.data.id as string;
    // Another customer's transaction of the same merchant, and another merchant's.
    const sibling = await call(env, 'POST', '/api/v1/widget/withdraw/interactive', {
      headers: widget(shop),
      body: { asset_code: 'USDC', user_id: shop.customer.id, api_key: shop.publicKey, onchain_amount: 5 },
    });
    const foreign = await call(env, 'POST', '/api/v1/widget/withdraw/interactive', {
      headers: widget(other),
      body: { asset_code: 'USDC', user_id: other.customer.id, api_key: other.publicKey, onchain_amount: 5 },
    });

    // The merchant's backend: a Stellar keypair of its own and a session it opens with POST /api/v1/widget/session.
    const reader = Keypair.random();
    let token = await signIn(env, reader);
    expect((await call(env, 'GET', `/anchor/transaction?id=${txId}`, { headers: bearer(token) })).status).toBe(404);
    const fields = await merchantFields(env, shop, id);
    const read = (query: string, t = token) => call(env, 'GET', `/anchor/transaction?${query}&${new URLSearchParams(fields)}`, { headers: bearer(t) });
    const first = await read(`id=${txId}`);
    expect(first.status).toBe(200);
    expect(first.body.transaction).toMatchObject({ id: txId, kind: 'deposit', status: 'incomplete', to: wallet });

    await completeForm(env, txId);
    await call(env, 'POST', `/_mock/mobile-money/${txId}/approve`);
    await advance(env, 2);
    const record = (await read(`id=${txId}`)).body.transaction;
    for (const query of [`id=${txId}`, `stellar_transaction_id=${record.stellar_transaction_id}`, `external_transaction_id=${record.external_transaction_id}`]) {
      const res = await read(query);
      expect(res.status, query).toBe(200);
      expect(res.body.transaction, query).toMatchObject({ id: txId, status: 'pending_stellar' });
    }
    const list = await call(env, 'GET', `/anchor/transactions?asset_code=USDC&${new URLSearchParams(fields)}`, { headers: bearer(token) });
    expect(list.body.transactions.map((t: { id: string }) => t.id)).toEqual([txId]);
    const sells = await call(env, 'GET', `/anchor/transactions?asset_code=USDC&kind=withdrawal&${new URLSearchParams(fields)}`, { headers: bearer(token) });
    expect(sells.body).toEqual({ transactions: [] });

    // The session is its customer's: the merchant's other customer's transaction, and another merchant's, do not exist for it.
    for (const other of [sibling.body.data.id, foreign.body.data.id]) {
      const res = await read(`id=${other}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'transaction not found' });
    }
    // Fields that do not agree, or a wrong session, are refused as at SEP-12.
    const refused = [
      [{ ...fields, api_key: other.publicKey }, 403],
      [{ ...fields, session_token: 'wrong' }, 401],
      [{ merchant_id: fields.merchant_id }, 400],
    ] as const;
    for (const [bad, status] of refused) {
      const res = await call(env, 'GET', `/anchor/transaction?id=${txId}&${new URLSearchParams(bad)}`, { headers: bearer(token) });
      expect(res.status, JSON.stringify(bad)).toBe(status);
      expect(res.body.error).toEqual(expect.any(String));
    }
    // Once the session has expired: 401, on the list too.
    await advance(env, 30 * 60);
    token = await signIn(env, reader);
    const late = await read(`id=${txId}`);
    expect(late.status).toBe(401);
    expect(late.body).toEqual({ error: 'session expired' });
    expect((await call(env, 'GET', `/anchor/transactions?asset_code=USDC&${new URLSearchParams(fields)}`, { headers: bearer(token) })).status).toBe(401);
  });
});

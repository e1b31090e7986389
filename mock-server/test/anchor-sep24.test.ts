import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCustomerStatus } from '../src/customers.js';
import { call, MODES, startStandalone, type MockEnv } from './helpers/env.js';
import { snapshot } from './helpers/merchant.js';
import {
  advance,
  completeForm,
  createShop,
  getTransaction,
  expectSep24Transaction,
  merchantFields,
  openSession as newSession,
  SHOP_ORIGIN,
  signIn,
  viewTransaction,
  type Shop,
} from './helpers/interactive.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(MODES)('SEP-24 at the anchor, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Shop;
  let other: Shop;
  let client: Keypair;
  let token: string;
  beforeAll(async () => {
    env = await start({ seed: 31 });
    shop = await createShop(env);
    other = await createShop(env);
    client = Keypair.random();
    token = await signIn(env, client);
  });
  afterAll(() => env.close());

  it('describes USDC deposits and withdrawals at GET /info', async () => {
    const res = await call(env, 'GET', '/anchor/info');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      deposit: { USDC: { enabled: true, min_amount: 10, max_amount: 5000 } },
      withdraw: { USDC: { enabled: true, min_amount: 1 } },
      fee: { enabled: false },
      features: { account_creation: false, claimable_balances: false },
    });
  });

  it('starts a deposit from a plain multipart request (FormData) with the merchant fields', async () => {
    const form = new FormData();
    form.set('asset_code', 'USDC');
    form.set('amount', '120.50');
    for (const [name, value] of Object.entries(await merchantFields(env, shop))) form.set(name, value);
    const res = await fetch(`${env.origin}/anchor/transactions/deposit/interactive`, { method: 'POST', headers: bearer(token), body: form });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { type: string; url: string; id: string };
    expect(body).toEqual({
      type: 'interactive_customer_info_needed',
      url: expect.stringMatching(new RegExp(`^${env.origin}/interactive\\?token=[0-9a-f]{48}$`)),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const tx = await getTransaction(env, token, body.id);
    expect(tx).toMatchObject({
      id: body.id,
      kind: 'deposit',
      status: 'incomplete',
      amount_in: null,
      amount_out: null,
      amount_fee: null,
      more_info_url: `${env.origin}/interactive/transaction?id=${body.id}`,
      // A deposit's USDC goes to the authenticated account unless `account` names another.
      to: client.publicKey(),
      refunded: false,
    });
    expect(Date.parse(tx.started_at)).toBe(env.backend.clock.now());
    expect(tx).not.toHaveProperty('message');
    const detail = env.backend.control.anchor.transaction(body.id);
    expect(detail).toMatchObject({ merchant_id: shop.merchant.id, customer_id: shop.customer.id });
    expect(env.backend.store.anchor.transactions.get(body.id)!.embed_origins).toEqual([SHOP_ORIGIN]);
  });

  it('starts a withdrawal from a form-urlencoded request and a deposit from JSON', async () => {
    const fields = await merchantFields(env, shop);
    const urlencoded = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', {
      headers: { ...bearer(token), 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: new URLSearchParams({ asset_code: 'USDC', amount: '12', lang: 'en', ...fields }).toString(),
    });
    expect(urlencoded.status).toBe(200);
    const withdrawal = await getTransaction(env, token, urlencoded.body.id);
    expect(withdrawal).toMatchObject({ kind: 'withdrawal', status: 'incomplete', withdraw_anchor_account: null, withdraw_memo: null });

    const wallet = Keypair.random().publicKey();
    const json = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: bearer(token),
      body: { asset_code: 'USDC', amount: 50, account: wallet, ...fields },
    });
    expect(json.status).toBe(200);
    expect((await getTransaction(env, token, json.body.id)).to).toBe(wallet);
  });

  it('lets a direct client on the test network leave the merchant fields out (starter fees, no order)', async () => {
    const res = await call(env, 'POST', '/anchor/transactions/deposit/interactive', { headers: bearer(token), body: { asset_code: 'USDC' } });
    expect(res.status).toBe(200);
    expect(env.backend.control.anchor.transaction(res.body.id)).toMatchObject({ merchant_id: null, customer_id: null });
    const tx = await completeForm(env, res.body.id, { amount: 100 });
    expect(tx).toMatchObject({ status: 'pending_user_transfer_start', amount_in: '100.00', amount_fee: '1.16' });
    expect([...env.backend.store.orders.values()].some((o) => o.transaction_id === res.body.id)).toBe(false);
  });

  it('acts for no merchant without the merchant fields: a lone user_id must be a customer the account created', async () => {
    const put = await call(env, 'PUT', '/anchor/customer', {
      headers: bearer(token),
      body: { first_name: 'Yaa', last_name: 'Boakye', email_address: 'yaa@example.com' },
    });
    const res = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', {
      headers: bearer(token),
      body: { asset_code: 'USDC', user_id: put.body.id, amount: '10' },
    });
    expect(res.status).toBe(200);
    expect(env.backend.control.anchor.transaction(res.body.id)).toMatchObject({ merchant_id: null, customer_id: put.body.id });
    const tx = await completeForm(env, res.body.id);
    expect(tx.status).toBe('pending_user_transfer_start');
    expect([...env.backend.store.orders.values()].some((o) => o.transaction_id === res.body.id)).toBe(false);
    // A widget customer of a merchant is not the account's to name.
    const before = snapshot(env.backend.store);
    const count = env.backend.store.anchor.transactions.size;
    const theirs = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', {
      headers: bearer(token),
      body: { asset_code: 'USDC', user_id: shop.customer.id },
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ error: 'customer not found' });
    expect(env.backend.store.anchor.transactions.size).toBe(count);
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it("never attributes a transaction to a merchant by its merchant_id alone or by the merchant's Stellar key", async () => {
    const volume = structuredClone(shop.merchant.daily_volume);
    const orders = env.backend.store.orders.size;
    const alone = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: bearer(token),
      body: { asset_code: 'USDC', merchant_id: shop.merchant.id, amount: '100' },
    });
    expect(alone.status).toBe(400);
    expect(alone.body).toEqual({ error: 'session_id, session_token, api_key, user_id: required with the other merchant fields (send all five, or none)' });
    // A client that knows only the merchant's public Stellar key cannot sign as it: whatever
    // it signs in with is its own account, and without fields it acts for no merchant.
    const plain = await call(env, 'POST', '/anchor/transactions/deposit/interactive', { headers: bearer(token), body: { asset_code: 'USDC', amount: '100' } });
    await completeForm(env, plain.body.id);
    await call(env, 'POST', `/_mock/mobile-money/${plain.body.id}/approve`);
    await advance(env, 7);
    expect(env.backend.control.anchor.transaction(plain.body.id)).toMatchObject({ merchant_id: null, order_id: null, transaction: { status: 'completed' } });
    expect(env.backend.store.orders.size).toBe(orders);
    expect(shop.merchant.daily_volume).toEqual(volume);
    expect([...env.backend.store.deliveries.values()].filter((d) => d.merchant_id === shop.merchant.id)).toEqual([]);
  });

  it('refuses merchant fields that do not agree, with the SEP error body, changing nothing', async () => {
    const fields = await merchantFields(env, shop);
    const otherSession = await newSession(env, other);
    const missing = 'required with the other merchant fields (send all five, or none)';
    const cases: [Record<string, unknown>, number, string][] = [
      [{ asset_code: 'EURC' }, 400, 'asset_code: only USDC is offered'],
      [{}, 400, 'asset_code: is required'],
      [{ asset_code: 'USDC', amount: 'ten' }, 400, 'amount: must be a decimal number'],
      [{ asset_code: 'USDC', account: 'GNOPE' }, 400, 'account: must be a Stellar account (G… or M…)'],
      [{ asset_code: 'USDC', amount: '5', ...fields }, 422, 'fiat amount is below the minimum of 10 GHS'],
      [{ asset_code: 'USDC', amount: '6000', ...fields }, 422, 'fiat amount is above the maximum of 5000 GHS per transaction'],
      [{ asset_code: 'USDC', ...fields, api_key: other.publicKey }, 403, 'api_key: belongs to another merchant'],
      [{ asset_code: 'USDC', ...fields, api_key: shop.secretKey }, 403, 'api_key: not an active public key'],
      [{ asset_code: 'USDC', ...fields, merchant_id: 'nope' }, 403, 'merchant_id: unknown merchant'],
      [{ asset_code: 'USDC', ...fields, merchant_id: other.merchant.id }, 403, 'api_key: belongs to another merchant'],
      [{ asset_code: 'USDC', ...fields, session_id: otherSession.session_id, session_token: otherSession.session_token }, 403, 'session_id: belongs to another merchant'],
      [{ asset_code: 'USDC', ...fields, session_token: 'wrong' }, 401, 'invalid session'],
      [{ asset_code: 'USDC', ...fields, session_token: undefined }, 400, `session_token: ${missing}`],
      [{ asset_code: 'USDC', ...fields, user_id: undefined }, 400, `user_id: ${missing}`],
      [{ asset_code: 'USDC', ...fields, user_id: other.customer.id }, 403, "user_id: not the session's customer"],
      [{ asset_code: 'USDC', api_key: shop.publicKey, user_id: shop.customer.id }, 400, `merchant_id, session_id, session_token: ${missing}`],
    ];
    const before = snapshot(env.backend.store);
    const count = env.backend.store.anchor.transactions.size;
    for (const [body, status, error] of cases) {
      const res = await call(env, 'POST', '/anchor/transactions/deposit/interactive', { headers: bearer(token), body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toEqual({ error });
    }
    expect(env.backend.store.anchor.transactions.size).toBe(count);
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it('refuses a customer whose KYC is not ACCEPTED, and an expired session', async () => {
    const fields = await merchantFields(env, shop);
    setCustomerStatus(env.backend.context, shop.customer, 'PROCESSING');
    try {
      const res = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', { headers: bearer(token), body: { asset_code: 'USDC', ...fields } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'customer KYC status is PROCESSING, not ACCEPTED' });
    } finally {
      setCustomerStatus(env.backend.context, shop.customer, 'ACCEPTED');
    }
    await advance(env, 30 * 60);
    const fresh = await signIn(env, client);
    const late = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', { headers: bearer(fresh), body: { asset_code: 'USDC', ...fields } });
    expect(late.status).toBe(401);
    expect(late.body).toEqual({ error: 'session expired' });
    token = fresh;
  });

  it('refuses a body it cannot read', async () => {
    const res = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: { ...bearer(token), 'content-type': 'text/plain' },
      rawBody: 'asset_code=USDC',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'unsupported content type text/plain; send JSON, form-urlencoded or multipart' });
  });

  it('finds its own transactions by id, Stellar hash or Mobile Money reference, and lists them; another account gets 404', async () => {
    const mine = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', { headers: bearer(token), body: { asset_code: 'USDC' } });
    const missing = await call(env, 'GET', '/anchor/transaction?id=00000000-0000-4000-8000-000000000000', { headers: bearer(token) });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'transaction not found' });
    const noId = await call(env, 'GET', '/anchor/transaction', { headers: bearer(token) });
    expect(noId.status).toBe(400);

    const list = await call(env, 'GET', '/anchor/transactions?asset_code=USDC&kind=withdrawal&limit=2', { headers: bearer(token) });
    expect(list.status).toBe(200);
    expect(list.body.transactions[0].id).toBe(mine.body.id);
    expect(list.body.transactions.every((t: { kind: string }) => t.kind === 'withdrawal')).toBe(true);
    list.body.transactions.forEach(expectSep24Transaction);
    const next = await call(env, 'GET', `/anchor/transactions?asset_code=USDC&kind=withdrawal&paging_id=${mine.body.id}`, { headers: bearer(token) });
    expect(next.body.transactions.map((t: { id: string }) => t.id)).not.toContain(mine.body.id);
    const stranger = await signIn(env, Keypair.random());
    const theirs = await call(env, 'GET', '/anchor/transactions?asset_code=USDC', { headers: bearer(stranger) });
    expect(theirs.body).toEqual({ transactions: [] });

    const wallet = Keypair.random();
    const buy = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: bearer(token),
      body: { asset_code: 'USDC', amount: '30', account: wallet.publicKey(), ...(await merchantFields(env, shop)) },
    });
    await completeForm(env, buy.body.id);
    await call(env, 'POST', `/_mock/mobile-money/${buy.body.id}/approve`);
    await advance(env, 2);
    const record = env.backend.store.anchor.transactions.get(buy.body.id)!;
    const lookups = [
      `id=${buy.body.id}`,
      `stellar_transaction_id=${record.stellar_transaction_id}`,
      `external_transaction_id=${record.external_transaction_id}`,
    ];
    for (const query of lookups) {
      const res = await call(env, 'GET', `/anchor/transaction?${query}`, { headers: bearer(token) });
      expect(res.body.transaction, query).toMatchObject({ id: buy.body.id, status: 'pending_stellar', to: wallet.publicKey() });
      expectSep24Transaction(res.body.transaction);
      // Even the wallet receiving the USDC, and the merchant's other accounts, are strangers to it.
      for (const other of [stranger, await signIn(env, wallet)]) {
        const hidden = await call(env, 'GET', `/anchor/transaction?${query}`, { headers: bearer(other) });
        expect(hidden.status, query).toBe(404);
        expect(hidden.body).toEqual({ error: 'transaction not found' });
      }
    }
  });

  it("answers another account of the merchant that sends merchant fields for the transaction's customer; other merchants' fields get 404", async () => {
    const started = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', {
      headers: bearer(token),
      body: { asset_code: 'USDC', amount: '3', ...(await merchantFields(env, shop)) },
    });
    expect(started.status).toBe(200);
    const colleague = await signIn(env, Keypair.random());
    const query = (fields: Record<string, string>) => `id=${started.body.id}&${new URLSearchParams(fields)}`;
    const read = await call(env, 'GET', `/anchor/transaction?${query(await merchantFields(env, shop))}`, { headers: bearer(colleague) });
    expect(read.status).toBe(200);
    expect(read.body.transaction).toMatchObject({ id: started.body.id, kind: 'withdrawal' });
    expectSep24Transaction(read.body.transaction);
    const foreign = await merchantFields(env, other);
    const hidden = await call(env, 'GET', `/anchor/transaction?${query(foreign)}`, { headers: bearer(colleague) });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ error: 'transaction not found' });
    const list = await call(env, 'GET', `/anchor/transactions?asset_code=USDC&${new URLSearchParams(foreign)}`, { headers: bearer(colleague) });
    expect(list.body.transactions.map((t: { id: string }) => t.id)).not.toContain(started.body.id);
  });

  it('fills SEP-24 from, to and fee_details: a withdrawal from its account from the start, to the Mobile Money number', async () => {
    const wallet = Keypair.random().publicKey();
    const sell = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', {
      headers: bearer(token),
      body: { asset_code: 'USDC', amount: '10', account: wallet, ...(await merchantFields(env, shop)) },
    });
    let tx = await getTransaction(env, token, sell.body.id);
    expectSep24Transaction(tx);
    expect(tx).toMatchObject({ kind: 'withdrawal', from: wallet, to: null, amount_fee: null });
    expect(tx).not.toHaveProperty('fee_details');
    const own = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', { headers: bearer(token), body: { asset_code: 'USDC' } });
    expect((await getTransaction(env, token, own.body.id)).from).toBe(client.publicKey());

    await completeForm(env, sell.body.id);
    tx = await getTransaction(env, token, sell.body.id);
    expectSep24Transaction(tx);
    // 10 USDC at 15.35 = 153.50 GHS; 1 % platform fee 1.54 (rounded up) + network fee 0.01 USDC (0.16) = 1.70.
    expect(tx).toMatchObject({ from: wallet, to: '+233201234567', amount_in: '10.00', amount_out: '151.80', amount_fee: '1.70', amount_fee_asset: 'iso4217:GHS' });
    expect(tx.fee_details).toEqual({
      total: '1.70',
      asset: 'iso4217:GHS',
      breakdown: [
        { name: 'Platform fee', amount: '1.54', description: '1.00 % of the amount' },
        { name: 'Stellar network fee', amount: '0.16' },
      ],
    });

    const buy = await call(env, 'POST', '/anchor/transactions/deposit/interactive', { headers: bearer(token), body: { asset_code: 'USDC', amount: '100' } });
    expect(await getTransaction(env, token, buy.body.id)).toMatchObject({ from: null, to: client.publicKey() });
    await completeForm(env, buy.body.id);
    const deposit = await getTransaction(env, token, buy.body.id);
    expectSep24Transaction(deposit);
    expect(deposit).toMatchObject({ from: '+233201234567', to: client.publicKey(), amount_fee: '1.16', fee_details: { total: '1.16', asset: 'iso4217:GHS' } });
  });
});

describe('SEP-24 on the main network', () => {
  let env: MockEnv;
  let shop: Shop;
  let token: string;
  beforeAll(async () => {
    env = await startStandalone({ seed: 32, network: 'public' });
    shop = await createShop(env);
    token = await signIn(env, Keypair.random());
  });
  afterAll(() => env.close());

  it('requires the five merchant fields (400 without them) and names the missing ones', async () => {
    const res = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: bearer(token),
      body: { asset_code: 'USDC', api_key: shop.publicKey },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'merchant_id, session_id, session_token, user_id: required on the main network' });
    const ok = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: bearer(token),
      body: { asset_code: 'USDC', ...(await merchantFields(env, shop)) },
    });
    expect(ok.status).toBe(200);
  });

  it('signs challenges for the public network and names the live USDC issuer', async () => {
    const res = await call(env, 'GET', `/anchor/auth?account=${Keypair.random().publicKey()}`);
    expect(res.body.network_passphrase).toBe('Public Global Stellar Network ; September 2015');
    const toml = await (await fetch(`${env.origin}/.well-known/stellar.toml`)).text();
    expect(toml).toContain('issuer="GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN"');
    expect(toml).toContain('status="live"');
  });
});

describe.each(MODES)('widget backend interactive endpoints, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Shop;
  let other: Shop;
  beforeAll(async () => {
    env = await start({ seed: 33 });
    shop = await createShop(env);
    other = await createShop(env);
  });
  afterAll(() => env.close());

  const post = (path: string, key: string, body: Record<string, unknown>) =>
    call(env, 'POST', `/api/v1/widget/${path}/interactive`, { headers: { 'x-api-key': key }, body });

  it('answers {type, url, id} in the envelope, the same transaction the anchor shows', async () => {
    const wallet = Keypair.random().publicKey();
    const res = await post('deposit', shop.secretKey, {
      asset_code: 'USDC',
      user_id: shop.customer.id,
      api_key: shop.publicKey,
      fiat_amount: 75,
      destination_address: wallet,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { type: 'interactive_customer_info_needed', url: expect.stringContaining(`${env.origin}/interactive?token=`), id: expect.any(String) },
      meta: { request_id: expect.stringMatching(/^req_/), timestamp: expect.any(String) },
    });
    const view = await viewTransaction(env, res.body.data.id);
    expectSep24Transaction(view);
    expect(view).toMatchObject({ kind: 'deposit', status: 'incomplete', to: wallet });
    // At the anchor it is the service's (it signed in for the merchant): anyone else gets 404.
    const token = await signIn(env, Keypair.random());
    expect((await call(env, 'GET', `/anchor/transaction?id=${res.body.data.id}`, { headers: bearer(token) })).status).toBe(404);
    const detail = env.backend.control.anchor.transaction(res.body.data.id);
    expect(detail).toMatchObject({ merchant_id: shop.merchant.id, customer_id: shop.customer.id });
    // It signed in with the merchant's own Stellar key, and opened a session for the customer.
    const record = env.backend.store.anchor.transactions.get(res.body.data.id)!;
    expect(record.account).toBe(shop.merchant.stellar_public_key);
    expect([...env.backend.store.sessions.values()].some((s) => s.user_id === shop.customer.id && s.merchant_id === shop.merchant.id)).toBe(true);
  });

  it('leaves the destination and the amount to the customer when they are not given', async () => {
    const res = await post('withdraw', shop.secretKey, { asset_code: 'USDC', user_id: shop.customer.id, api_key: shop.publicKey });
    expect(res.status).toBe(200);
    const record = env.backend.store.anchor.transactions.get(res.body.data.id)!;
    expect(record).toMatchObject({ kind: 'withdrawal', requested_amount: null, destination_address: null });
    const buy = await post('deposit', shop.secretKey, { asset_code: 'USDC', user_id: shop.customer.id, api_key: shop.publicKey });
    expect(env.backend.store.anchor.transactions.get(buy.body.data.id)!.destination_address).toBeNull();
  });

  it('refuses wrong keys, unknown or unverified customers and bad fields, creating nothing', async () => {
    const base = { asset_code: 'USDC', user_id: shop.customer.id, api_key: shop.publicKey };
    const { customer: pending } = await import('../src/customers.js').then((m) =>
      m.upsertCustomer(env.backend.context, shop.merchant.id, { first_name: 'Kwame', last_name: 'Processing', email_address: 'kwame@example.com' }),
    );
    const cases: [string, Record<string, unknown>, number, string][] = [
      [shop.publicKey, base, 403, 'FORBIDDEN'],
      ['sika_secret_nope', base, 401, 'UNAUTHORIZED'],
      [shop.secretKey, { ...base, api_key: other.publicKey }, 400, 'VALIDATION_ERROR'],
      [shop.secretKey, { ...base, api_key: shop.secretKey }, 400, 'VALIDATION_ERROR'],
      [shop.secretKey, { ...base, user_id: other.customer.id }, 404, 'NOT_FOUND'],
      [shop.secretKey, { ...base, user_id: pending.id }, 403, 'KYC_NOT_APPROVED'],
      [shop.secretKey, { ...base, asset_code: 'XLM' }, 400, 'VALIDATION_ERROR'],
      [shop.secretKey, { ...base, fiat_amount: -1 }, 400, 'VALIDATION_ERROR'],
      [shop.secretKey, { ...base, destination_address: 'nowhere' }, 400, 'VALIDATION_ERROR'],
      [shop.secretKey, { ...base, fiat_amount: 2 }, 422, 'AMOUNT_OUT_OF_RANGE'],
    ];
    const before = env.backend.store.anchor.transactions.size;
    for (const [key, body, status, code] of cases) {
      const res = await post('deposit', key, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.code).toBe(code);
    }
    expect(env.backend.store.anchor.transactions.size).toBe(before);
    const kyc = await post('withdraw', shop.secretKey, { ...base, user_id: pending.id });
    expect(kyc.body.error).toEqual({ code: 'KYC_NOT_APPROVED', message: 'customer KYC status is PROCESSING, not ACCEPTED' });
  });

  it('refuses a key without the permission for the flow', async () => {
    const { createApiKey } = await import('../src/merchants.js');
    const { key } = await createApiKey(env.backend.context, shop.merchant, { key_type: 'secret', permissions: ['onramp'] });
    const res = await post('withdraw', key, { asset_code: 'USDC', user_id: shop.customer.id, api_key: shop.publicKey });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: 'FORBIDDEN', message: 'this key lacks the offramp permission' });
  });
});

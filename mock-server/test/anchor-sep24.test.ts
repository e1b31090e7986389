import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCustomerStatus } from '../src/customers.js';
import { call, MODES, startStandalone, type MockEnv } from './helpers/env.js';
import { advance, completeForm, createShop, getTransaction, SHOP_ORIGIN, signIn, startDeposit, type Shop } from './helpers/interactive.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function newSession(env: MockEnv, shop: Shop, userId = shop.customer.id) {
  const res = await call(env, 'POST', '/api/v1/widget/session', { headers: { 'x-api-key': shop.secretKey }, body: { user_id: userId } });
  expect(res.status).toBe(201);
  return res.body.data as { session_id: string; session_token: string };
}

const merchantFields = async (env: MockEnv, shop: Shop) => {
  const session = await newSession(env, shop);
  return {
    merchant_id: shop.merchant.id,
    session_id: session.session_id,
    session_token: session.session_token,
    api_key: shop.publicKey,
    user_id: shop.customer.id,
  };
};

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

  it("lets a client signed in with a merchant's key act for that merchant without the fields", async () => {
    const merchantToken = await signIn(env, Keypair.fromSecret(shop.merchant.stellar_secret));
    const res = await call(env, 'POST', '/anchor/transactions/withdraw/interactive', {
      headers: bearer(merchantToken),
      body: { asset_code: 'USDC', user_id: shop.customer.id },
    });
    expect(res.status).toBe(200);
    expect(env.backend.control.anchor.transaction(res.body.id)).toMatchObject({ merchant_id: shop.merchant.id, customer_id: shop.customer.id });
  });

  it('refuses merchant fields that do not agree, with the SEP error body', async () => {
    const fields = await merchantFields(env, shop);
    const otherSession = await newSession(env, other);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ asset_code: 'EURC' }, 400, 'asset_code: only USDC is offered'],
      [{}, 400, 'asset_code: is required'],
      [{ asset_code: 'USDC', amount: 'ten' }, 400, 'amount: must be a decimal number'],
      [{ asset_code: 'USDC', account: 'GNOPE' }, 400, 'account: must be a Stellar account (G… or M…)'],
      [{ asset_code: 'USDC', quote_id: 'q1' }, 400, 'quote_id: unknown quote; ask for one at POST /quote'],
      [{ asset_code: 'USDC', amount: '5', ...fields }, 422, 'fiat amount is below the minimum of 10 GHS'],
      [{ asset_code: 'USDC', amount: '6000', ...fields }, 422, 'fiat amount is above the maximum of 5000 GHS per transaction'],
      [{ asset_code: 'USDC', ...fields, api_key: other.publicKey }, 403, 'api_key: belongs to another merchant'],
      [{ asset_code: 'USDC', ...fields, api_key: shop.secretKey }, 403, 'api_key: not an active public key'],
      [{ asset_code: 'USDC', ...fields, merchant_id: 'nope' }, 403, 'merchant_id: unknown merchant'],
      [{ asset_code: 'USDC', ...fields, session_id: otherSession.session_id, session_token: otherSession.session_token }, 403, 'session_id: belongs to another merchant'],
      [{ asset_code: 'USDC', ...fields, session_token: 'wrong' }, 401, 'invalid session'],
      [{ asset_code: 'USDC', ...fields, session_token: undefined }, 400, 'session_id and session_token: send both'],
      [{ asset_code: 'USDC', ...fields, user_id: other.customer.id }, 403, "user_id: not the session's customer"],
      [{ asset_code: 'USDC', api_key: shop.publicKey, user_id: other.customer.id }, 404, 'customer not found'],
    ];
    const before = env.backend.store.anchor.transactions.size;
    for (const [body, status, error] of cases) {
      const res = await call(env, 'POST', '/anchor/transactions/deposit/interactive', { headers: bearer(token), body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toEqual({ error });
    }
    expect(env.backend.store.anchor.transactions.size).toBe(before);
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

  it('finds a transaction by id or Stellar hash (404 for an unknown one) and lists the account’s own', async () => {
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
    const next = await call(env, 'GET', `/anchor/transactions?asset_code=USDC&kind=withdrawal&paging_id=${mine.body.id}`, { headers: bearer(token) });
    expect(next.body.transactions.map((t: { id: string }) => t.id)).not.toContain(mine.body.id);
    const stranger = await signIn(env, Keypair.random());
    const theirs = await call(env, 'GET', '/anchor/transactions?asset_code=USDC', { headers: bearer(stranger) });
    expect(theirs.body).toEqual({ transactions: [] });

    const wallet = Keypair.random();
    const buy = await startDeposit(env, shop, { fiat_amount: 30, destination_address: wallet.publicKey() });
    await completeForm(env, buy.id);
    await call(env, 'POST', `/_mock/mobile-money/${buy.id}/approve`);
    await advance(env, 2);
    const hash = env.backend.store.anchor.transactions.get(buy.id)!.stellar_transaction_id;
    const byHash = await call(env, 'GET', `/anchor/transaction?stellar_transaction_id=${hash}`, { headers: bearer(token) });
    expect(byHash.body.transaction).toMatchObject({ id: buy.id, status: 'pending_stellar' });
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
    const token = await signIn(env, Keypair.random());
    expect(await getTransaction(env, token, res.body.data.id)).toMatchObject({ kind: 'deposit', status: 'incomplete', to: wallet });
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

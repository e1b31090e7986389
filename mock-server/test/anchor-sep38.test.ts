/**
 * SEP-38 quotes at the anchor over real HTTP on 127.0.0.1, checked against SEP-38 v2's own
 * field lists and price formulas, with SEP-10 sign-in by real Stellar keypairs; and SEP-24
 * deposits and withdrawals priced at a quote. Expiry is reached by advancing the manual clock.
 */
import { Keypair, StellarToml } from '@stellar/stellar-sdk';
import { SigningKeypair, Types, Wallet } from '@stellar/typescript-wallet-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStandalone, type MockEnv } from './helpers/env.js';
import { advance, signIn } from './helpers/interactive.js';
import { createKey, registerMerchant } from './helpers/merchant.js';

const GHS = 'iso4217:GHS';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const DECIMAL = /^\d+\.\d{2,7}$/;

/** SEP-38's `fee` object: `total`, `asset`, optional `details[]` of `{name, description?, amount}` summing to `total`. */
function expectFee(fee: any) {
  expect(Object.keys(fee).sort()).toEqual(['asset', 'details', 'total']);
  expect(fee.total).toMatch(DECIMAL);
  expect(fee.asset).toBe(GHS);
  for (const d of fee.details) {
    expect(Object.keys(d).filter((k) => !['name', 'description', 'amount'].includes(k))).toEqual([]);
    expect(typeof d.name).toBe('string');
    expect(d.amount).toMatch(DECIMAL);
  }
  const sum = fee.details.reduce((s: number, d: any) => s + Number(d.amount), 0);
  expect(sum.toFixed(2)).toBe(fee.total);
}

/** SEP-38's price formulas, up to the 2 places of the amounts. */
function expectFormulas(p: any, feeIn: 'sell' | 'buy') {
  const [sell, buy, fee, price, total] = [p.sell_amount, p.buy_amount, p.fee.total, p.price, p.total_price].map(Number) as [number, number, number, number, number];
  expect(Math.abs(sell - total * buy)).toBeLessThan(0.01);
  if (feeIn === 'sell') expect(Math.abs(sell - fee - price * buy)).toBeLessThan(0.01 * price);
  else expect(Math.abs(sell - price * (buy + fee))).toBeLessThan(0.01);
}

const QUOTE_FIELDS = ['buy_amount', 'buy_asset', 'expires_at', 'fee', 'id', 'price', 'sell_amount', 'sell_asset', 'total_price'];

describe('SEP-38 at the anchor (standalone, 127.0.0.1)', () => {
  let env: MockEnv;
  let usdc: string;
  let wallet: Keypair;
  let token: string;
  beforeAll(async () => {
    env = await startStandalone({ rateLifetimeSeconds: 300 });
    wallet = Keypair.random();
    token = await signIn(env, wallet);
    usdc = (await call(env, 'GET', '/anchor/sep38/info')).body.assets[0].asset;
  });
  afterAll(() => env.close());

  const quote = (body: Record<string, unknown>, auth = token) =>
    call(env, 'POST', '/anchor/sep38/quote', { headers: bearer(auth), body: { context: 'sep24', ...body } });
  const deposit = (body: Record<string, unknown>, auth = token) =>
    call(env, 'POST', '/anchor/transactions/deposit/interactive', { headers: bearer(auth), body: { asset_code: 'USDC', ...body } });
  const withdraw = (body: Record<string, unknown>, auth = token) =>
    call(env, 'POST', '/anchor/transactions/withdraw/interactive', { headers: bearer(auth), body: { asset_code: 'USDC', ...body } });
  const transaction = async (id: string, auth = token) =>
    (await call(env, 'GET', `/anchor/transaction?id=${id}`, { headers: bearer(auth) })).body.transaction;
  const complete = (id: string) =>
    call(env, 'POST', `/_mock/transactions/${id}/complete-interactive`, { body: { provider: 'mtn', phone: '+233201234567', destination_address: wallet.publicKey() } });

  it('names ANCHOR_QUOTE_SERVER in stellar.toml, as a wallet library reads it', async () => {
    const host = new URL(env.origin).host;
    const toml = await StellarToml.Resolver.resolve(host, { allowHttp: true });
    expect(toml.ANCHOR_QUOTE_SERVER).toBe(`${env.origin}/anchor/sep38`);
  });

  it('is read by @stellar/typescript-wallet-sdk as a wallet reads any anchor: stellar.toml, info, prices, price and a firm quote', async () => {
    const anchor = Wallet.TestNet().anchor({ homeDomain: new URL(env.origin).host, allowHttp: true });
    const account = SigningKeypair.fromSecret(Keypair.random().secret());
    const sep38 = anchor.sep38(await (await anchor.sep10()).authenticate({ accountKp: account }));
    const info = await sep38.info();
    const usdcAsset = info.assets.find((a) => a.asset.startsWith('stellar:USDC:'))!.asset;
    expect((await sep38.prices({ sellAsset: GHS, sellAmount: '100' })).buy_assets).toEqual([{ asset: usdcAsset, price: expect.any(String), decimals: 7 }]);
    const price = await sep38.price({ sellAsset: usdcAsset, buyAsset: GHS, sellAmount: '20', context: Types.Sep38PriceContext.SEP24 });
    expect(price).toMatchObject({ sell_amount: '20.00', fee: { asset: GHS } });
    const quote = await sep38.requestQuote({ sell_asset: GHS, buy_asset: usdcAsset, sell_amount: '100', context: Types.Sep38PriceContext.SEP24 } as Types.Sep38PostQuoteParams);
    expect(Object.keys(quote).sort()).toEqual(QUOTE_FIELDS);
    expect(await sep38.getQuote(quote.id)).toEqual(quote);
  });

  it('GET /info lists USDC and the cedi with its one delivery method and country, no token needed', async () => {
    const res = await call(env, 'GET', '/anchor/sep38/info');
    expect(res.status).toBe(200);
    expect(usdc).toMatch(/^stellar:USDC:G[A-Z2-7]{55}$/);
    const methods = [{ name: 'mobile_money', description: expect.any(String) }];
    expect(res.body).toEqual({
      assets: [{ asset: usdc }, { asset: GHS, country_codes: ['GH'], sell_delivery_methods: methods, buy_delivery_methods: methods }],
    });
  });

  it('GET /prices answers buy_assets with price and decimals for either side', async () => {
    const buyUsdc = await call(env, 'GET', `/anchor/sep38/prices?sell_asset=${GHS}&sell_amount=100`);
    expect(buyUsdc.status).toBe(200);
    expect(buyUsdc.body).toEqual({ buy_assets: [{ asset: usdc, price: expect.stringMatching(DECIMAL), decimals: 7 }] });
    const sellUsdc = await call(env, 'GET', `/anchor/sep38/prices?sell_asset=${encodeURIComponent(usdc)}`);
    expect(sellUsdc.body).toEqual({ buy_assets: [{ asset: GHS, price: expect.stringMatching(DECIMAL), decimals: 2 }] });
    // Customers buy above the mid rate and sell below it: a USDC costs more cedis than selling one gives back.
    expect(Number(buyUsdc.body.buy_assets[0].price) * Number(sellUsdc.body.buy_assets[0].price)).toBeGreaterThan(1);
  });

  it('GET /price follows the SEP-38 formulas: fee in the sold cedis on a buy, in the bought cedis on a sell', async () => {
    const cases = [
      [`sell_asset=${GHS}&buy_asset=${usdc}&sell_amount=500`, 'sell', { sell_amount: '500.00' }],
      [`sell_asset=${GHS}&buy_asset=${usdc}&buy_amount=20`, 'sell', { buy_amount: '20.00' }],
      [`sell_asset=${usdc}&buy_asset=${GHS}&sell_amount=40`, 'buy', { sell_amount: '40.00' }],
      [`sell_asset=${usdc}&buy_asset=${GHS}&buy_amount=300`, 'buy', { buy_amount: '300.00' }],
    ] as const;
    for (const [q, feeIn, exact] of cases) {
      const res = await call(env, 'GET', `/anchor/sep38/price?${q.replaceAll(usdc, encodeURIComponent(usdc))}&context=sep24`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['buy_amount', 'fee', 'price', 'sell_amount', 'total_price']);
      expect(res.body).toMatchObject(exact);
      for (const f of ['total_price', 'price', 'sell_amount', 'buy_amount']) expect(res.body[f]).toMatch(DECIMAL);
      expectFee(res.body.fee);
      expectFormulas(res.body, feeIn);
    }
  });

  it('refuses bad price requests with 400 and the SEP error body', async () => {
    const u = encodeURIComponent(usdc);
    const cases = [
      `sell_asset=${GHS}&buy_asset=${u}&sell_amount=100&buy_amount=5&context=sep24`,
      `sell_asset=${GHS}&buy_asset=${u}&context=sep24`,
      `sell_asset=iso4217:NGN&buy_asset=${u}&sell_amount=100&context=sep24`,
      `sell_asset=${GHS}&buy_asset=${u}&sell_amount=100&context=sep31`,
      `sell_asset=${GHS}&buy_asset=${u}&sell_amount=100`,
      `sell_asset=${GHS}&buy_asset=${u}&sell_amount=-1&context=sep24`,
      `sell_asset=${GHS}&buy_asset=${u}&sell_amount=5&context=sep24`,
      `sell_asset=${GHS}&buy_asset=${u}&sell_amount=100&context=sep24&sell_delivery_method=cash`,
      `sell_asset=${GHS}&buy_asset=${u}&sell_amount=100&context=sep24&country_code=NG`,
      `sell_asset=${GHS}&buy_asset=${u}&sell_amount=100&context=sep24&api_key=sika_public_nope`,
    ];
    for (const q of cases) {
      const res = await call(env, 'GET', `/anchor/sep38/price?${q}`);
      expect(res.status, q).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await call(env, 'GET', '/anchor/sep38/prices?sell_asset=iso4217:USD')).status).toBe(400);
  });

  it('POST /quote needs the SEP-10 token and answers a firm quote (201) that GET /quote/:id repeats', async () => {
    const anonymous = await call(env, 'POST', '/anchor/sep38/quote', { body: { sell_asset: GHS, buy_asset: usdc, sell_amount: '200', context: 'sep24' } });
    expect(anonymous.status).toBe(403);
    expect(typeof anonymous.body.error).toBe('string');

    const clock = (await call(env, 'GET', '/_mock/clock')).body.now as string;
    const res = await quote({ sell_asset: GHS, buy_asset: usdc, sell_amount: '200', sell_delivery_method: 'mobile_money', country_code: 'GH' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // SEP-38 repeats the delivery method the request named.
    expect(Object.keys(res.body).sort()).toEqual([...QUOTE_FIELDS, 'sell_delivery_method'].sort());
    expect(res.body).toMatchObject({ sell_asset: GHS, buy_asset: usdc, sell_amount: '200.00', sell_delivery_method: 'mobile_money' });
    expect(res.body.id).toEqual(expect.any(String));
    // Firm for the rate lifetime of clock time.
    expect(Date.parse(res.body.expires_at) - Date.parse(clock)).toBe(300_000);
    expectFee(res.body.fee);
    expectFormulas(res.body, 'sell');

    const again = await call(env, 'GET', `/anchor/sep38/quote/${res.body.id}`, { headers: bearer(token) });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect((await call(env, 'GET', `/anchor/sep38/quote/${res.body.id}`)).status).toBe(403);
    // Another account's quote is unknown to it.
    const stranger = await signIn(env, Keypair.random());
    const hidden = await call(env, 'GET', `/anchor/sep38/quote/${res.body.id}`, { headers: bearer(stranger) });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ error: 'quote not found' });
  });

  it('refuses a quote it cannot keep until expire_after, and bad bodies, with 400', async () => {
    const now = Date.parse((await call(env, 'GET', '/_mock/clock')).body.now);
    const late = await quote({ sell_asset: GHS, buy_asset: usdc, sell_amount: '200', expire_after: new Date(now + 600_000).toISOString() });
    expect(late.status).toBe(400);
    expect(late.body.error).toMatch(/^expire_after: /);
    const soon = await quote({ sell_asset: GHS, buy_asset: usdc, sell_amount: '200', expire_after: new Date(now + 60_000).toISOString() });
    expect(soon.status).toBe(201);
    for (const body of [{ sell_asset: GHS, buy_asset: usdc }, { sell_asset: GHS, buy_asset: usdc, sell_amount: '200', context: 'sep6' }, { sell_asset: usdc, buy_asset: usdc, sell_amount: '2' }]) {
      const res = await quote(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
    }
  });

  it('prices a SEP-24 deposit at its quote: amounts, fee and quote_id on the transaction', async () => {
    const q = (await quote({ sell_asset: GHS, buy_asset: usdc, buy_amount: '25' })).body;
    const started = await deposit({ quote_id: q.id, account: wallet.publicKey() });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(await transaction(started.body.id)).toMatchObject({ status: 'incomplete', quote_id: q.id });
    expect((await complete(started.body.id)).status).toBe(200);
    expect(await transaction(started.body.id)).toMatchObject({
      status: 'pending_user_transfer_start',
      quote_id: q.id,
      amount_in: q.sell_amount,
      amount_in_asset: GHS,
      amount_out: q.buy_amount,
      amount_out_asset: usdc,
      amount_fee: q.fee.total,
    });
    // A quote prices one transaction.
    const twice = await deposit({ quote_id: q.id });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatch(/^quote_id: /);
  });

  it('prices a SEP-24 withdrawal at its quote', async () => {
    const q = (await quote({ sell_asset: usdc, buy_asset: GHS, sell_amount: '12.5' })).body;
    const started = await withdraw({ quote_id: q.id, amount: '12.50', destination_asset: GHS });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect((await complete(started.body.id)).status).toBe(200);
    expect(await transaction(started.body.id)).toMatchObject({ quote_id: q.id, amount_in: '12.50', amount_out: q.buy_amount, amount_fee: q.fee.total });
  });

  it('refuses a quote that does not fit the request with 400 and creates nothing', async () => {
    const buy = (await quote({ sell_asset: GHS, buy_asset: usdc, sell_amount: '100' })).body;
    const sell = (await quote({ sell_asset: usdc, buy_asset: GHS, sell_amount: '10' })).body;
    const stranger = await signIn(env, Keypair.random());
    const before = (await call(env, 'GET', '/_mock/transactions')).body.data.length;
    const cases: [() => ReturnType<typeof deposit>, RegExp][] = [
      [() => withdraw({ quote_id: buy.id }), /^quote_id: the quote sells GHS for USDC/],
      [() => deposit({ quote_id: sell.id }), /^quote_id: the quote sells USDC for GHS/],
      [() => deposit({ quote_id: buy.id, amount: '120' }), /^amount: must be the quote's sell_amount 100.00/],
      [() => deposit({ quote_id: buy.id, source_asset: 'iso4217:USD' }), /^source_asset: /],
      [() => withdraw({ quote_id: sell.id, destination_asset: 'iso4217:NGN' }), /^destination_asset: /],
      [() => deposit({ quote_id: buy.id }, stranger), /^quote_id: unknown quote/],
      [() => deposit({ quote_id: 'no-such-quote' }), /^quote_id: unknown quote/],
    ];
    for (const [send, error] of cases) {
      const res = await send();
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatch(error);
    }
    expect((await call(env, 'GET', '/_mock/transactions')).body.data.length).toBe(before);
  });

  it('refuses an expired quote at SEP-24 (400) and at confirmation (422 QUOTE_EXPIRED), while GET /quote/:id still shows it', async () => {
    const q = (await quote({ sell_asset: GHS, buy_asset: usdc, sell_amount: '150' })).body;
    const early = await deposit({ quote_id: q.id, account: wallet.publicKey() });
    expect(early.status).toBe(200);
    const late = (await quote({ sell_asset: GHS, buy_asset: usdc, sell_amount: '150' })).body;

    await advance(env, 300);
    // SEP-10 tokens live 15 minutes; this one is still good after 5.
    const refused = await deposit({ quote_id: late.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(`quote_id: the quote expired at ${late.expires_at}; request a new one`);
    const shown = await call(env, 'GET', `/anchor/sep38/quote/${late.id}`, { headers: bearer(token) });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual(late);

    // The transaction started in time, but its form was finished after the quote expired.
    const confirm = await complete(early.body.id);
    expect(confirm.status).toBe(422);
    expect(confirm.body.error.code).toBe('QUOTE_EXPIRED');
    expect((await transaction(early.body.id)).status).toBe('incomplete');
  });

  it("prices with a merchant's fees when the quote names its public key, and only that merchant's transactions take it", async () => {
    const owner = await registerMerchant(env);
    const { key: secretKey } = await createKey(env, owner, { key_type: 'secret', domains: [] });
    const { key: publicKey } = await createKey(env, owner, { key_type: 'public', domains: ['https://shop.example'] });
    const customer = await call(env, 'POST', '/api/v1/widget/customer', {
      headers: { 'x-api-key': secretKey },
      body: { first_name: 'Esi', last_name: 'Owusu', email_address: 'esi@example.com' },
    });
    expect(customer.status).toBe(201);
    const fields = async () => {
      const s = await call(env, 'POST', '/api/v1/widget/session', { headers: { 'x-api-key': secretKey }, body: { user_id: customer.body.data.id } });
      expect(s.status).toBe(201);
      return { merchant_id: owner.id, session_id: s.body.data.session_id, session_token: s.body.data.session_token, api_key: publicKey, user_id: customer.body.data.id };
    };
    const fresh = await signIn(env, Keypair.random());
    const direct = (await quote({ sell_asset: GHS, buy_asset: usdc, sell_amount: '300' }, fresh)).body;
    const refused = await deposit({ quote_id: direct.id, ...(await fields()) }, fresh);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^quote_id: priced with a direct client's fees/);

    const priced = await quote({ sell_asset: GHS, buy_asset: usdc, sell_amount: '300', api_key: publicKey }, fresh);
    expect(priced.status).toBe(201);
    const started = await deposit({ quote_id: priced.body.id, ...(await fields()) }, fresh);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(await transaction(started.body.id, fresh)).toMatchObject({ quote_id: priced.body.id });
  });
});

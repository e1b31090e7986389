/**
 * `anchor.quotes` (SEP-38) against the mock anchor, in-process and over real HTTP on
 * 127.0.0.1: indicative prices without signing in, firm quotes signed in with a real
 * Keypair, a SEP-24 deposit priced at its quote, and expiry on the mock's manual clock.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { AnchorClient, type Quote } from '../src/anchor/index.js';
import { BadRequestError, NotFoundError, ValidationError } from '../src/index.js';
import { recordingFetch } from './helpers/clients.js';
import { MODES, type MockEnv } from './helpers/mock.js';

const GHS = 'iso4217:GHS';

describe.each(MODES)('anchor.quotes (SEP-38), %s', (_name, start) => {
  let env: MockEnv;
  let usdc: string;
  beforeAll(async () => {
    env = await start({ seed: 38, rateLifetimeSeconds: 300 });
  });
  afterAll(() => env.close());

  const newAnchor = (signer = Keypair.random()) => {
    const { fetch, sent } = recordingFetch();
    return { anchor: new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer, fetch, now: () => env.backend.clock.now() }), sent };
  };

  it('reads the assets and indicative prices without signing in', async () => {
    const { anchor, sent } = newAnchor();
    const info = await anchor.quotes.info();
    usdc = info.assets[0]!.asset;
    expect(usdc).toMatch(/^stellar:USDC:G[A-Z2-7]{55}$/);
    expect(info.assets[1]).toMatchObject({ asset: GHS, country_codes: ['GH'], sell_delivery_methods: [{ name: 'mobile_money' }] });
    const prices = await anchor.quotes.prices({ sell_asset: GHS, sell_amount: 100 });
    expect(prices).toEqual({ buy_assets: [{ asset: usdc, price: expect.any(String), decimals: 7 }] });
    const price = await anchor.quotes.price({ sell_asset: GHS, buy_asset: usdc, sell_amount: '250' });
    expect(price.sell_amount).toBe('250.00');
    // SEP-38: sell_amount = total_price * buy_amount, and (fee in the sold asset) sell_amount - fee = price * buy_amount,
    // up to the USDC cent the buy amount is rounded down to.
    expect(Math.abs(Number(price.sell_amount) - Number(price.total_price) * Number(price.buy_amount))).toBeLessThan(0.01);
    expect(Math.abs(Number(price.sell_amount) - Number(price.fee.total) - Number(price.price) * Number(price.buy_amount))).toBeLessThan(0.01 * Number(price.price));
    expect(price.fee.asset).toBe(GHS);
    expect(sent).toEqual(['GET /anchor/sep38/info', 'GET /anchor/sep38/prices', 'GET /anchor/sep38/price']);
  });

  it('reads SEP-38 prices from the bought side (sell_assets) and a quote names its delivery method', async () => {
    const { anchor } = newAnchor();
    const prices = await anchor.quotes.prices({ buy_asset: usdc, buy_amount: '10' });
    const price = await anchor.quotes.price({ sell_asset: GHS, buy_asset: usdc, buy_amount: '10' });
    expect(prices).toEqual({ sell_assets: [{ asset: GHS, price: price.price, decimals: 2 }] });
    const quote = await anchor.quotes.create({ sell_asset: usdc, buy_asset: GHS, sell_amount: '10', buy_delivery_method: 'mobile_money' });
    expectTypeOf(quote.buy_delivery_method).toEqualTypeOf<string | undefined>();
    expect(quote).toMatchObject({ buy_delivery_method: 'mobile_money' });
    expect(quote).not.toHaveProperty('sell_delivery_method');
  });

  it('refuses bad input before sending anything', async () => {
    const { anchor, sent } = newAnchor();
    await expect(anchor.quotes.prices({ sell_asset: GHS, buy_asset: usdc })).rejects.toBeInstanceOf(ValidationError);
    await expect(anchor.quotes.prices({})).rejects.toBeInstanceOf(ValidationError);
    await expect(anchor.quotes.prices({ buy_asset: usdc, sell_amount: '10' })).rejects.toBeInstanceOf(ValidationError);
    await expect(anchor.quotes.price({ sell_asset: GHS, buy_asset: usdc, sell_amount: '10', buy_amount: '1' })).rejects.toBeInstanceOf(ValidationError);
    await expect(anchor.quotes.price({ sell_asset: GHS, buy_asset: usdc })).rejects.toBeInstanceOf(ValidationError);
    await expect(anchor.quotes.create({ sell_asset: 'GHS', buy_asset: usdc, sell_amount: '10' })).rejects.toBeInstanceOf(ValidationError);
    await expect(anchor.quotes.create({ sell_asset: GHS, buy_asset: usdc, sell_amount: '1e3' })).rejects.toBeInstanceOf(ValidationError);
    await expect(anchor.quotes.get('../info')).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toEqual([]);
  });

  it('makes a firm quote for the signed-in account, reads it back, and prices a deposit at it', async () => {
    const wallet = Keypair.random();
    const { anchor, sent } = newAnchor(wallet);
    const quote = await anchor.quotes.create({ sell_asset: GHS, buy_asset: usdc, buy_amount: 30 });
    expectTypeOf(quote).toExtend<Quote>();
    expect(quote).toMatchObject({ sell_asset: GHS, buy_asset: usdc, buy_amount: '30.00' });
    expect(Date.parse(quote.expires_at)).toBe(env.backend.clock.now() + 300_000);
    expect(sent.filter((s) => s === 'POST /anchor/auth')).toHaveLength(1);
    expect(await anchor.quotes.get(quote.id)).toEqual(quote);
    await expect(newAnchor().anchor.quotes.get(quote.id)).rejects.toBeInstanceOf(NotFoundError);

    const { id } = await anchor.transfers.deposit({ quote_id: quote.id });
    const tx = await anchor.transfers.get(id);
    expect(tx).toMatchObject({ status: 'incomplete', quote_id: quote.id });
    await env.backend.control.anchor.completeInteractive(id, { provider: 'mtn', phone: '+233201234567' });
    expect(await anchor.transfers.get(id)).toMatchObject({ amount_in: quote.sell_amount, amount_out: quote.buy_amount, amount_fee: quote.fee.total });
  });

  it('refuses an expired quote with 400 at the anchor, and still shows it', async () => {
    const { anchor } = newAnchor();
    const quote = await anchor.quotes.create({ sell_asset: usdc, buy_asset: GHS, sell_amount: '15' });
    await env.backend.clock.advance(300);
    const refused = await anchor.transfers.withdraw({ quote_id: quote.id }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).message).toContain('quote_id: the quote expired');
    expect(await anchor.quotes.get(quote.id)).toEqual(quote);
  });
});

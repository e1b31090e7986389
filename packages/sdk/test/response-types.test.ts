/**
 * Answer types say what the service sends, and nothing else: a misspelt field is a compile
 * error (the `@ts-expect-error` lines below fail `pnpm --filter @sikaramp/sdk typecheck` if it
 * compiles), while a field the service adds later is still kept at run time and never an error.
 */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { MerchantClient } from '../src/clients/merchant.js';
import { RampClient } from '../src/clients/ramp.js';
import type { AnchorTransaction, Quote } from '../src/anchor/index.js';
import { AnchorClient } from '../src/anchor/index.js';
import { WidgetClient, type KybStatus, type Order, type OrderStatus, type RampOrder, type WidgetOrder } from '../src/index.js';
import { Keypair } from '@stellar/stellar-sdk';
import { newMerchant } from './helpers/clients.js';
import { envelope, json, startTestServer, type TestServer } from './helpers/http-server.js';
import { startStandalone } from './helpers/mock.js';

const SECRET_KEY = `sika_secret_${'ab'.repeat(24)}`;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('answer types', () => {
  it('name every order list status, and type transaction_id and destination_address', () => {
    expectTypeOf<'pending' | 'processing' | 'completed' | 'failed' | 'expired'>().toExtend<OrderStatus>();
    expectTypeOf<Order['transaction_id']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Order['destination_address']>().toEqualTypeOf<string | null | undefined>();
  });

  it('type the ramp lookup user, wallets and times, and KYB’s submission', () => {
    expectTypeOf<NonNullable<RampOrder['user']>>().toEqualTypeOf<{ first_name: string; last_name: string; phone: string; network: string }>();
    expectTypeOf<RampOrder['destination_wallet']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<RampOrder['source_wallet']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<RampOrder['created_at']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<RampOrder['updated_at']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<KybStatus['registration_number']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<KybStatus['country']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<KybStatus['documents']>().toEqualTypeOf<{ type: string; url: string }[] | undefined>();
  });

  it('make a misspelt field a compile error (no index signature)', () => {
    const misspell = (order: Order, ramp: RampOrder, kyb: KybStatus) => [
      // @ts-expect-error `refrence` is not a field of an order
      order.refrence,
      // @ts-expect-error `destination_adress` is misspelt
      order.destination_adress,
      // @ts-expect-error `referance` is misspelt
      ramp.referance,
      // @ts-expect-error `user.phone_number` is not a field
      ramp.user?.phone_number,
      // @ts-expect-error `registration_no` is not a field
      kyb.registration_no,
    ];
    const anchorMisspell = (tx: AnchorTransaction, quote: Quote, confirmed: WidgetOrder) => [
      // @ts-expect-error `stellar_transaction_hash` is not a field of a SEP-24 transaction
      tx.stellar_transaction_hash,
      // @ts-expect-error `amount_fees` is misspelt
      tx.amount_fees,
      // @ts-expect-error `fee_details.totl` is misspelt
      tx.fee_details?.totl,
      // @ts-expect-error `expires` is not a field of a SEP-38 quote (`expires_at` is)
      quote.expires,
      // @ts-expect-error `fee.totl` is misspelt
      quote.fee.totl,
      // @ts-expect-error `orders` is not a field of a confirmed widget order
      confirmed.orders,
      // @ts-expect-error `transaction.withdraw_memmo` is misspelt
      confirmed.transaction.withdraw_memmo,
    ];
    expectTypeOf<AnchorTransaction>().not.toHaveProperty('stellar_transaction_hash');
    expectTypeOf<Quote['expires_at']>().toEqualTypeOf<string>();
    expectTypeOf<keyof WidgetOrder>().toEqualTypeOf<'order' | 'transaction'>();
    expect(typeof anchorMisspell).toBe('function');
    expectTypeOf<Order>().not.toHaveProperty('refrence');
    expectTypeOf<keyof Order>().toEqualTypeOf<
      | 'id'
      | 'status'
      | 'type'
      | 'fiat_currency'
      | 'fiat_amount'
      | 'crypto_currency'
      | 'crypto_amount'
      | 'payment_method'
      | 'destination_address'
      | 'transaction_id'
      | 'created_at'
    >();
    expect(typeof misspell).toBe('function');
  });
});

describe('a field the service adds later', () => {
  it('is kept at run time and breaks nothing, on the order list, a ramp order and KYB', async () => {
    server = await startTestServer((req, res) => {
      if (req.url.startsWith('/api/v1/merchant/orders')) {
        return json(res, 200, {
          data: [
            {
              id: 'ord_1',
              status: 'processing',
              fiat_currency: 'GHS',
              fiat_amount: 150,
              crypto_currency: 'USDC',
              crypto_amount: 9.45,
              payment_method: 'mobile_money',
              transaction_id: 'tx_1',
              destination_address: null,
              added_later: { loyalty_points: 12 },
            },
          ].map((o) => ({ ...o, created_at: '2026-01-01T00:00:00Z' })),
          next_cursor: null,
          has_more: false,
          meta: { request_id: 'r' },
        });
      }
      if (req.url.startsWith('/api/v1/ramp/orders/')) {
        return json(res, 200, envelope({ reference: 'RMP-1', status: 'fiat_pending', user: { first_name: 'A', last_name: 'B', phone: '0241234567', network: 'MTN MoMo', kyc_level: 2 }, risk_score: 3 }));
      }
      return json(res, 200, envelope({ status: 'submitted', registration_number: 'CS-1', country: 'GHA', documents: [{ type: 'incorporation', url: 'https://d', pages: 3 }], reviewer: 'x' }));
    });
    const merchant = new MerchantClient({ baseUrl: server.url, accessToken: 'token' });
    const [order] = (await merchant.orders.list()).data;
    expect(order).toMatchObject({ status: 'processing', transaction_id: 'tx_1', added_later: { loyalty_points: 12 } });
    const ramp = await new RampClient({ baseUrl: server.url, secretKey: SECRET_KEY }).orders.get('RMP-1');
    expect(ramp).toMatchObject({ risk_score: 3, user: { kyc_level: 2, network: 'MTN MoMo' } });
    const kyb = await merchant.kyb.status();
    expect(kyb).toMatchObject({ reviewer: 'x', documents: [{ pages: 3 }] });
  });

  it('is kept at run time on a SEP-38 quote answer and a confirmed widget order', async () => {
    const transaction = { id: 'tx_1', kind: 'deposit', status: 'pending_user_transfer_start', fee_details: { total: '1.50', asset: 'iso4217:GHS', rebate: '0' }, added_later: 1 };
    server = await startTestServer((req, res) => {
      if (req.url.startsWith('/anchor/sep38/info')) {
        return json(res, 200, { assets: [{ asset: 'iso4217:GHS', country_codes: ['GH'], settlement: 'T+0' }], added_later: true });
      }
      return json(res, 201, envelope({ order: { id: 'ord_1', status: 'pending', fiat_currency: 'GHS', fiat_amount: 50, crypto_currency: 'USDC', crypto_amount: 3, payment_method: 'mobile_money', created_at: '2026-01-01T00:00:00Z', channel: 'widget' }, transaction }));
    });
    const anchor = new AnchorClient({ anchorUrl: `${server.url}/anchor`, signer: Keypair.random() });
    await expect(anchor.quotes.info()).resolves.toEqual({ assets: [{ asset: 'iso4217:GHS', country_codes: ['GH'], settlement: 'T+0' }], added_later: true });
    const widget = new WidgetClient({ baseUrl: server.url, secretKey: SECRET_KEY });
    const confirmed = await widget.orders.create({ session: { session_id: 's', session_token: 't' }, transaction_id: 'tx_1', provider: 'mtn', phone: '+233201234567' });
    expect(confirmed).toMatchObject({ order: { channel: 'widget' }, transaction: { added_later: 1, fee_details: { rebate: '0' } } });
  });

  it('from the mock server: a ramp lookup and KYB parse with the typed fields filled', async () => {
    const env = await startStandalone({ seed: 21 });
    try {
      const merchant = await newMerchant(env);
      await merchant.client.kyb.submit({ registration_number: 'CS-123', country: 'GHA', documents: [{ type: 'incorporation', url: 'https://docs.example/1.pdf' }] });
      expect(await merchant.client.kyb.status()).toMatchObject({
        registration_number: 'CS-123',
        country: 'GHA',
        documents: [{ type: 'incorporation', url: 'https://docs.example/1.pdf' }],
      });
      const { key } = await merchant.client.apiKeys.create({ key_type: 'secret' });
      env.backend.control.merchants.enableRamp(merchant.id);
      const ramp = new RampClient({ baseUrl: env.origin, secretKey: key });
      const phone = '0241230021';
      const { kyc_id } = await ramp.kyc.initiate({ first_name: 'Kwame', last_name: 'Mensah', phone, provider_name: 'MTN' });
      await ramp.kyc.verify({ kyc_id, otp_code: env.backend.control.rails.otp(phone).code });
      const wallet = Keypair.random().publicKey();
      const created = await ramp.orders.create({ type: 'onramp', fiat_amount: 100, destination_wallet: wallet, user: { first_name: 'Kwame', last_name: 'Mensah', phone, network: 'MTN' } });
      const order = await ramp.orders.get(created.reference);
      expect(order.user).toEqual({ first_name: 'Kwame', last_name: 'Mensah', phone, network: 'MTN MoMo' });
      expect(order).toMatchObject({ destination_wallet: wallet, source_wallet: null, created_at: expect.any(String), updated_at: expect.any(String) });
    } finally {
      await env.close();
    }
  });
});

/**
 * One merchant with something of everything, for the bad-input suite: dashboard token, keys,
 * an ACCEPTED customer and a session, SEP-10 tokens, interactive transactions and their page
 * tokens, ramp KYC and orders, a checkout key with a paid payment, its event and a webhook
 * subscription. Built through the public routes where they exist, else the core functions.
 */
import { Keypair, TransactionBuilder } from '@stellar/stellar-sdk';
import { expect } from 'vitest';
import { upsertCustomer } from '../../src/customers.js';
import { issuePageToken } from '../../src/handlers/interactive/api.js';
import { issueAccessToken } from '../../src/http/auth.js';
import { createApiKey, createMerchant } from '../../src/merchants.js';
import type { MerchantRecord } from '../../src/store.js';
import { call, type MockEnv } from '../helpers/env.js';
import { signIn } from '../helpers/interactive.js';

export const SHOP_ORIGIN = 'https://shop.example';
/** A Stellar account that is no merchant's. */
export const WALLET = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 7));
/** The merchant backend's own Stellar account: it signs in to the anchor and created the customer there. */
export const BACKEND = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 8));
/** A webhook URL nobody listens at: a delivery there is refused at once, with no timeout to wait for. */
export const NOBODY = 'http://127.0.0.1:9/hooks';

export interface World {
  env: MockEnv;
  merchant: MerchantRecord;
  credentials: { email: string; password: string };
  /** The dashboard's `Authorization` header. */
  dashboard: Record<string, string>;
  secretKey: string;
  publicKey: string;
  /** A key of the merchant that may be revoked. */
  spareKeyId: string;
  customerId: string;
  session: { id: string; token: string };
  /** SEP-10 token of the merchant backend's account (BACKEND), and of an account that is no merchant's. */
  sep10: string;
  strangerSep10: string;
  /** A challenge for WALLET, signed by it, not yet exchanged. */
  signedChallenge: string;
  deposit: { id: string; linkToken: string; pageToken: string };
  withdrawal: { id: string; pageToken: string };
  /** A deposit BACKEND started at the anchor: the transaction `sep10` reads at GET /anchor/transaction. */
  anchorDepositId: string;
  ramp: { phone: string; pendingKycId: string; onramp: string; offramp: string };
  /** A paid payment with its event, an unpaid one, and a subscription nobody listens at. */
  checkout: { key: string; sessionId: string; reference: string; eventId: string; endpointId: string; pendingSessionId: string };
  /** Every secret text of the world: none may appear in an error message. */
  secrets: string[];
}

let worlds = 0;

export async function buildWorld(env: MockEnv): Promise<World> {
  const ctx = env.backend.context;
  const n = ++worlds;
  const credentials = { email: `reliable${n}@shop.example`, password: 'correct horse battery' };
  const merchant = await createMerchant(ctx, { name: `Reliable Shop ${n}`, legal_name: `Reliable Shop ${n} Ltd`, ...credentials });
  const { token: jwt } = await issueAccessToken(ctx, merchant);
  const { key: secretKey } = await createApiKey(ctx, merchant, { key_type: 'secret' });
  const { key: publicKey } = await createApiKey(ctx, merchant, { key_type: 'public', domains: [SHOP_ORIGIN] });
  const { apiKey: spare } = await createApiKey(ctx, merchant, { key_type: 'public' });
  // As the merchant's backend creates it at the anchor with its merchant fields: the merchant's, and BACKEND's there.
  const { customer } = upsertCustomer(ctx, merchant.id, { first_name: 'Ama', last_name: 'Mensah', email_address: `ama${n}@example.com` }, BACKEND.publicKey());

  const ok = (res: { status: number; body: any }, status = 200) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  };
  const widget = { 'x-api-key': secretKey };
  const dashboard = { authorization: `Bearer ${jwt}` };
  ok(await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: dashboard, body: { url: NOBODY } }));
  const session = ok(await call(env, 'POST', '/api/v1/widget/session', { headers: widget, body: { user_id: customer.id } }), 201).data;

  const sep10 = await signIn(env, BACKEND);
  const strangerSep10 = await signIn(env, WALLET);
  const challenge = ok(await call(env, 'GET', `/anchor/auth?account=${WALLET.publicKey()}`));
  const tx = TransactionBuilder.fromXDR(challenge.transaction, challenge.network_passphrase);
  tx.sign(WALLET);

  const interactive = async (kind: 'deposit' | 'withdraw') => {
    const res = ok(
      await call(env, 'POST', `/api/v1/widget/${kind}/interactive`, {
        headers: widget,
        body: { asset_code: 'USDC', user_id: customer.id, api_key: publicKey, ...(kind === 'deposit' ? { destination_address: WALLET.publicKey() } : {}) },
      }),
    ).data;
    const record = ctx.store.anchor.transactions.get(res.id)!;
    return { id: res.id as string, linkToken: new URL(res.url).searchParams.get('token')!, pageToken: await issuePageToken(ctx, record) };
  };
  const deposit = await interactive('deposit');
  const anchorDepositId = ok(
    await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: { authorization: `Bearer ${sep10}` },
      body: {
        asset_code: 'USDC',
        merchant_id: merchant.id,
        session_id: session.session_id,
        session_token: session.session_token,
        api_key: publicKey,
        user_id: customer.id,
      },
    }),
  ).id as string;
  const withdrawal = await interactive('withdraw');

  env.backend.control.merchants.enableRamp(merchant.id);
  const ramp = { authorization: `Bearer ${secretKey}` };
  const phone = `024${String(1_000_000 + n).slice(-7)}`;
  const kyc = ok(await call(env, 'POST', '/api/v1/ramp/kyc/initiate', { headers: ramp, body: { first_name: 'Kwame', last_name: 'Mensah', phone, provider_name: 'mtn' } }), 201).data;
  const code = ok(await call(env, 'GET', `/_mock/otp?phone=${phone}`)).code;
  ok(await call(env, 'POST', '/api/v1/ramp/kyc/verify', { headers: ramp, body: { kyc_id: kyc.kyc_id, otp_code: code } }));
  const pending = ok(await call(env, 'POST', '/api/v1/ramp/kyc/initiate', { headers: ramp, body: { first_name: 'Esi', last_name: 'Owusu', phone: '0209999999', provider_name: 'telecel' } }), 201).data;
  const order = async (type: 'onramp' | 'offramp', key: string) =>
    ok(
      await call(env, 'POST', '/api/v1/ramp/orders', {
        headers: { ...ramp, 'x-idempotency-key': key },
        body: {
          type,
          fiat_amount: 100,
          ...(type === 'onramp' ? { destination_wallet: WALLET.publicKey() } : {}),
          payment_method: 'mobile_money',
          user: { first_name: 'Kwame', last_name: 'Mensah', phone, network: 'mtn' },
        },
      }),
      201,
    ).data.reference as string;
  const onramp = await order('onramp', `world-${n}-on`);
  const offramp = await order('offramp', `world-${n}-off`);

  const checkoutKey = ok(await call(env, 'POST', '/_mock/checkout/keys', { body: {} }), 201).key as string;
  const checkout = { authorization: `Bearer ${checkoutKey}` };
  const pay = async () =>
    ok(
      await call(env, 'POST', '/api/v1/developer/payments', {
        headers: checkout,
        body: { type: 'checkout', amount: 5_000, currency: 'GHS', recipient: { name: 'Ama', email: 'ama@example.com' }, redirect_url: 'https://shop.example/done' },
      }),
      201,
    ).data;
  const payment = await pay();
  const pendingPayment = await pay();
  ok(await call(env, 'POST', `/_mock/checkout/${payment.reference}/complete`, { body: { status: 'completed' } }));
  ok(await call(env, 'GET', `/api/v1/developer/payments/${payment.session_id}`, { headers: checkout }));
  const eventId = [...ctx.store.checkout.events.keys()].at(-1)!;
  const endpoint = ok(await call(env, 'POST', '/api/v1/developer/webhooks', { headers: checkout, body: { url: NOBODY } }), 201).data;

  return {
    env,
    merchant,
    credentials,
    dashboard,
    secretKey,
    publicKey,
    spareKeyId: spare.id,
    customerId: customer.id,
    session: { id: session.session_id, token: session.session_token },
    sep10,
    strangerSep10,
    signedChallenge: tx.toXDR(),
    deposit,
    withdrawal,
    anchorDepositId,
    ramp: { phone, pendingKycId: pending.kyc_id, onramp, offramp },
    checkout: { key: checkoutKey, sessionId: payment.session_id, reference: payment.reference, eventId, endpointId: endpoint.id, pendingSessionId: pendingPayment.session_id },
    secrets: [secretKey, checkoutKey, jwt, session.session_token, merchant.stellar_secret, deposit.linkToken, endpoint.secret, credentials.password, merchant.webhook.secret!],
  };
}

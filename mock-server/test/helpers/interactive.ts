/**
 * Set-up for the anchor, interactive transaction and order webhook tests: a merchant with a
 * secret and a public key and an ACCEPTED customer (through the core functions), SEP-10
 * sign-in with a real keypair (the merchant backend's own, or a wallet's: never the merchant's
 * `stellar_public_key`, whose secret no merchant holds), the merchant fields, and interactive
 * transactions started over HTTP.
 */
import { Keypair, TransactionBuilder } from '@stellar/stellar-sdk';
import { expect } from 'vitest';
import { upsertCustomer } from '../../src/customers.js';
import { createApiKey, createMerchant } from '../../src/merchants.js';
import type { CustomerRecord, MerchantRecord } from '../../src/store.js';
import { controlOf } from './checkout.js';
import { call, type MockEnv } from './env.js';

export interface Shop {
  merchant: MerchantRecord;
  secretKey: string;
  publicKey: string;
  customer: CustomerRecord;
}

export const SHOP_ORIGIN = 'https://shop.example';
export const PHONE = '+233201234567';

let shops = 0;

/** A merchant with a secret key, a public key for SHOP_ORIGIN, and an ACCEPTED customer. */
export async function createShop(env: MockEnv): Promise<Shop> {
  const ctx = env.backend.context;
  const n = ++shops;
  const merchant = await createMerchant(ctx, {
    name: `Shop ${n}`,
    legal_name: `Shop ${n} Ltd`,
    email: `owner${n}@shop.example`,
    password: 'correct horse battery',
  });
  const { key: secretKey } = await createApiKey(ctx, merchant, { key_type: 'secret' });
  const { key: publicKey } = await createApiKey(ctx, merchant, { key_type: 'public', domains: [SHOP_ORIGIN] });
  const { customer } = upsertCustomer(ctx, merchant.id, { first_name: 'Ama', last_name: 'Mensah', email_address: `ama${n}@example.com` });
  return { merchant, secretKey, publicKey, customer };
}

/** Signs in at the anchor with SEP-10 (challenge signed by `keypair`) and returns the JWT. */
export async function signIn(env: MockEnv, keypair: Keypair, query = ''): Promise<string> {
  const challenge = await call(env, 'GET', `/anchor/auth?account=${keypair.publicKey()}${query}`);
  expect(challenge.status).toBe(200);
  const tx = TransactionBuilder.fromXDR(challenge.body.transaction, challenge.body.network_passphrase);
  tx.sign(keypair);
  const res = await call(env, 'POST', '/anchor/auth', { body: { transaction: tx.toXDR() } });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

/** Opens a widget session for the customer with the shop's secret key (POST /api/v1/widget/session). */
export async function openSession(env: MockEnv, shop: Shop, userId = shop.customer.id) {
  const res = await call(env, 'POST', '/api/v1/widget/session', { headers: { 'x-api-key': shop.secretKey }, body: { user_id: userId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { session_id: string; session_token: string; merchant_id: string; expires_at: string };
}

/**
 * The five merchant fields of 000 section 4 for the customer, as the merchant's backend sends
 * them to the anchor: a fresh session opened with its secret key, and its public key.
 */
export async function merchantFields(env: MockEnv, shop: Shop, userId = shop.customer.id) {
  const session = await openSession(env, shop, userId);
  return {
    merchant_id: shop.merchant.id,
    session_id: session.session_id,
    session_token: session.session_token,
    api_key: shop.publicKey,
    user_id: userId,
  };
}

/** Buys through the widget backend; returns the interactive transaction `{type, url, id}`. */
export async function startDeposit(env: MockEnv, shop: Shop, body: Record<string, unknown> = {}) {
  const res = await call(env, 'POST', '/api/v1/widget/deposit/interactive', {
    headers: { 'x-api-key': shop.secretKey },
    body: { asset_code: 'USDC', user_id: shop.customer.id, api_key: shop.publicKey, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { type: string; url: string; id: string };
}

/** Sells through the widget backend; returns the interactive transaction `{type, url, id}`. */
export async function startWithdraw(env: MockEnv, shop: Shop, body: Record<string, unknown> = {}) {
  const res = await call(env, 'POST', '/api/v1/widget/withdraw/interactive', {
    headers: { 'x-api-key': shop.secretKey },
    body: { asset_code: 'USDC', user_id: shop.customer.id, api_key: shop.publicKey, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { type: string; url: string; id: string };
}

/** The SEP-24 transaction as `GET /anchor/transaction?id=` answers it. */
export async function getTransaction(env: MockEnv, token: string, id: string) {
  const res = await call(env, 'GET', `/anchor/transaction?id=${id}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.transaction;
}

/**
 * The SEP-24 transaction as the control API shows it, for a transaction started through the
 * widget backend: at the anchor it takes a session's merchant fields to read it, which these
 * tests have no need to open.
 */
// `any`: the suites read the fields of a deposit or a withdrawal without narrowing the union first.
export async function viewTransaction(env: MockEnv, id: string): Promise<any> {
  return (await controlOf(env).anchor.transaction(id)).transaction;
}

/** Finishes the form through the control API (OTP included), as the kit's control client does. */
export async function completeForm(env: MockEnv, id: string, body: { amount?: number; destination_address?: string; phone?: string; provider?: string } = {}): Promise<any> {
  return controlOf(env).anchor.completeInteractive(id, { provider: 'mtn', phone: PHONE, ...body });
}

/** Moves the mock's clock through the kit's control client, running what falls due. */
export const advance = (env: MockEnv, seconds: number) => controlOf(env).clock.advance(seconds);

/** SEP-24 transaction statuses (SEP-24, "Transaction Object"). */
export const SEP24_STATUSES = [
  'incomplete',
  'pending_user_transfer_start',
  'pending_user_transfer_complete',
  'pending_external',
  'pending_anchor',
  'pending_stellar',
  'pending_trust',
  'pending_user',
  'completed',
  'refunded',
  'expired',
  'no_market',
  'too_small',
  'too_large',
  'error',
];
const DECIMAL = /^\d+(\.\d{1,7})?$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * A transaction object as SEP-24 lists its fields: `id`, `kind`, `status`, `more_info_url` and
 * `started_at` always; amounts as decimal strings; times as UTC ISO 8601; `fee_details` as
 * `{ total, asset, breakdown?: [{ name, amount, description? }] }`; `from`/`to` and the
 * withdrawal's `withdraw_*` fields as strings (null until known).
 */
export function expectSep24Transaction(tx: any) {
  expect(typeof tx.id).toBe('string');
  expect(['deposit', 'withdrawal']).toContain(tx.kind);
  expect(SEP24_STATUSES).toContain(tx.status);
  expect(typeof tx.more_info_url).toBe('string');
  expect(tx.started_at).toMatch(ISO);
  for (const key of ['amount_in', 'amount_out', 'amount_fee']) if (tx[key] !== null) expect(tx[key]).toMatch(DECIMAL);
  for (const key of ['amount_in_asset', 'amount_out_asset', 'amount_fee_asset']) expect(tx[key]).toMatch(/^(iso4217:[A-Z]{3}|stellar:USDC:G[A-Z2-7]{55})$/);
  for (const key of ['updated_at', 'completed_at']) if (tx[key] !== null) expect(tx[key]).toMatch(ISO);
  for (const key of ['stellar_transaction_id', 'external_transaction_id', 'from', 'to']) if (tx[key] !== null) expect(typeof tx[key]).toBe('string');
  expect(typeof tx.refunded).toBe('boolean');
  if ('fee_details' in tx) {
    expect(Object.keys(tx.fee_details).sort()).toEqual(['asset', 'breakdown', 'total']);
    expect(tx.fee_details.total).toMatch(DECIMAL);
    expect(tx.fee_details.asset).toBe(tx.amount_fee_asset);
    expect(tx.fee_details.total).toBe(tx.amount_fee);
    let sum = 0;
    for (const d of tx.fee_details.breakdown) {
      expect(typeof d.name).toBe('string');
      expect(d.amount).toMatch(DECIMAL);
      if ('description' in d) expect(typeof d.description).toBe('string');
      sum += Math.round(Number(d.amount) * 100);
    }
    expect(sum).toBe(Math.round(Number(tx.fee_details.total) * 100));
  }
  if (tx.kind === 'withdrawal') {
    for (const key of ['withdraw_anchor_account', 'withdraw_memo']) if (tx[key] !== null) expect(typeof tx[key]).toBe('string');
    expect(tx.withdraw_memo_type).toBe('id');
  }
  if (tx.status === 'error' || tx.status === 'expired') expect(typeof tx.message).toBe('string');
}

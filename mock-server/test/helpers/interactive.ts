/**
 * Set-up for the anchor, interactive transaction and order webhook tests: a merchant with a
 * secret and a public key and an ACCEPTED customer (through the core functions), SEP-10
 * sign-in with a real keypair, and interactive transactions started over HTTP.
 */
import { Keypair, TransactionBuilder } from '@stellar/stellar-sdk';
import { expect } from 'vitest';
import { upsertCustomer } from '../../src/customers.js';
import { createApiKey, createMerchant } from '../../src/merchants.js';
import type { CustomerRecord, MerchantRecord } from '../../src/store.js';
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

/** Finishes the form through the control API (OTP included). */
export async function completeForm(env: MockEnv, id: string, body: Record<string, unknown> = {}) {
  const res = await call(env, 'POST', `/_mock/transactions/${id}/complete-interactive`, {
    body: { provider: 'mtn', phone: PHONE, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.transaction;
}

export const advance = (env: MockEnv, seconds: number) => call(env, 'POST', '/_mock/clock/advance', { body: { seconds } });

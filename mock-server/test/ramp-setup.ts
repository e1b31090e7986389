/**
 * Set-up shared by the ramp suites: a merchant with a secret key made with the core
 * functions, activated for ramp by the operator's control call, and calls of the ramp API.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { expect } from 'vitest';
import type { ControlClient } from '../src/client.js';
import { createApiKey, createMerchant } from '../src/merchants.js';
import type { MerchantRecord } from '../src/store.js';
import { call, type CallResult, type MockEnv } from './helpers/env.js';

let counter = 0;

export interface RampMerchant {
  merchant: MerchantRecord;
  key: string;
  /** `Authorization: Bearer <secret key>`. */
  auth: Record<string, string>;
}

export async function rampMerchant(env: MockEnv, { enable = true } = {}): Promise<RampMerchant> {
  const ctx = env.backend.context;
  const merchant = await createMerchant(ctx, {
    name: 'Ama Ramp',
    legal_name: 'Ama Ramp Ltd',
    email: `ramp${++counter}@example.com`,
    password: 'correct horse battery',
  });
  const { key } = await createApiKey(ctx, merchant, { key_type: 'secret' });
  if (enable) env.backend.control.merchants.enableRamp(merchant.id);
  return { merchant, key, auth: { authorization: `Bearer ${key}` } };
}

/** A Ghanaian number in local format, different for every call. */
export const newPhone = () => `024${String(1_000_000 + ++counter).slice(-7)}`;

/** Initiates KYC and verifies it with the code read from `GET /_mock/otp`. */
export async function verifyPhone(env: MockEnv, m: RampMerchant, phone: string): Promise<void> {
  const init = await call(env, 'POST', '/api/v1/ramp/kyc/initiate', {
    headers: m.auth,
    body: { first_name: 'Kwame', last_name: 'Mensah', phone, provider_name: 'MTN' },
  });
  expect(init.status, JSON.stringify(init.body)).toBe(201);
  const otp = await call(env, 'GET', `/_mock/otp?phone=${phone}`);
  const res = await call(env, 'POST', '/api/v1/ramp/kyc/verify', {
    headers: m.auth,
    body: { kyc_id: init.body.data.kyc_id, otp_code: otp.body.code },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export interface OrderInput {
  type?: 'onramp' | 'offramp';
  fiat_amount?: number;
  phone?: string;
  destination_wallet?: string;
}

export function orderBody(input: OrderInput & { phone: string }) {
  const type = input.type ?? 'onramp';
  return {
    type,
    fiat_amount: input.fiat_amount ?? 100,
    ...(type === 'onramp' ? { destination_wallet: input.destination_wallet ?? Keypair.random().publicKey() } : {}),
    payment_method: 'mobile_money',
    user: { first_name: 'Kwame', last_name: 'Mensah', phone: input.phone, network: 'MTN' },
  };
}

let keys = 0;
/** A fresh idempotency key. */
export const newKey = () => `idem-${++keys}-${Math.random().toString(36).slice(2)}`;

export function createOrder(env: MockEnv, m: RampMerchant, body: unknown, key: string = newKey()): Promise<CallResult> {
  return call(env, 'POST', '/api/v1/ramp/orders', { headers: { ...m.auth, 'x-idempotency-key': key }, body });
}

/** The creation `data` of an order, plus the phone it was placed for. */
export interface PlacedOrder {
  [field: string]: any;
  id: string;
  reference: string;
  phone: string;
}

/** Verifies a phone (unless one is given) and creates an order for it. */
export async function placeOrder(env: MockEnv, m: RampMerchant, input: OrderInput = {}): Promise<PlacedOrder> {
  const phone = input.phone ?? newPhone();
  if (!input.phone) await verifyPhone(env, m, phone);
  const res = await createOrder(env, m, orderBody({ ...input, phone }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...res.body.data, phone };
}

export async function getOrder(env: MockEnv, m: RampMerchant, reference: string): Promise<Record<string, any>> {
  const res = await call(env, 'GET', `/api/v1/ramp/orders/${reference}`, { headers: m.auth });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export const statusOf = async (env: MockEnv, m: RampMerchant, reference: string) => (await getOrder(env, m, reference)).status as string;

/** Moves the mock's clock over the control API. */
export async function advance(env: MockEnv, seconds: number): Promise<void> {
  const res = await call(env, 'POST', '/_mock/clock/advance', { body: { seconds } });
  expect(res.status).toBe(200);
}

/** The user's wallet pays an off-ramp order's deposit (control `POST /_mock/stellar/payments`). */
export async function payDeposit(env: MockEnv, order: Record<string, any>, from: string, amount: string | number = order.crypto_amount) {
  const res = await call(env, 'POST', '/_mock/stellar/payments', {
    body: { from, to: order.deposit.stellar_address, amount: String(amount), asset_code: 'USDC', memo: order.deposit.memo },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { hash: string; matched: { kind: string; id: string } | null };
}

/** A sell whose deposit has arrived and been confirmed, with its first payout sent to the phone. */
export interface SoldOrder {
  /** The seller's verified phone number. */
  phone: string;
  /** The off-ramp order's creation `data`. */
  order: Record<string, any>;
  /** The Stellar account that paid the deposit. */
  wallet: string;
}

/**
 * As a developer drives it through the control client: a fixture merchant and verified phone, an
 * off-ramp order over the API, the wallet's payment to its deposit address, the confirm, then
 * `advance(2)` (the caller's, which may count the time) so that the order sends its payout.
 */
export async function sellUntilPayout(env: MockEnv, control: ControlClient, advance: (seconds: number) => Promise<void>): Promise<SoldOrder> {
  const merchant = await control.fixtures.merchant();
  const { phone } = await control.fixtures.verifiedPhone(merchant);
  const auth = { authorization: `Bearer ${merchant.secret_key}` };
  const created = await call(env, 'POST', '/api/v1/ramp/orders', {
    headers: { ...auth, 'x-idempotency-key': newKey() },
    body: orderBody({ type: 'offramp', phone }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const order = created.body.data;
  const wallet = Keypair.random().publicKey();
  await control.rails.sendStellarPayment({ from: wallet, to: order.deposit.stellar_address, amount: order.crypto_amount, memo: order.deposit.memo });
  const confirmed = await call(env, 'POST', `/api/v1/ramp/orders/${order.reference}/confirm`, { headers: auth, body: { source_wallet: wallet } });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  await advance(2);
  return { phone, order, wallet };
}

import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  DuplicateOrderError,
  NotFoundError,
  UnprocessableEntityError,
  ValidationError,
  type RampOrderCreateParams,
} from '../src/index.js';
import { wireFetch, type Wire } from './helpers/wire.js';
import { MODES, type MockEnv } from './helpers/mock.js';
import { newRamp, offRamp, onRamp, payDeposit, user, verifiedPhone, type Ramp } from './helpers/ramp.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(MODES)('ramp.orders, %s', (_name, start) => {
  let env: MockEnv;
  let ramp: Ramp;
  let wire: Wire;
  let phone: string;
  beforeAll(async () => {
    env = await start({ seed: 82 });
    wire = wireFetch();
    ramp = await newRamp(env, { fetch: wire.fetch });
    phone = await verifiedPhone(env, ramp);
  });
  afterAll(() => env.close());

  const ordersOf = (r: Ramp) => [...env.backend.store.ramp.orders.values()].filter((o) => o.merchant_id === r.merchantId);
  const creations = () => wire.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/ramp/orders');

  it('creates an on-ramp order under a generated X-Idempotency-Key, quote_locked until the service sends the prompt 2 s later', async () => {
    const before = creations().length;
    const order = await ramp.client.orders.create(onRamp(phone, 250));
    expect(order).toMatchObject({ id: expect.stringMatching(UUID), type: 'onramp', status: 'quote_locked', fiat_amount: 250, rate: expect.any(Number) });
    expect(order.reference).toMatch(/^RMP-\d{8}-[0-9a-f-]{36}$/);
    expect(order.crypto_amount).toBeGreaterThan(0);
    const sent = creations().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('x-idempotency-key')).toMatch(UUID);
    expect(JSON.parse(sent[0]!.body!)).toMatchObject({ type: 'onramp', payment_method: 'mobile_money', user: user(phone) });
    await expect(ramp.client.orders.get(order.reference)).resolves.toMatchObject({ status: 'quote_locked', crypto_tx_hash: null, completed_at: null });
    await env.backend.clock.advance(2);
    await expect(ramp.client.orders.get(order.reference)).resolves.toMatchObject({ status: 'fiat_pending', crypto_tx_hash: null, completed_at: null });
  });

  it('creates an off-ramp order with the deposit address and memo to pay', async () => {
    const order = await ramp.client.orders.create(offRamp(phone, 120));
    expect(order.deposit).toEqual({ stellar_address: env.backend.store.merchants.get(ramp.merchantId)!.stellar_public_key, memo: expect.stringMatching(/^RMP[0-9A-F]{16}$/) });
    await env.backend.clock.advance(2);
    await expect(ramp.client.orders.get(order.reference)).resolves.toMatchObject({ status: 'crypto_pending', type: 'offramp' });
  });

  it('sends the key it is given, and a second order under it is DuplicateOrderError naming the first, not retried', async () => {
    const idempotencyKey = `order-${crypto.randomUUID()}`;
    const first = await ramp.client.orders.create(onRamp(phone), { idempotencyKey });
    expect(creations().at(-1)!.headers.get('x-idempotency-key')).toBe(idempotencyKey);
    const before = creations().length;
    const error = await ramp.client.orders.create(onRamp(phone), { idempotencyKey }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateOrderError);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'DUPLICATE_ORDER', reference: first.reference });
    expect(creations().length - before).toBe(1);
  });

  it.each(['reject', 'truncate'] as const)('creates exactly one order when the answer is lost (%s) and the retry meets it', async (fault) => {
    const before = ordersOf(ramp).length;
    const sentBefore = creations().length;
    wire.faults.push(fault);
    const order = await ramp.client.orders.create(onRamp(phone, 60));
    const attempts = creations().slice(sentBefore);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.headers.get('x-idempotency-key')).toBe(attempts[0]!.headers.get('x-idempotency-key'));
    expect(ordersOf(ramp)).toHaveLength(before + 1);
    expect(order).toMatchObject({ reference: ordersOf(ramp).at(-1)!.reference, fiat_amount: 60, status: 'quote_locked' });
  });

  it('refuses bad orders before sending, naming each field', async () => {
    const before = wire.requests.length;
    const refused = async (params: unknown) => {
      const error = await ramp.client.orders.create(params as RampOrderCreateParams).catch((e: unknown) => e as ValidationError);
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).issues.map((i) => i.path.join('.'));
    };
    expect(await refused({ type: 'onramp', fiat_amount: 100, user: user(phone) })).toEqual(['destination_wallet']);
    expect(await refused({ ...onRamp(phone), fiat_amount: 9.99 })).toEqual(['fiat_amount']);
    expect(await refused({ ...onRamp(phone), fiat_amount: 10.005 })).toEqual(['fiat_amount']);
    expect(await refused({ ...onRamp(phone), destination_wallet: 'GABC' })).toEqual(['destination_wallet']);
    expect(await refused({ ...offRamp(phone), destination_wallet: Keypair.random().publicKey() })).toEqual(['']);
    expect(await refused({ ...onRamp(phone), user: { ...user(phone), phone: '+233241234567' } })).toEqual(['user.phone']);
    expect(await refused({ ...onRamp(phone), payment_method: 'card' })).toEqual(['payment_method']);
    expect(await refused({ ...onRamp(phone), type: 'swap' })).toEqual(['type']);
    await expect(ramp.client.orders.get('../kyc/initiate')).rejects.toBeInstanceOf(ValidationError);
    await expect(ramp.client.orders.confirm('RMP-1', { source_wallet: 'not-a-wallet' })).rejects.toBeInstanceOf(ValidationError);
    expect(wire.requests.length).toBe(before);
  });

  it('answers a phone without KYC and an amount above the limit with UnprocessableEntityError, creating nothing', async () => {
    const before = ordersOf(ramp).length;
    await expect(ramp.client.orders.create(onRamp('0209999999'))).rejects.toMatchObject({ status: 422, code: 'PHONE_NOT_VERIFIED' });
    const error = await ramp.client.orders.create(onRamp(phone, 5_000.01)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE' });
    expect(ordersOf(ramp)).toHaveLength(before);
  });

  it('cancels an order before payment; cancelling again is ConflictError INVALID_STATE', async () => {
    const order = await ramp.client.orders.create(onRamp(phone));
    await expect(ramp.client.orders.cancel(order.reference)).resolves.toMatchObject({ reference: order.reference, status: 'cancelled' });
    const again = await ramp.client.orders.cancel(order.reference).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({ status: 409, code: 'INVALID_STATE', message: expect.stringContaining('already ended (status is cancelled)') });
  });

  it('confirms an off-ramp order with the paying wallet, and refuses another wallet and an on-ramp order', async () => {
    const order = await ramp.client.orders.create(offRamp(phone, 50));
    const wallet = Keypair.random().publicKey();
    await payDeposit(env, order, wallet);
    const mismatch = await ramp.client.orders.confirm(order.reference, { source_wallet: Keypair.random().publicKey() }).catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(UnprocessableEntityError);
    expect(mismatch).toMatchObject({ status: 422, code: 'SOURCE_WALLET_MISMATCH' });
    await expect(ramp.client.orders.confirm(order.reference, { source_wallet: wallet })).resolves.toMatchObject({ status: 'crypto_confirmed', source_wallet: wallet });
    const onramp = await ramp.client.orders.create(onRamp(phone));
    await expect(ramp.client.orders.confirm(onramp.reference, { source_wallet: wallet })).rejects.toMatchObject({ status: 409, code: 'INVALID_STATE' });
  });

  it("answers an unknown reference and another merchant's order with NotFoundError", async () => {
    const order = await ramp.client.orders.create(onRamp(phone));
    await expect(ramp.client.orders.get('RMP-20260101-00000000-0000-0000-0000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    const other = await newRamp(env);
    await expect(other.client.orders.get(order.reference)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

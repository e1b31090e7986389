/**
 * 001 section 4: "JSON bodies use Content-Type: application/json". A body the service would
 * not read as JSON (no Content-Type, `text/plain` as `fetch` sends a string by default, a form)
 * must not pass against the mock either, or code tested here would fail at the live service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { expectError } from './helpers/merchant.js';
import { newKey, newPhone, orderBody, placeOrder, rampMerchant, verifyPhone, type RampMerchant } from './ramp-setup.js';

describe.each(MODES)('ramp API request bodies, %s', (_name, start) => {
  let env: MockEnv;
  let m: RampMerchant;
  let phone: string;
  beforeAll(async () => {
    env = await start({ seed: 77 });
    m = await rampMerchant(env);
    phone = newPhone();
    await verifyPhone(env, m, phone);
  });
  afterAll(() => env.close());

  const bodies = () => ({
    '/api/v1/ramp/kyc/initiate': { first_name: 'Kwame', last_name: 'Mensah', phone: newPhone(), provider_name: 'MTN' },
    '/api/v1/ramp/kyc/verify': { kyc_id: 'kyc_unknown', otp_code: '123456' },
    '/api/v1/ramp/orders': orderBody({ phone, type: 'offramp' }),
  });

  it.each([
    ['no Content-Type', undefined],
    ['text/plain', 'text/plain;charset=UTF-8'],
    ['a form', 'application/x-www-form-urlencoded'],
  ])('refuses a JSON body sent with %s with 415, creating nothing', async (_what, type) => {
    const order = await placeOrder(env, m, { type: 'offramp' });
    const paths = { ...bodies(), [`/api/v1/ramp/orders/${order.reference}/confirm`]: { source_wallet: 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI' } };
    const orders = env.backend.store.ramp.orders.size;
    const kyc = env.backend.store.ramp.kyc.size;
    for (const [path, body] of Object.entries(paths)) {
      const headers: Record<string, string> = { ...m.auth, 'x-idempotency-key': newKey(), ...(type ? { 'content-type': type } : {}) };
      const res = await call(env, 'POST', path, { rawBody: JSON.stringify(body), headers });
      expectError(res, 415, 'VALIDATION_ERROR');
      expect(res.body.error.message).toBe('Content-Type must be application/json');
    }
    expect(env.backend.store.ramp.orders.size).toBe(orders);
    expect(env.backend.store.ramp.kyc.size).toBe(kyc);
    expect((await call(env, 'GET', `/api/v1/ramp/orders/${order.reference}`, { headers: m.auth })).body.data.source_wallet).toBeNull();
  });

  it('takes application/json with a charset, in any case', async () => {
    const res = await call(env, 'POST', '/api/v1/ramp/orders', {
      rawBody: JSON.stringify(orderBody({ phone, type: 'offramp' })),
      headers: { ...m.auth, 'x-idempotency-key': newKey(), 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

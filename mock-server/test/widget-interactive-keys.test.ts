import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { createKey, expectError, registerMerchant, snapshot, type TestMerchant } from './helpers/merchant.js';

/**
 * The two keys of an interactive request at the widget backend: the secret key in X-API-Key
 * and the public key in `api_key`, which the customer's page then confirms the order with.
 */
describe.each(MODES)('widget interactive requests and their two keys, %s', (_name, start) => {
  let env: MockEnv;
  let merchant: TestMerchant;
  let secretKey: string;
  let customerId: string;
  beforeAll(async () => {
    env = await start();
    merchant = await registerMerchant(env);
    secretKey = (await createKey(env, merchant, { key_type: 'secret' })).key;
    const created = await call(env, 'POST', '/api/v1/widget/customer', {
      headers: { 'x-api-key': secretKey },
      body: { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama.keys@example.com' },
    });
    customerId = created.body.data.id;
  });
  afterAll(() => env.close());

  const start_ = (kind: 'deposit' | 'withdraw', publicKey: string) =>
    call(env, 'POST', `/api/v1/widget/${kind}/interactive`, {
      headers: { 'x-api-key': secretKey },
      body: { asset_code: 'USDC', user_id: customerId, api_key: publicKey },
    });

  it("refuses a flow the public key lacks the permission for with 403, before anything is opened", async () => {
    // The page confirms with the public key, which POST /api/v1/widget/orders checks: a flow
    // opened for a public key that may not confirm it would strand the customer at the end.
    const sellOnly = (await createKey(env, merchant, { key_type: 'public', permissions: ['offramp'] })).key;
    const buyOnly = (await createKey(env, merchant, { key_type: 'public', permissions: ['onramp'] })).key;
    const before = snapshot(env.backend.store);
    const sessions = env.backend.store.sessions.size;
    for (const [kind, key, lacking] of [['deposit', sellOnly, 'onramp'], ['withdraw', buyOnly, 'offramp']] as const) {
      const res = await start_(kind, key);
      expectError(res, 403, 'FORBIDDEN');
      expect(res.body.error.message).toContain(lacking);
    }
    expect(snapshot(env.backend.store)).toEqual(before);
    expect(env.backend.store.sessions.size).toBe(sessions);
    expect((await start_('deposit', buyOnly)).status).toBe(200);
    expect((await start_('withdraw', sellOnly)).status).toBe(200);
  });

  it('refuses a revoked public key, a secret key and another merchant\'s public key in api_key with 400', async () => {
    const other = await registerMerchant(env);
    const foreign = (await createKey(env, other, { key_type: 'public' })).key;
    const revoked = await createKey(env, merchant, { key_type: 'public' });
    await call(env, 'DELETE', `/api/v1/merchant/apikeys/${revoked.id}`, { headers: merchant.auth });
    for (const key of [revoked.key, secretKey, foreign]) {
      const res = await start_('deposit', key);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(JSON.stringify(res.body)).not.toContain(key);
    }
  });
});

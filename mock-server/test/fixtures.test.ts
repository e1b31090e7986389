/**
 * `control.fixtures`: a merchant, a customer, a verified phone and a checkout key in one call
 * each, in-process and through `@sikaramp/mock-server/client`, against the mock in-process and
 * standalone on 127.0.0.1. Every fixture is checked through the public API it is made for.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../src/client.js';
import { createPayment } from './helpers/checkout.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { signIn } from './helpers/interactive.js';
import { expectError } from './helpers/merchant.js';
import { newKey, orderBody } from './ramp-setup.js';

const order = (phone: string) => orderBody({ phone });

describe.each(MODES)('fixtures, mock %s', (_mode, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start();
  });
  afterAll(() => env.close());

  describe.each([
    ['backend.control.fixtures', () => env.backend.control.fixtures],
    ['the control client', () => createControlClient({ baseUrl: env.origin }).fixtures],
  ])('through %s', (_how, fixtures) => {
    it('makes an active merchant, ramp enabled, whose keys, login and webhook work', async () => {
      const receiver = 'http://127.0.0.1:9/hooks';
      const merchant = await fixtures().merchant({ webhook_url: receiver, domains: ['http://localhost:3000'] });
      const profile = await call(env, 'GET', '/api/v1/merchant/profile', { headers: { authorization: `Bearer ${merchant.access_token}` } });
      expect(profile.body.data).toMatchObject({ id: merchant.id, email: merchant.email, status: 'active' });
      const login = await call(env, 'POST', '/api/v1/merchant/login', { body: { email: merchant.email, password: merchant.password } });
      expect(login.status).toBe(200);
      expect(merchant.secret_key).toMatch(/^sika_secret_[0-9a-f]{48}$/);
      expect((await call(env, 'GET', '/api/v1/widget/config', { headers: { 'x-api-key': merchant.public_key, origin: 'http://localhost:3000' } })).status).toBe(200);
      const webhook = await call(env, 'GET', '/api/v1/merchant/webhook', { headers: { authorization: `Bearer ${merchant.access_token}` } });
      expect(webhook.body.data).toMatchObject({ url: receiver, secret: merchant.webhook!.secret });
      expect((await fixtures().merchant()).webhook).toBeNull();
    });

    it('makes an ACCEPTED customer of the merchant, even with a last_name that triggers another review', async () => {
      const merchant = await fixtures().merchant();
      for (const last_name of [undefined, 'Rejected', 'Processing']) {
        const customer = await fixtures().customer(merchant, { last_name });
        expect(customer.status).toBe('ACCEPTED');
        const lookup = await call(env, 'GET', `/api/v1/widget/customer/${customer.id}`, { headers: { 'x-api-key': merchant.secret_key } });
        expect(lookup.body.data).toEqual(customer);
      }
    });

    it('verifies a phone, so that a ramp order for it is accepted where an unverified one is refused', async () => {
      const merchant = await fixtures().merchant();
      const auth = () => ({ authorization: `Bearer ${merchant.secret_key}`, 'x-idempotency-key': newKey() });
      const { phone } = await fixtures().verifiedPhone(merchant);
      expect(phone).toMatch(/^024\d{7}$/);
      const created = await call(env, 'POST', '/api/v1/ramp/orders', { body: order(phone), headers: auth() });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expectError(await call(env, 'POST', '/api/v1/ramp/orders', { body: order('0559999999'), headers: auth() }), 422, 'PHONE_NOT_VERIFIED');
      expect((await fixtures().verifiedPhone(merchant, { phone: '0559999999', provider: 'telecel' })).phone).toBe('0559999999');
      expect((await call(env, 'POST', '/api/v1/ramp/orders', { body: order('0559999999'), headers: auth() })).status).toBe(201);
    });

    it('makes a checkout organization whose key takes payments, with a subscribed endpoint', async () => {
      const checkout = await fixtures().checkout({ webhook_url: 'http://127.0.0.1:9/checkout-hooks' });
      expect(checkout.organization_id).toMatch(/^org_/);
      expect(checkout.webhook).toMatchObject({ url: 'http://127.0.0.1:9/checkout-hooks', secret: expect.any(String) });
      expect((await createPayment(env, checkout.key)).reference).toEqual(expect.any(String));
      expect((await fixtures().checkout()).webhook).toBeNull();
    });

    it('refuses bad input with a typed error and makes nothing', async () => {
      const merchants = env.backend.store.merchants.size;
      await expect(fixtures().merchant({ webhook_url: 'ftp://example.com' })).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(env.backend.store.merchants.size).toBe(merchants);
      const customers = env.backend.store.customers.size;
      await expect(fixtures().customer({ secret_key: 'sika_secret_wrong' })).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      expect(env.backend.store.customers.size).toBe(customers);
      await expect(fixtures().verifiedPhone({ secret_key: 'x' }, { phone: '12345' })).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    });
  });
});

describe.each(MODES)('Mobile Money test phones, mock %s', (_mode, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    // Auto-advance approves every other prompt after 5 s: the test phones overrule it.
    env = await start({ autoAdvance: { walletPays: false } });
  });
  afterAll(() => env.close());

  async function promptFor(phone: string) {
    const merchant = await env.backend.control.fixtures.merchant();
    await env.backend.control.fixtures.verifiedPhone(merchant, { phone });
    const headers = { authorization: `Bearer ${merchant.secret_key}`, 'x-idempotency-key': newKey() };
    const created = await call(env, 'POST', '/api/v1/ramp/orders', { body: order(phone), headers });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id: string = created.body.data.id;
    const client = createControlClient({ baseUrl: env.origin });
    return { id, prompt: async () => (await client.ramp.order(id)).rails.collections[0]?.status };
  }

  it('0240000001 declines the prompt, 0240000002 leaves it to time out, another number is approved', async () => {
    const declined = await promptFor('0240000001');
    const timesOut = await promptFor('0240000002');
    const approved = await promptFor('0241234567');
    await env.backend.control.clock.advance(2 + 5);
    expect(await declined.prompt()).toBe('declined');
    expect(await timesOut.prompt()).toBe('pending');
    expect(await approved.prompt()).toBe('approved');
    await env.backend.control.clock.advance(300 + 120);
    expect(await timesOut.prompt()).toBe('timed_out');
  });

  it("declines an interactive deposit's prompt to +233240000001, the same number in international format", async () => {
    const token = await signIn(env, Keypair.random());
    const started = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: { authorization: `Bearer ${token}` },
      body: { asset_code: 'USDC', amount: '50' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const client = createControlClient({ baseUrl: env.origin });
    await client.anchor.completeInteractive(started.body.id, { provider: 'mtn', phone: '+233240000001', amount: 50 });
    const { collection_id } = await client.anchor.transaction(started.body.id);
    expect((await client.rails.prompts()).find((p) => p.id === collection_id)?.status).toBe('pending');
    await client.clock.advance(5);
    expect((await client.rails.prompts()).find((p) => p.id === collection_id)?.status).toBe('declined');
  });
});

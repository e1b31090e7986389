import { describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';

/** One merchant's set-up through the public endpoints; returns every id, key and time the mock chose. */
async function setUp(env: MockEnv) {
  const reg = await call(env, 'POST', '/api/v1/merchant/register', {
    body: { name: 'Seed Shop', legal_name: 'Seed Shop Ltd', email: 'seed@example.com', password: 'seeded password' },
  });
  const login = await call(env, 'POST', '/api/v1/merchant/login', { body: { email: 'seed@example.com', password: 'seeded password' } });
  const auth = { authorization: `Bearer ${login.body.data.access_token}` };
  const pk = await call(env, 'POST', '/api/v1/merchant/apikeys', { headers: auth, body: { key_type: 'public', domains: ['https://shop.example.com'] } });
  const sk = await call(env, 'POST', '/api/v1/merchant/apikeys', { headers: auth, body: { key_type: 'secret', domains: [] } });
  const webhook = await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: auth, body: { url: 'https://shop.example.com/hooks' } });
  const headers = { 'x-api-key': sk.body.data.key };
  const customer = await call(env, 'POST', '/api/v1/widget/customer', {
    headers,
    body: { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' },
  });
  const session = await call(env, 'POST', '/api/v1/widget/session', { headers, body: { user_id: customer.body.data.id } });
  return {
    merchant: reg.body.data,
    access_token: login.body.data.access_token,
    public_key: pk.body.data,
    secret_key: sk.body.data,
    webhook: webhook.body.data,
    customer: customer.body.data,
    session: session.body.data,
    password_hash: env.backend.store.merchants.get(reg.body.data.id)!.password_hash,
  };
}

describe.each(MODES)('--seed, %s', (_name, start) => {
  async function run(seed: number) {
    const env = await start({ seed });
    try {
      return await setUp(env);
    } finally {
      await env.close();
    }
  }

  it('gives the same ids, keys, secrets, tokens and times for the same calls under the same seed', async () => {
    const first = await run(42);
    const second = await run(42);
    expect(second).toEqual(first);
    expect(first.merchant.created_at).toBe('2026-01-01T00:00:00.000000000Z');
    expect(first.session.expires_at).toBe('2026-01-01T00:30:00.000Z');
    expect(first.secret_key.key).toMatch(/^sika_secret_[0-9a-f]{48}$/);
  });

  it('gives different ones under another seed', async () => {
    const a = await run(1);
    const b = await run(2);
    expect(b.merchant.id).not.toBe(a.merchant.id);
    expect(b.merchant.stellar_public_key).not.toBe(a.merchant.stellar_public_key);
    expect(b.secret_key.key).not.toBe(a.secret_key.key);
    expect(b.webhook.secret).not.toBe(a.webhook.secret);
  });
});

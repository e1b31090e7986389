import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { createKey, expectError, registerMerchant, type TestMerchant } from './helpers/merchant.js';

describe.each(MODES)('widget API keys: rate limit, IPs, revocation, %s', (_name, start) => {
  let env: MockEnv;
  let merchant: TestMerchant;
  beforeAll(async () => {
    env = await start();
    merchant = await registerMerchant(env);
  });
  afterAll(() => env.close());

  const config = (key: string) => call(env, 'GET', '/api/v1/widget/config', { headers: { 'x-api-key': key } });

  it('answers 429 RATE_LIMITED with Retry-After above rate_limit_rpm, until the minute has passed', async () => {
    const { key } = await createKey(env, merchant, { key_type: 'secret', rate_limit_rpm: 5 });
    for (let i = 0; i < 5; i++) expect((await config(key)).status).toBe(200);
    const limited = await config(key);
    expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('60');

    await env.backend.clock.advance(59);
    const still = await config(key);
    expectError(still, 429, 'RATE_LIMITED');
    expect(still.headers.get('retry-after')).toBe('1');

    await env.backend.clock.advance(1);
    expect((await config(key)).status).toBe(200);
  });

  it('counts each key on its own', async () => {
    const a = await createKey(env, merchant, { key_type: 'secret', rate_limit_rpm: 1 });
    const b = await createKey(env, merchant, { key_type: 'secret', rate_limit_rpm: 1 });
    expect((await config(a.key)).status).toBe(200);
    expectError(await config(a.key), 429, 'RATE_LIMITED');
    expect((await config(b.key)).status).toBe(200);
  });

  it('allows a new key its 600 requests a minute and refuses the 601st', async () => {
    const { key } = await createKey(env, merchant, { key_type: 'secret' });
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 6; batch++) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => config(key)));
      for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 600 });
    expectError(await config(key), 429, 'RATE_LIMITED');
  });

  it('refuses a secret key from an address outside allowed_ips with 403 FORBIDDEN', async () => {
    const outside = await createKey(env, merchant, { key_type: 'secret', allowed_ips: ['203.0.113.7'] });
    expectError(await config(outside.key), 403, 'FORBIDDEN');
    const inside = await createKey(env, merchant, { key_type: 'secret', allowed_ips: ['203.0.113.7', '127.0.0.1'] });
    expect((await config(inside.key)).status).toBe(200);
  });

  it('does not let a caller claim another address with the internal client-IP header', async () => {
    const outside = await createKey(env, merchant, { key_type: 'secret', allowed_ips: ['203.0.113.7'] });
    const res = await call(env, 'GET', '/api/v1/widget/config', {
      headers: { 'x-api-key': outside.key, 'x-sikaramp-client-ip': '203.0.113.7' },
    });
    // In-process, tests stand in for the server and the header is the configured way to set the IP.
    expect(res.status).toBe(env.mode === 'standalone' ? 403 : 200);
  });

  it('takes the address from the connection, never from forwarding headers a caller writes', async () => {
    const outside = await createKey(env, merchant, { key_type: 'secret', allowed_ips: ['203.0.113.7'] });
    for (const forwarded of [
      { 'x-forwarded-for': '203.0.113.7' } as Record<string, string>,
      { 'x-forwarded-for': '127.0.0.2, 203.0.113.7' },
      { forwarded: 'for=203.0.113.7' },
      { 'x-real-ip': '203.0.113.7' },
      { 'true-client-ip': '203.0.113.7' },
      { 'cf-connecting-ip': '203.0.113.7' },
    ]) {
      expectError(await call(env, 'GET', '/api/v1/widget/config', { headers: { 'x-api-key': outside.key, ...forwarded } }), 403, 'FORBIDDEN');
    }
  });

  it('answers 401 UNAUTHORIZED for an unknown, malformed, missing or revoked key', async () => {
    const { key, id } = await createKey(env, merchant, { key_type: 'secret' });
    await call(env, 'DELETE', `/api/v1/merchant/apikeys/${id}`, { headers: merchant.auth });
    for (const k of [key, `sika_secret_${'a'.repeat(48)}`, 'hello', ' ']) {
      const res = await config(k);
      expectError(res, 401, 'UNAUTHORIZED');
      expect(JSON.stringify(res.body)).not.toContain(key);
    }
    expectError(await call(env, 'GET', '/api/v1/widget/config'), 401, 'UNAUTHORIZED');
  });

  it('refuses a secret key sent by a browser page (it has an Origin) with 403, creating nothing', async () => {
    // 000 section 5: secret keys never appear in client-side code. A page holding one works
    // nowhere, even from the key's own allowed domain, so the mistake shows in development.
    const shop = 'https://shop.example.com';
    await createKey(env, merchant, { key_type: 'public', domains: [shop] });
    const { key } = await createKey(env, merchant, { key_type: 'secret', domains: [shop] });
    const before = env.backend.store.customers.size;
    const body = { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama.browser@example.com' };
    for (const browser of [{ origin: shop }, { origin: 'null' }, { origin: 'https://evil.example' }]) {
      const created = await call(env, 'POST', '/api/v1/widget/customer', { headers: { 'x-api-key': key, ...browser }, body });
      expectError(created, 403, 'FORBIDDEN');
      expect(created.body.error.message).toMatch(/secret key .*browser/);
      expectError(await call(env, 'GET', '/api/v1/widget/config', { headers: { 'x-api-key': key, ...browser } }), 403, 'FORBIDDEN');
    }
    expect(env.backend.store.customers.size).toBe(before);
    // The same key from a server (no Origin; Node's fetch sends Sec-Fetch-Mode: cors) works.
    expect((await call(env, 'POST', '/api/v1/widget/customer', { headers: { 'x-api-key': key }, body })).status).toBe(201);
  });
});

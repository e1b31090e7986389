import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { createKey, expectEnvelope, expectError, registerMerchant, snapshot, type TestMerchant } from './helpers/merchant.js';

describe.each(MODES)('merchant API keys, %s', (_name, start) => {
  let env: MockEnv;
  let merchant: TestMerchant;
  beforeAll(async () => {
    env = await start();
    merchant = await registerMerchant(env);
  });
  afterAll(() => env.close());

  it('creates a public key with its domains and the documented defaults, showing the full key once', async () => {
    const res = await call(env, 'POST', '/api/v1/merchant/apikeys', {
      headers: merchant.auth,
      body: { key_type: 'public', domains: ['https://shop.example.com', 'http://localhost:3000'] },
    });
    expect(res.status).toBe(201);
    expectEnvelope(res.body);
    const { api_key, key } = res.body.data;
    expect(key).toMatch(/^sika_public_[0-9a-f]{48}$/);
    expect(api_key).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      merchant_id: merchant.id,
      key_type: 'public',
      key_prefix: key.slice(0, 'sika_public_'.length + 6),
      allowed_domains: ['https://shop.example.com', 'http://localhost:3000'],
      allowed_ips: [],
      permissions: ['onramp', 'offramp'],
      rate_limit_rpm: 600,
      is_active: true,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/),
    });
  });

  it('keeps only the SHA-256 of a key, never its text', async () => {
    const { key, id } = await createKey(env, merchant, { key_type: 'secret', domains: [] });
    expect(key).toMatch(/^sika_secret_[0-9a-f]{48}$/);
    const stored = env.backend.store.apiKeys.get(id)!;
    expect(stored.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify([...env.backend.store.apiKeys.values()])).not.toContain(key);
  });

  it('sets allowed_ips, permissions and a lower rate_limit_rpm at creation', async () => {
    const { apiKey } = await createKey(env, merchant, {
      key_type: 'secret',
      allowed_ips: ['203.0.113.7', '2001:db8::1', '203.0.113.7'],
      permissions: ['offramp'],
      rate_limit_rpm: 30,
    });
    expect(apiKey).toMatchObject({
      allowed_domains: [],
      allowed_ips: ['203.0.113.7', '2001:db8::1'],
      permissions: ['offramp'],
      rate_limit_rpm: 30,
    });
  });

  it('keeps allowed_ips in the form the caller\'s address is compared in, so any spelling of an address works', async () => {
    // `::ffff:127.0.0.1` is how Node logs an IPv4 client of a dual-stack server; upper case and
    // zeros written out are the same IPv6 address.
    const { key, apiKey } = await createKey(env, merchant, {
      key_type: 'secret',
      allowed_ips: ['::FFFF:127.0.0.1', '2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    });
    expect(apiKey.allowed_ips).toEqual(['127.0.0.1', '2001:db8::1']);
    expect((await call(env, 'GET', '/api/v1/widget/config', { headers: { 'x-api-key': key } })).status).toBe(200);
  });

  it('refuses a domain no browser sends as Origin, saying how the browser writes it, and a wildcard', async () => {
    // A key stored with such a domain would match no page: refused at once, with the fix.
    const before = snapshot(env.backend.store);
    for (const [domain, hint] of [
      ['https://Kofi.Example', 'write it as https://kofi.example'],
      ['https://kofi.example/', 'write it as https://kofi.example'],
      ['https://kofi.example:443', 'write it as https://kofi.example'],
      ['https://bücher.example', 'write it as https://xn--bcher-kva.example'],
      ['https://*.example.com', 'wildcards'],
    ] as const) {
      const res = await call(env, 'POST', '/api/v1/merchant/apikeys', { headers: merchant.auth, body: { key_type: 'public', domains: [domain] } });
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.message, domain).toContain(hint);
    }
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it('refuses an invalid key body with VALIDATION_ERROR and creates nothing', async () => {
    const before = snapshot(env.backend.store);
    for (const body of [
      {},
      { key_type: 'private' },
      { key_type: 'public', domains: 'https://shop.example.com' },
      { key_type: 'public', domains: ['https://shop.example.com/path'] },
      { key_type: 'public', domains: ['shop.example.com'] },
      { key_type: 'secret', allowed_ips: ['10.0.0.0/8'] },
      { key_type: 'secret', permissions: [] },
      { key_type: 'secret', permissions: ['refund'] },
      { key_type: 'secret', rate_limit_rpm: 601 },
      { key_type: 'secret', rate_limit_rpm: 0 },
      { key_type: 'secret', rate_limit_rpm: 10.5 },
      { key_type: 'secret', rate_limit_rpm: '60' },
    ]) {
      expectError(await call(env, 'POST', '/api/v1/merchant/apikeys', { headers: merchant.auth, body }), 400, 'VALIDATION_ERROR');
    }
    expectError(
      await call(env, 'POST', '/api/v1/merchant/apikeys', { headers: { ...merchant.auth, 'content-type': 'application/json' }, rawBody: '{key_type:' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it('needs the access token', async () => {
    const before = snapshot(env.backend.store);
    expectError(await call(env, 'POST', '/api/v1/merchant/apikeys', { body: { key_type: 'public', domains: [] } }), 401, 'UNAUTHORIZED');
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it('revokes a key: the key then gets 401 at the widget backend', async () => {
    const { key, id } = await createKey(env, merchant, { key_type: 'secret' });
    expect((await call(env, 'GET', '/api/v1/widget/config', { headers: { 'x-api-key': key } })).status).toBe(200);
    const res = await call(env, 'DELETE', `/api/v1/merchant/apikeys/${id}`, { headers: merchant.auth });
    expect(res.status).toBe(200);
    expectEnvelope(res.body);
    expect(res.body.data).toMatchObject({ id, is_active: false });
    expectError(await call(env, 'GET', '/api/v1/widget/config', { headers: { 'x-api-key': key } }), 401, 'UNAUTHORIZED');
    const again = await call(env, 'DELETE', `/api/v1/merchant/apikeys/${id}`, { headers: merchant.auth });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(res.body.data);
  });

  it('answers 404 for an unknown key id or another merchant\'s key, which stays active', async () => {
    const other = await registerMerchant(env);
    const { key, id } = await createKey(env, other);
    expectError(await call(env, 'DELETE', `/api/v1/merchant/apikeys/${id}`, { headers: merchant.auth }), 404, 'NOT_FOUND');
    expectError(await call(env, 'DELETE', '/api/v1/merchant/apikeys/00000000-0000-4000-8000-000000000000', { headers: merchant.auth }), 404, 'NOT_FOUND');
    expect((await call(env, 'GET', '/api/v1/widget/config', { headers: { 'x-api-key': key } })).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { createKey, expectEnvelope, expectError, registerMerchant, snapshot, type TestMerchant } from './helpers/merchant.js';

const SHOP = 'https://shop.example.com';

describe.each(MODES)('widget config, %s', (_name, start) => {
  let env: MockEnv;
  let merchant: TestMerchant;
  let publicKey: string;
  let secretKey: string;
  beforeAll(async () => {
    env = await start();
    merchant = await registerMerchant(env);
    publicKey = (await createKey(env, merchant, { key_type: 'public', domains: [SHOP] })).key;
    secretKey = (await createKey(env, merchant, { key_type: 'secret' })).key;
  });
  afterAll(() => env.close());

  const getConfig = (headers: Record<string, string>) => call(env, 'GET', '/api/v1/widget/config', { headers });

  it('serves the default config to the public key from an allowed origin', async () => {
    const res = await getConfig({ 'x-api-key': publicKey, origin: SHOP });
    expect(res.status).toBe(200);
    expectEnvelope(res.body);
    expect(res.body.data).toEqual({
      merchant_id: merchant.id,
      theme: { primary_color: '#0f766e', border_radius: '12px' },
      allowed_coins: ['USDC'],
      redirect_url: null,
    });
  });

  it('accepts the origin from Referer when there is no Origin header', async () => {
    expect((await getConfig({ 'x-api-key': publicKey, referer: `${SHOP}/checkout?x=1` })).status).toBe(200);
  });

  it('refuses Origin: null (a sandboxed or file page) even when its Referer is an allowed domain', async () => {
    // A browser sends "null" for a document it will not name (sandboxed, file:, data:): a
    // sandboxed page of the shop's site is by design not the shop, so its Referer cannot vouch.
    expectError(await getConfig({ 'x-api-key': publicKey, origin: 'null', referer: `${SHOP}/ugc/frame` }), 403, 'FORBIDDEN');
    expectError(await getConfig({ 'x-api-key': publicKey, origin: 'null' }), 403, 'FORBIDDEN');
  });

  it('matches allowed_domains exactly: no suffix, userinfo, port, scheme, letter-case or list tricks', async () => {
    for (const headers of [
      { origin: 'https://shop.example.com.evil.example' } as Record<string, string>,
      { origin: 'https://evilshop.example.com' },
      { origin: 'https://shop.example.com:443' },
      { origin: 'HTTPS://SHOP.EXAMPLE.COM' },
      { origin: `${SHOP}, https://evil.example` },
      { origin: `${SHOP}/` },
      { referer: 'https://shop.example.com@evil.example/' },
      { referer: 'https://evil.example/?https://shop.example.com' },
      { origin: 'https://evil.example', referer: `${SHOP}/` },
    ]) {
      expectError(await getConfig({ 'x-api-key': publicKey, ...headers }), 403, 'FORBIDDEN');
    }
  });

  it('refuses the public key from an origin outside allowed_domains, or with none, with 403 FORBIDDEN', async () => {
    for (const headers of [
      { origin: 'https://evil.example.com' } as Record<string, string>,
      { origin: 'http://shop.example.com' },
      { origin: 'https://shop.example.com:8443' },
      {},
    ]) {
      expectError(await getConfig({ 'x-api-key': publicKey, ...headers }), 403, 'FORBIDDEN');
    }
  });

  it('serves the config to the secret key, which has no origin', async () => {
    const res = await getConfig({ 'x-api-key': secretKey });
    expect(res.status).toBe(200);
    expect(res.body.data.merchant_id).toBe(merchant.id);
  });

  it('refuses a missing or unknown key with 401 UNAUTHORIZED', async () => {
    expectError(await getConfig({ origin: SHOP }), 401, 'UNAUTHORIZED');
    expectError(await getConfig({ 'x-api-key': `sika_public_${'0'.repeat(48)}`, origin: SHOP }), 401, 'UNAUTHORIZED');
  });

  it('updates the config from the dashboard; the widget then sees it', async () => {
    const res = await call(env, 'PUT', '/api/v1/merchant/widget-config', {
      headers: merchant.auth,
      body: { theme: { primary_color: '#FF6600', border_radius: '0.5rem' }, allowed_coins: ['USDC'], redirect_url: `${SHOP}/done` },
    });
    expect(res.status).toBe(200);
    expectEnvelope(res.body);
    const expected = {
      merchant_id: merchant.id,
      theme: { primary_color: '#FF6600', border_radius: '0.5rem' },
      allowed_coins: ['USDC'],
      redirect_url: `${SHOP}/done`,
    };
    expect(res.body.data).toEqual(expected);
    expect((await getConfig({ 'x-api-key': publicKey, origin: SHOP })).body.data).toEqual(expected);
  });

  it('keeps what an update leaves out, theme property by property, and clears redirect_url with null', async () => {
    await call(env, 'PUT', '/api/v1/merchant/widget-config', { headers: merchant.auth, body: { theme: { primary_color: '#123' } } });
    let config = (await getConfig({ 'x-api-key': secretKey })).body.data;
    expect(config.theme).toEqual({ primary_color: '#123', border_radius: '0.5rem' });
    expect(config.redirect_url).toBe(`${SHOP}/done`);
    await call(env, 'PUT', '/api/v1/merchant/widget-config', { headers: merchant.auth, body: { redirect_url: null } });
    config = (await getConfig({ 'x-api-key': secretKey })).body.data;
    expect(config).toMatchObject({ theme: { primary_color: '#123', border_radius: '0.5rem' }, redirect_url: null });
  });

  it('refuses an invalid update with VALIDATION_ERROR and changes nothing', async () => {
    const before = snapshot(env.backend.store);
    for (const body of [
      {},
      { theme: { primary_color: 'orange' } },
      { theme: { border_radius: '12' } },
      { theme: 'dark' },
      { allowed_coins: ['BTC'] },
      { allowed_coins: [] },
      { redirect_url: 'not a url' },
      { redirect_url: 'ftp://files.example.com' },
    ]) {
      expectError(await call(env, 'PUT', '/api/v1/merchant/widget-config', { headers: merchant.auth, body }), 400, 'VALIDATION_ERROR');
    }
    expectError(await call(env, 'PUT', '/api/v1/merchant/widget-config', { headers: merchant.auth, rawBody: '{' }), 400, 'VALIDATION_ERROR');
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it('needs the access token to update', async () => {
    const before = snapshot(env.backend.store);
    expectError(await call(env, 'PUT', '/api/v1/merchant/widget-config', { body: { redirect_url: null } }), 401, 'UNAUTHORIZED');
    expectError(
      await call(env, 'PUT', '/api/v1/merchant/widget-config', { headers: { authorization: `Bearer ${secretKey}` }, body: { redirect_url: null } }),
      401,
      'UNAUTHORIZED',
    );
    expect(snapshot(env.backend.store)).toEqual(before);
  });
});

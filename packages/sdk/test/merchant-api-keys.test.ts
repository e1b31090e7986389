import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantClient } from '../src/clients/merchant.js';
import { WidgetClient } from '../src/clients/widget.js';
import { AuthenticationError, NotFoundError, ValidationError } from '../src/index.js';
import { newMerchant } from './helpers/clients.js';
import { json, startTestServer } from './helpers/http-server.js';
import { MODES, type MockEnv } from './helpers/mock.js';

describe.each(MODES)('merchant.apiKeys, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 22 });
  });
  afterAll(() => env.close());

  it('creates a public key with its domains and shows the full key once', async () => {
    const { client, id } = await newMerchant(env);
    const created = await client.apiKeys.create({ key_type: 'public', domains: ['https://shop.example.com'] });
    expect(created.key.startsWith(created.api_key.key_prefix)).toBe(true);
    expect(created.key).toMatch(/_public_[0-9a-f]+$/);
    expect(created.api_key).toMatchObject({
      merchant_id: id,
      key_type: 'public',
      allowed_domains: ['https://shop.example.com'],
      allowed_ips: [],
      permissions: ['onramp', 'offramp'],
      rate_limit_rpm: 600,
      is_active: true,
    });
  });

  it('sets allowed IPs, permissions and a lower rate limit', async () => {
    const { client } = await newMerchant(env);
    const { api_key } = await client.apiKeys.create({ key_type: 'secret', allowed_ips: ['127.0.0.1'], permissions: ['onramp'], rate_limit_rpm: 60 });
    expect(api_key).toMatchObject({ allowed_ips: ['127.0.0.1'], permissions: ['onramp'], rate_limit_rpm: 60 });
  });

  it('refuses a domain with a path, an unknown field or a rate above 600 before sending', async () => {
    const { client, sent } = await newMerchant(env);
    const before = sent.length;
    for (const params of [
      { key_type: 'public', domains: ['https://shop.example.com/checkout'] },
      { key_type: 'public', domain: ['https://shop.example.com'] },
      { key_type: 'secret', rate_limit_rpm: 601 },
      { key_type: 'admin' },
    ]) {
      await expect(client.apiKeys.create(params as never)).rejects.toBeInstanceOf(ValidationError);
    }
    expect(sent.length).toBe(before);
  });

  it('revokes a key, which the widget backend then refuses', async () => {
    const { client } = await newMerchant(env);
    const { api_key, key } = await client.apiKeys.create({ key_type: 'secret' });
    const widget = new WidgetClient({ baseUrl: env.origin, secretKey: key });
    await expect(widget.config.get()).resolves.toMatchObject({ allowed_coins: ['USDC'] });
    await expect(client.apiKeys.revoke(api_key.id)).resolves.toMatchObject({ id: api_key.id, is_active: false });
    await expect(widget.config.get()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it("answers NotFoundError for an unknown id or another merchant's key", async () => {
    const { client } = await newMerchant(env);
    const other = await newMerchant(env);
    const { api_key } = await other.client.apiKeys.create({ key_type: 'public' });
    for (const id of ['00000000-0000-4000-8000-000000000000', api_key.id]) {
      const error = await client.apiKeys.revoke(id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
  });

  it('refuses an id that would reach another path', async () => {
    const { client } = await newMerchant(env);
    await expect(client.apiKeys.revoke('../profile')).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('merchant.apiKeys.revoke against answers 000 does not show (127.0.0.1)', () => {
  // 000 says only that DELETE revokes the key: a 2xx is the revocation, whatever its body.
  it('resolves on 204 without a body, on an answer without the key object, and on the key object', async () => {
    const id = '6f1c2b1e-4b1a-4c53-9a53-3d2f3f1f0a11';
    const shown = { id, merchant_id: 'm_1', key_type: 'secret', key_prefix: 'sika_secret_abc123', allowed_domains: [], allowed_ips: [], permissions: ['onramp'], rate_limit_rpm: 600, is_active: false, created_at: '2026-11-01T10:00:00Z' };
    const answers: [number, unknown][] = [
      [204, undefined],
      [200, { data: { revoked: true }, meta: { request_id: 'r' } }],
      [200, { message: 'API key revoked' }],
      [200, { data: shown, meta: { request_id: 'r' } }],
    ];
    for (const [status, body] of answers) {
      const server = await startTestServer((_req, res) => (body === undefined ? void res.writeHead(status).end() : json(res, status, body)));
      try {
        const merchant = new MerchantClient({ baseUrl: server.url, accessToken: 'token' });
        const revoked = await merchant.apiKeys.revoke(id);
        expect(revoked).toMatchObject({ id, is_active: false });
        if (body === answers[3]![1]) expect(revoked).toMatchObject({ key_prefix: 'sika_secret_abc123', permissions: ['onramp'] });
        expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`DELETE /api/v1/merchant/apikeys/${id}`]);
      } finally {
        await server.close();
      }
    }
  });
});

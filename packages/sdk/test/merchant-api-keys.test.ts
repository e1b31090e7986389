import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WidgetClient } from '../src/clients/widget.js';
import { AuthenticationError, NotFoundError, ValidationError } from '../src/index.js';
import { newMerchant } from './helpers/clients.js';
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

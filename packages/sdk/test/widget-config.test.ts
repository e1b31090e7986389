import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WidgetClient } from '../src/clients/widget.js';
import { AuthenticationError, CredentialError, RateLimitError } from '../src/index.js';
import { newMerchant, newWidget } from './helpers/clients.js';
import { envelope, json, startTestServer } from './helpers/http-server.js';
import { MODES, type MockEnv } from './helpers/mock.js';

describe.each(MODES)('WidgetClient and widget.config, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 31 });
  });
  afterAll(() => env.close());

  it('reads the widget config with the secret key in X-API-Key', async () => {
    const { widget, merchant } = await newWidget(env);
    await expect(widget.config.get()).resolves.toEqual({
      merchant_id: merchant.id,
      theme: { primary_color: '#0f766e', border_radius: '12px' },
      allowed_coins: ['USDC'],
      redirect_url: null,
    });
  });

  it('refuses a public key as the secret key, without echoing it', async () => {
    const { publicKey } = await newWidget(env);
    const error = (() => {
      try {
        new WidgetClient({ baseUrl: env.origin, secretKey: publicKey });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(CredentialError);
    expect(error!.message).not.toContain(publicKey);
  });

  it('refuses the secret key in a browser-like environment', async () => {
    const { secretKey } = await newWidget(env);
    const g = globalThis as { window?: unknown };
    g.window = {};
    try {
      expect(() => new WidgetClient({ baseUrl: env.origin, secretKey })).toThrow(CredentialError);
      expect(() => new WidgetClient({ baseUrl: env.origin, secretKey })).not.toThrow(secretKey);
    } finally {
      delete g.window;
    }
  });

  it('keeps the secret key out of what a log of the client would print', async () => {
    const { widget, secretKey } = await newWidget(env);
    const { inspect } = await import('node:util');
    expect(inspect(widget, { depth: 10, showHidden: true })).not.toContain(secretKey);
    expect(JSON.stringify(widget)).not.toContain(secretKey);
  });

  it('answers an unknown key with AuthenticationError', async () => {
    const widget = new WidgetClient({ baseUrl: env.origin, secretKey: 'sika_secret_000000000000000000000000000000000000000000000000' });
    const error = await widget.config.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', requestId: expect.stringMatching(/^req_/) });
  });

  it('reports the rate limit with RateLimitError and its Retry-After', async () => {
    const { client } = await newMerchant(env);
    const { key } = await client.apiKeys.create({ key_type: 'secret', rate_limit_rpm: 2 });
    const widget = new WidgetClient({ baseUrl: env.origin, secretKey: key, maxRetries: 0 });
    await widget.config.get();
    await widget.config.get();
    const error = await widget.config.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 60 });
    await env.backend.clock.advance(60);
    await expect(widget.config.get()).resolves.toMatchObject({ allowed_coins: ['USDC'] });
  });
});

describe('widget.config against a service that shows an unset redirect_url its own way (127.0.0.1)', () => {
  // 000 types redirect_url as a URL string and shows no config without one: a merchant that
  // never set it may get it left out, empty or null, and each must read as null.
  it('reads a redirect_url that is absent, empty or null as null', async () => {
    for (const unset of [{}, { redirect_url: '' }, { redirect_url: null }]) {
      const server = await startTestServer((_req, res) =>
        json(res, 200, envelope({ merchant_id: 'm_1', theme: { primary_color: '#0f766e', border_radius: '12px' }, allowed_coins: ['USDC'], ...unset })),
      );
      try {
        const widget = new WidgetClient({ baseUrl: server.url, secretKey: `sika_secret_${'a'.repeat(48)}` });
        await expect(widget.config.get()).resolves.toMatchObject({ merchant_id: 'm_1', redirect_url: null });
      } finally {
        await server.close();
      }
    }
  });
});

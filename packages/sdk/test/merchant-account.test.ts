/** The dashboard's account calls: profile, KYB, widget config and the webhook settings. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantClient } from '../src/clients/merchant.js';
import { WidgetClient } from '../src/clients/widget.js';
import { ConflictError, ValidationError } from '../src/index.js';
import { newMerchant } from './helpers/clients.js';
import { json, startTestServer } from './helpers/http-server.js';
import { MODES, type MockEnv } from './helpers/mock.js';

const submission = {
  registration_number: 'CS123456789',
  country: 'GHA',
  documents: [{ type: 'certificate_of_incorporation', url: 'https://files.example.com/coi.pdf' }],
};

describe.each(MODES)('merchant account, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 23 });
  });
  afterAll(() => env.close());

  it('submits KYB, shows it under review, and becomes active on approval', async () => {
    const { client, id } = await newMerchant(env);
    await expect(client.kyb.status()).resolves.toMatchObject({ status: 'not_submitted' });
    await expect(client.kyb.submit(submission)).resolves.toMatchObject({ status: 'submitted', registration_number: 'CS123456789' });
    expect((await client.profile.get()).status).toBe('pending');
    env.backend.control.merchants.approveKyb(id);
    await expect(client.kyb.status()).resolves.toMatchObject({ status: 'approved' });
    expect((await client.profile.get()).status).toBe('active');
  });

  it('answers a second submission under review with ConflictError', async () => {
    const { client } = await newMerchant(env);
    await client.kyb.submit(submission);
    const error = await client.kyb.submit(submission).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'INVALID_STATE' });
  });

  it('refuses a two-letter country code before sending', async () => {
    const { client } = await newMerchant(env);
    await expect(client.kyb.submit({ ...submission, country: 'GH' })).rejects.toThrow(/country: must be an ISO 3166-1 alpha-3 code/);
  });

  it('updates the widget config, which the widget backend then serves', async () => {
    const { client } = await newMerchant(env);
    const updated = await client.widgetConfig.update({ theme: { primary_color: '#112233' }, redirect_url: 'https://shop.example.com/done' });
    expect(updated).toMatchObject({ theme: { primary_color: '#112233', border_radius: '12px' }, allowed_coins: ['USDC'], redirect_url: 'https://shop.example.com/done' });
    const { key } = await client.apiKeys.create({ key_type: 'secret' });
    await expect(new WidgetClient({ baseUrl: env.origin, secretKey: key }).config.get()).resolves.toEqual(updated);
    await expect(client.widgetConfig.update({ redirect_url: null })).resolves.toMatchObject({ redirect_url: null });
  });

  it('refuses an empty update, a colour name or another coin before sending', async () => {
    const { client } = await newMerchant(env);
    for (const params of [{}, { theme: { primary_color: 'teal' } }, { allowed_coins: ['XLM'] }]) {
      await expect(client.widgetConfig.update(params as never)).rejects.toBeInstanceOf(ValidationError);
    }
  });

  it('sets the webhook URL, issues a secret once, and rotates it with a grace period', async () => {
    const { client } = await newMerchant(env);
    await expect(client.webhook.get()).resolves.toMatchObject({ url: null, secret: null });
    const set = await client.webhook.set({ url: 'https://shop.example.com/webhooks' });
    expect(set.secret).toEqual(expect.any(String));
    const moved = await client.webhook.set({ url: 'https://shop.example.com/hooks' });
    expect(moved).toMatchObject({ url: 'https://shop.example.com/hooks', secret: set.secret });
    const rotated = await client.webhook.rotate();
    expect(rotated.secret).not.toBe(set.secret);
    expect(Date.parse(rotated.previous_secret_expires_at!) - env.backend.clock.now()).toBe(24 * 3600 * 1000);
  });

  it('answers a rotation before any URL with ConflictError', async () => {
    const { client } = await newMerchant(env);
    await expect(client.webhook.rotate()).rejects.toBeInstanceOf(ConflictError);
  });

  it('refuses a webhook URL that is not http(s) before sending', async () => {
    const { client } = await newMerchant(env);
    await expect(client.webhook.set({ url: 'ftp://shop.example.com' })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('merchant.kyb.submit against answers 000 does not show (127.0.0.1)', () => {
  // 000: "Bodies and responses of ... KYB submit and KYB status: not shown". A 2xx to the
  // submission is the submission; the client must not throw after the documents went in.
  it('resolves as submitted on 204, on a bare message, and keeps what a status body shows', async () => {
    const documents = [{ type: 'incorporation', url: 'https://docs.example/1.pdf' }];
    const answers: [number, unknown, Record<string, unknown>][] = [
      [204, undefined, { status: 'submitted' }],
      [200, { message: 'KYB submitted for review' }, { status: 'submitted' }],
      [201, { data: { submitted: true }, meta: { request_id: 'r' } }, { status: 'submitted' }],
      [200, { data: { status: 'approved', reviewed_at: '2026-11-01T10:00:00Z' } }, { status: 'approved', reviewed_at: '2026-11-01T10:00:00Z' }],
    ];
    for (const [status, body, expected] of answers) {
      const server = await startTestServer((_req, res) => (body === undefined ? void res.writeHead(status).end() : json(res, status, body)));
      try {
        const merchant = new MerchantClient({ baseUrl: server.url, accessToken: 'token' });
        await expect(merchant.kyb.submit({ registration_number: 'CS-1', country: 'GHA', documents })).resolves.toMatchObject(expected);
        expect(server.requests).toHaveLength(1);
      } finally {
        await server.close();
      }
    }
  });
});

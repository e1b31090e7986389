import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueDelivery } from '../src/webhooks/deliver.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { expectEnvelope, expectError, login, registerMerchant, snapshot, type TestMerchant } from './helpers/merchant.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

const hmac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describe.each(MODES)('merchant webhook settings, %s', (_name, start) => {
  let env: MockEnv;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];

  beforeAll(async () => {
    env = await start();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/sikaramp`;
  });
  afterAll(async () => {
    await env.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  /** Sends one order webhook to the merchant's URL, as a completed order would, and returns what arrived. */
  async function deliverOne(m: TestMerchant): Promise<Received> {
    const url = env.backend.store.merchants.get(m.id)!.webhook.url!;
    received.length = 0;
    enqueueDelivery(env.backend.context, {
      kind: 'order',
      event: 'order.completed',
      merchantId: m.id,
      url,
      payload: { event: 'order.completed', order_id: 'ord_test' },
    });
    await env.backend.control.webhooks.settle();
    expect(received).toHaveLength(1);
    return received[0]!;
  }

  it('shows no URL and no secret before one is set', async () => {
    const m = await registerMerchant(env);
    const res = await call(env, 'GET', '/api/v1/merchant/webhook', { headers: m.auth });
    expect(res.status).toBe(200);
    expectEnvelope(res.body);
    expect(res.body.data).toEqual({ url: null, secret: null, previous_secret_expires_at: null });
  });

  it('sets the URL, issues a secret, and signs deliveries with it', async () => {
    const m = await registerMerchant(env);
    const res = await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: m.auth, body: { url: receiverUrl } });
    expect(res.status).toBe(200);
    expectEnvelope(res.body);
    expect(res.body.data).toEqual({ url: receiverUrl, secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/), previous_secret_expires_at: null });
    const { secret } = res.body.data;
    expect((await call(env, 'GET', '/api/v1/merchant/webhook', { headers: m.auth })).body.data).toEqual(res.body.data);

    const got = await deliverOne(m);
    expect(got.headers['x-webhook-signature']).toBe(hmac(secret, got.body));
    expect(got.headers['x-webhook-timestamp']).toBe(String(Math.floor(env.backend.clock.now() / 1000)));
    expect(got.headers['x-webhook-signature-previous']).toBeUndefined();
  });

  it('keeps the secret when only the URL changes', async () => {
    const m = await registerMerchant(env);
    const first = await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: m.auth, body: { url: 'https://hooks.example.com/a' } });
    const second = await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: m.auth, body: { url: 'https://hooks.example.com/b' } });
    expect(second.body.data).toEqual({ ...first.body.data, url: 'https://hooks.example.com/b' });
  });

  it('rotates the secret; the old one still signs for 24 hours of clock time, then stops', async () => {
    const m = await registerMerchant(env);
    const old = (await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: m.auth, body: { url: receiverUrl } })).body.data.secret;
    const rotated = await call(env, 'POST', '/api/v1/merchant/webhook/rotate', { headers: m.auth });
    expect(rotated.status).toBe(200);
    expectEnvelope(rotated.body);
    const fresh = rotated.body.data.secret;
    expect(fresh).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(fresh).not.toBe(old);
    const graceEnd = new Date(env.backend.clock.now() + 24 * 3600 * 1000).toISOString();
    expect(rotated.body.data).toEqual({ url: receiverUrl, secret: fresh, previous_secret_expires_at: graceEnd });

    let got = await deliverOne(m);
    expect(got.headers['x-webhook-signature']).toBe(hmac(fresh, got.body));
    expect(got.headers['x-webhook-signature-previous']).toBe(hmac(old, got.body));

    await env.backend.clock.advance(24 * 3600 - 1);
    got = await deliverOne(m);
    expect(got.headers['x-webhook-signature-previous']).toBe(hmac(old, got.body));

    await env.backend.clock.advance(1);
    got = await deliverOne(m);
    expect(got.headers['x-webhook-signature']).toBe(hmac(fresh, got.body));
    expect(got.headers['x-webhook-signature-previous']).toBeUndefined();
    const { auth } = await login(env, m);
    expect((await call(env, 'GET', '/api/v1/merchant/webhook', { headers: auth })).body.data.previous_secret_expires_at).toBeNull();
  });

  it('ends the grace of the older secret at once when rotating twice', async () => {
    const m = await registerMerchant(env);
    await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: m.auth, body: { url: receiverUrl } });
    const second = (await call(env, 'POST', '/api/v1/merchant/webhook/rotate', { headers: m.auth })).body.data.secret;
    const third = (await call(env, 'POST', '/api/v1/merchant/webhook/rotate', { headers: m.auth })).body.data.secret;
    const got = await deliverOne(m);
    expect(got.headers['x-webhook-signature']).toBe(hmac(third, got.body));
    expect(got.headers['x-webhook-signature-previous']).toBe(hmac(second, got.body));
  });

  it('refuses to rotate before a URL is set with 409 INVALID_STATE', async () => {
    const m = await registerMerchant(env);
    const before = snapshot(env.backend.store);
    expectError(await call(env, 'POST', '/api/v1/merchant/webhook/rotate', { headers: m.auth }), 409, 'INVALID_STATE');
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it('refuses an invalid URL with VALIDATION_ERROR and changes nothing', async () => {
    const m = await registerMerchant(env);
    await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: m.auth, body: { url: 'https://hooks.example.com/a' } });
    const before = snapshot(env.backend.store);
    for (const body of [{}, { url: '' }, { url: 'hooks.example.com' }, { url: 'mailto:ops@example.com' }, { url: ['https://a.example.com'] }]) {
      expectError(await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: m.auth, body }), 400, 'VALIDATION_ERROR');
    }
    expectError(await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: m.auth, rawBody: 'url=x' }), 400, 'VALIDATION_ERROR');
    expect(snapshot(env.backend.store)).toEqual(before);
  });

  it('needs the access token for all three endpoints', async () => {
    expectError(await call(env, 'GET', '/api/v1/merchant/webhook'), 401, 'UNAUTHORIZED');
    expectError(await call(env, 'PUT', '/api/v1/merchant/webhook', { body: { url: receiverUrl } }), 401, 'UNAUTHORIZED');
    expectError(await call(env, 'POST', '/api/v1/merchant/webhook/rotate'), 401, 'UNAUTHORIZED');
  });
});

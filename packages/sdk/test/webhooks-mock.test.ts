/**
 * The verifier against what the mock server really sends: a merchant sets its webhook URL
 * through the dashboard endpoints, the mock delivers signed webhooks over HTTP to a receiver
 * on 127.0.0.1, and the receiver verifies them with the SDK, as a merchant's endpoint would.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeduplicator, verifyWebhook, WebhookVerificationError, type WebhookEvent } from '../src/webhooks/index.js';
import { enqueueDelivery, MODES, type MockEnv } from './helpers/mock.js';

interface Receiver {
  url: string;
  /** Secrets the endpoint accepts. */
  secrets: string[];
  /** What each delivery came to: the event, or the refusal's reason. */
  outcomes: (WebhookEvent | string)[];
  /** Events the handler fulfilled (after de-duplication). */
  fulfilled: WebhookEvent[];
  /** Answer 500 after handling this many next deliveries, as if the response was lost. */
  failAfterHandling: number;
  /** How far the endpoint's clock is ahead of the mock's, seconds. */
  skewSeconds: number;
  close(): Promise<void>;
}

async function startReceiver(env: MockEnv): Promise<Receiver> {
  const dedupe = createDeduplicator();
  const receiver: Receiver = { url: '', secrets: [], outcomes: [], fulfilled: [], failAfterHandling: 0, skewSeconds: 0, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const event = await verifyWebhook({ body: Buffer.concat(chunks), headers: req.headers, secret: receiver.secrets, now: env.backend.clock.now() + receiver.skewSeconds * 1000 });
        receiver.outcomes.push(event);
        await dedupe.once(event, () => receiver.fulfilled.push(event));
        if (receiver.failAfterHandling > 0) {
          receiver.failAfterHandling--;
          return void res.writeHead(500).end();
        }
        res.writeHead(200).end();
      } catch (error) {
        receiver.outcomes.push(error instanceof WebhookVerificationError ? error.reason : String(error));
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  receiver.close = () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return receiver;
}

async function dashboard(env: MockEnv, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${env.origin}/api/v1/merchant/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return ((await res.json()) as { data: any }).data;
}

const orderPayload = (orderId: string) => ({
  event: 'order.completed',
  order_id: orderId,
  type: 'onramp',
  fiat_amount: '150.00',
  fiat_currency: 'GHS',
  crypto_amount: '9.45',
  crypto_currency: 'USDC',
  destination_address: 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI',
  timestamp: '2026-01-01T00:00:00Z',
});

describe.each(MODES)('webhooks from the mock server verify with the SDK, %s', (_name, start) => {
  let env: MockEnv;
  let receiver: Receiver;
  let merchantId: string;
  let token: string;
  let secret: string;

  beforeAll(async () => {
    env = await start({ seed: 11 });
    receiver = await startReceiver(env);
    const email = 'webhooks@example.com';
    const password = 'correct horse battery';
    merchantId = (await dashboard(env, 'POST', 'register', { name: 'Ama Shop', legal_name: 'Ama Shop Ltd', email, password })).id;
    token = (await dashboard(env, 'POST', 'login', { email, password })).access_token;
    secret = (await dashboard(env, 'PUT', 'webhook', { url: receiver.url }, token)).secret;
    receiver.secrets = [secret];
  });
  afterAll(async () => {
    await receiver.close();
    await env.close();
  });

  const deliver = async (kind: 'order' | 'ramp_payment', payload: { event: string }) => {
    const delivery = await enqueueDelivery(env.backend.context, { kind, event: payload.event, merchantId, url: receiver.url, payload });
    await env.backend.control.webhooks.settle();
    return delivery;
  };

  it('verifies an order webhook and returns the event as sent', async () => {
    const delivery = await deliver('order', orderPayload('ord_a'));
    expect(delivery.state).toBe('delivered');
    expect(receiver.outcomes.at(-1)).toEqual(orderPayload('ord_a'));
  });

  it('verifies a ramp payment webhook', async () => {
    const payload = {
      event: 'payment.completed',
      data: {
        reference: 'PAY-20260101-1',
        status: 'success',
        amount: 15_000,
        currency: 'GHS',
        provider_ref: 'MTN-1',
        channel: 'mobile_money',
        meta: { ramp_order_id: '2f1d8c4e-4e8e-4a55-a0b1-7d1a0f5b9e21', ramp_type: 'onramp' },
      },
    };
    expect((await deliver('ramp_payment', payload)).state).toBe('delivered');
    expect(receiver.outcomes.at(-1)).toEqual(payload);
  });

  it('verifies a retried delivery (signed afresh) and fulfils it once', async () => {
    receiver.failAfterHandling = 1;
    const before = receiver.fulfilled.length;
    const delivery = await deliver('order', orderPayload('ord_retry'));
    expect(delivery.state).toBe('pending');
    await env.backend.clock.advance(10);
    await env.backend.control.webhooks.settle();
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(receiver.outcomes.slice(-2)).toEqual([orderPayload('ord_retry'), orderPayload('ord_retry')]);
    expect(receiver.fulfilled.length - before).toBe(1);
  });

  it('refuses deliveries signed with a secret the endpoint does not hold, and accepts both during a rotation', async () => {
    const rotated = (await dashboard(env, 'POST', 'webhook/rotate', undefined, token)).secret as string;
    expect(rotated).not.toBe(secret);
    await deliver('order', orderPayload('ord_b'));
    expect(receiver.outcomes.at(-1)).toBe('no_matching_signature');
    receiver.secrets = [rotated, secret];
    await deliver('order', orderPayload('ord_c'));
    expect(receiver.outcomes.at(-1)).toEqual(orderPayload('ord_c'));
  });

  it('refuses a delivery that reaches the endpoint outside the tolerance', async () => {
    receiver.skewSeconds = 301;
    await deliver('order', orderPayload('ord_late'));
    expect(receiver.outcomes.at(-1)).toBe('timestamp_too_old');
    receiver.skewSeconds = -301;
    await deliver('order', orderPayload('ord_early'));
    expect(receiver.outcomes.at(-1)).toBe('timestamp_in_future');
    receiver.skewSeconds = 0;
  });
});

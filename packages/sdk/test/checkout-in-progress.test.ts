/**
 * `checkout.payments.create` answered 202 (the same Idempotency-Key still in flight) asks
 * again with the same key, at most 3 times in all, before handing `in_progress` back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, CheckoutClient } from '../src/index.js';
import { newCheckout, payment } from './helpers/checkout.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';
import { json, startTestServer, type Handler } from './helpers/http-server.js';

const created = { success: true, data: { checkout_url: 'https://pay.example/c/1', reference: 'ref_1', session_id: 'sess_1' } };
const inFlight = { message: 'A request with this idempotency key is still in progress' };

async function serve(handler: Handler) {
  const server = await startTestServer(handler);
  const client = new CheckoutClient({ baseUrl: server.url, apiKey: 'sika_checkout_testkey1234567890' });
  return { server, client };
}

describe('checkout.payments.create answered 202', () => {
  it('waits and asks again with the same key, and returns the 201 that follows', async () => {
    const { server, client } = await serve((_req, res, index) => (index === 0 ? json(res, 202, inFlight, { 'retry-after': '0' }) : json(res, 201, created)));
    try {
      const result = await client.payments.create(payment(), { idempotencyKey: 'order-202-a' }).withResponse();
      expect(result.data).toEqual({ outcome: 'created', status: 201, idempotencyKey: 'order-202-a', data: created.data });
      expect(result.response.status).toBe(201);
      expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual(['order-202-a', 'order-202-a']);
      expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
    } finally {
      await server.close();
    }
  });

  it('backs off between tries and gives in_progress back after 3 tries, with the key to try again', async () => {
    const { server, client } = await serve((_req, res) => json(res, 202, inFlight));
    try {
      const result = await client.payments.create(payment());
      expect(result).toMatchObject({ outcome: 'in_progress', status: 202, message: inFlight.message });
      expect(server.requests).toHaveLength(3);
      const keys = new Set(server.requests.map((r) => r.headers['idempotency-key']));
      expect([...keys]).toEqual([result.idempotencyKey]);
      // 0.5 s, then 1 s, each with up to 25 % jitter taken off.
      const gaps = [server.requests[1]!.at - server.requests[0]!.at, server.requests[2]!.at - server.requests[1]!.at];
      expect(gaps[0]).toBeGreaterThanOrEqual(370);
      expect(gaps[1]).toBeGreaterThanOrEqual(740);
    } finally {
      await server.close();
    }
  });

  it('stops waiting when the signal fires', async () => {
    const { server, client } = await serve((_req, res) => json(res, 202, inFlight));
    try {
      const controller = new AbortController();
      const creating = client.payments.create(payment(), { signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      await expect(creating).rejects.toBeInstanceOf(AbortError);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('against the mock server', () => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await startStandalone();
  });
  afterAll(() => env.close());

  it('a second create while the first is at the gateway ends with the first one\'s payment, not a 202', async () => {
    const checkout = await newCheckout(env);
    const gateway = env.backend.control.checkout.gateway;
    gateway.hold();
    const idempotencyKey = `order-${crypto.randomUUID()}`;
    const first = checkout.client.payments.create(payment(), { idempotencyKey });
    await gateway.held();
    const second = checkout.client.payments.create(payment(), { idempotencyKey });
    setTimeout(() => gateway.release(), 200);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ outcome: 'created', status: 201 });
    expect(b).toMatchObject({ outcome: 'replayed', idempotencyKey });
    expect(b).toHaveProperty('data', (a as { data: unknown }).data);
  });
});

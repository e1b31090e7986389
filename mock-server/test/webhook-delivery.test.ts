import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '../src/merchants.js';
import { enqueueDelivery, RETRY_SCHEDULE_SECONDS } from '../src/webhooks/deliver.js';
import { startInProcess, type MockEnv } from './helpers/env.js';
import { startReceiver, type Receiver } from './helpers/receiver.js';

const hmacHex = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describe('order webhook delivery (retry schedule, signatures)', () => {
  let env: MockEnv;
  let receiver: Receiver;
  let merchantId: string;
  const secret = 'whsec_test_0123456789';

  beforeAll(async () => {
    env = await startInProcess({ seed: 3 });
  });
  afterAll(() => env.close());
  afterEach(() => receiver.close());

  async function setUp(fallback: number) {
    receiver = await startReceiver(fallback);
    const merchant = await createMerchant(env.backend.context, { name: 'M', legal_name: 'M Ltd', email: `m${Math.random()}@x.test`, password: 'pw-123456' });
    merchant.webhook = { url: receiver.url, secret };
    merchantId = merchant.id;
    return enqueueDelivery(env.backend.context, {
      kind: 'order',
      event: 'order.completed',
      merchantId,
      url: receiver.url,
      payload: { event: 'order.completed', order_id: 'ord_1' },
    });
  }

  it('retries at 0 s, 10 s, 1 min, 1 h and 4 h of clock time, then marks the delivery exhausted', async () => {
    const delivery = await setUp(500);
    await env.backend.clock.idle();
    const start = env.backend.clock.now();
    expect(receiver.received).toHaveLength(1);
    for (const [i, delay] of RETRY_SCHEDULE_SECONDS.slice(1).entries()) {
      await env.backend.clock.advance(delay - 1);
      expect(receiver.received).toHaveLength(i + 1);
      await env.backend.clock.advance(1);
      expect(receiver.received).toHaveLength(i + 2);
    }
    expect(delivery.state).toBe('exhausted');
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500, 500]);
    const sentAt = receiver.received.map((r) => Number(r.headers['x-webhook-timestamp']));
    expect(sentAt.map((t) => t - Math.floor(start / 1000))).toEqual([0, 10, 70, 3_670, 18_070]);
    await env.backend.clock.advance(24 * 3_600);
    expect(receiver.received).toHaveLength(5);
  });

  it('stops retrying once the receiver recovers, with a fresh signature on every attempt', async () => {
    const delivery = await setUp(200);
    receiver.script = [500, 503];
    await env.backend.clock.idle();
    await env.backend.clock.advance(10);
    await env.backend.clock.advance(60);
    expect(receiver.received).toHaveLength(3);
    expect(delivery.state).toBe('delivered');
    for (const r of receiver.received) {
      expect(r.headers['x-webhook-signature']).toBe(hmacHex(secret, r.body));
      expect(r.headers['content-type']).toBe('application/json');
    }
    const stamps = new Set(receiver.received.map((r) => r.headers['x-webhook-timestamp']));
    expect(stamps.size).toBe(3);
    await env.backend.clock.advance(3_600);
    expect(receiver.received).toHaveLength(3);
  });

  it('treats a refused connection as a failed attempt and retries', async () => {
    const delivery = await setUp(200);
    await env.backend.clock.idle();
    await receiver.close();
    const refused = enqueueDelivery(env.backend.context, { kind: 'order', event: 'order.failed', merchantId, url: receiver.url, payload: {} });
    await env.backend.clock.idle();
    expect(delivery.state).toBe('delivered');
    expect(refused.state).toBe('pending');
    expect(refused.attempts[0]?.error).toBe('ECONNREFUSED');
    expect(refused.next_attempt_at).not.toBeNull();
    receiver = await startReceiver(200);
  });
});

/**
 * The `webhookHandler` option: deliveries go to a fetch handler in the test's process, with no
 * HTTP listener, signed and retried as over the network. The receiver is the SDK's own
 * `createWebhookHandler`, from its source, as a merchant's test would use it.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../packages/sdk/src/handlers/webhook.js';
import { MemoryDedupeStore } from '../../packages/sdk/src/webhooks/dedupe.js';
import type { DeliveryRecord } from '../src/types.js';
import { CHECKOUT_TIMEOUT_MS, enqueueDelivery } from '../src/webhooks/deliver.js';
import { call, startInProcess, type MockEnv } from './helpers/env.js';
import { complete, createPayment } from './helpers/checkout.js';

// Nothing listens there, and .invalid never resolves: a delivery that reached the network would fail.
const URL_NOWHERE = 'https://shop.invalid/webhooks';

describe('in-process webhook delivery to a fetch handler', () => {
  let env: MockEnv;
  let receive: (request: Request) => Promise<Response>;
  const seen: Request[] = [];

  beforeAll(async () => {
    env = await startInProcess({
      seed: 19,
      webhookHandler: (request) => {
        seen.push(request.clone());
        return receive(request);
      },
    });
  });
  afterAll(() => env.close());
  beforeEach(() => {
    seen.length = 0;
  });

  const now = () => env.backend.clock.now();

  it('delivers a signed order webhook to createWebhookHandler, retries on its 500, and de-duplicates a redelivery', async () => {
    const merchant = await env.backend.control.fixtures.merchant({ webhook_url: URL_NOWHERE });
    const secret = merchant.webhook!.secret;
    const handled: string[] = [];
    let failNext = true;
    receive = createWebhookHandler({
      secret,
      store: new MemoryDedupeStore(),
      now,
      onError: () => {},
      onEvent: (event) => {
        if (failNext) {
          failNext = false;
          throw new Error('database down');
        }
        handled.push(`${event.event}:${'order_id' in event ? event.order_id : ''}`);
      },
    });
    const delivery = enqueueDelivery(env.backend.context, {
      kind: 'order',
      event: 'order.completed',
      merchantId: merchant.id,
      url: URL_NOWHERE,
      payload: { event: 'order.completed', order_id: 'ord_in_process', fiat_amount: '100.00' },
    });
    await env.backend.control.webhooks.settle();
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ status: 500, next_attempt_at: expect.any(String) });
    expect(handled).toEqual([]);

    // The handler got the request as it would go over the wire: URL, method, raw body, signature.
    const first = seen[0]!;
    expect(first.url).toBe(URL_NOWHERE);
    expect(first.method).toBe('POST');
    const body = await first.text();
    expect(body).toBe(delivery.body);
    expect(first.headers.get('x-webhook-signature')).toBe(createHmac('sha256', secret).update(body).digest('hex'));

    await env.backend.clock.advance(10);
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(JSON.parse(delivery.attempts[1]!.response!.body)).toEqual({ received: true });
    expect(handled).toEqual(['order.completed:ord_in_process']);

    // A redelivery reaches the handler again, which acknowledges it without acting twice.
    await env.backend.control.webhooks.redeliver(delivery.id);
    expect(delivery.attempts.at(-1)).toMatchObject({ status: 200, manual: true });
    expect(JSON.parse(delivery.attempts.at(-1)!.response!.body)).toEqual({ received: true, duplicate: true });
    expect(handled).toHaveLength(1);
    expect(seen).toHaveLength(3);
  });

  it('delivers a checkout event from a real payment to a checkout handler', async () => {
    const org = await env.backend.control.fixtures.checkout({ webhook_url: URL_NOWHERE });
    const events: { id: string; type: string; status: string }[] = [];
    receive = createWebhookHandler({
      kind: 'checkout',
      secret: org.webhook!.secret,
      store: new MemoryDedupeStore(),
      now,
      onEvent: (event) => {
        events.push({ id: event.id, type: event.type, status: event.data.status });
      },
    });
    const payment = await createPayment(env, org.key);
    await complete(env, payment.reference, 'completed');
    await call(env, 'GET', `/api/v1/developer/payments/${payment.session_id}`);
    await env.backend.control.webhooks.settle();

    const [delivery] = env.backend.control.webhooks.list({ event: 'payment.succeeded' }).filter((d) => d.merchant_id === org.organization_id);
    expect(delivery).toMatchObject<Partial<DeliveryRecord>>({ kind: 'checkout', state: 'delivered', url: URL_NOWHERE });
    expect(events).toEqual([{ id: delivery!.event_id, type: 'payment.succeeded', status: 'completed' }]);
    expect(seen[0]!.headers.get('x-svc-event-id')).toBe(delivery!.event_id);
  });

  it('gives up on a handler that never answers after the checkout time-out, and aborts its request', async () => {
    const org = await env.backend.control.fixtures.checkout({ webhook_url: URL_NOWHERE });
    const payment = await createPayment(env, org.key);
    let aborted = false;
    receive = (request) =>
      new Promise<Response>(() => {
        request.signal.addEventListener('abort', () => (aborted = true));
      });
    const started = performance.now();
    const [delivery] = await env.backend.control.webhooks.fire({ kind: 'checkout', event: 'payment.failed', id: payment.reference });
    expect(performance.now() - started).toBeGreaterThanOrEqual(CHECKOUT_TIMEOUT_MS - 50);
    expect(delivery).toMatchObject({ state: 'failed', attempts: [{ error: 'timed out', next_attempt_at: null }] });
    expect(aborted).toBe(true);
  });

  it('records what the handler throws as the failed attempt, and retries it', async () => {
    const merchant = await env.backend.control.fixtures.merchant({ webhook_url: URL_NOWHERE });
    let calls = 0;
    receive = async () => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
      return new Response(null, { status: 204 });
    };
    const delivery = enqueueDelivery(env.backend.context, { kind: 'order', event: 'order.failed', merchantId: merchant.id, url: URL_NOWHERE, payload: { event: 'order.failed' } });
    await env.backend.control.webhooks.settle();
    expect(delivery.attempts[0]).toMatchObject({ error: 'webhookHandler threw: boom' });
    expect(delivery.attempts[0]!.status).toBeUndefined();
    await env.backend.clock.advance(10);
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts[1]).toMatchObject({ status: 204, response: { body: '', truncated: false } });
  });
});

import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../src/index.js';
import { verifyCheckoutWebhook } from '../src/webhooks/index.js';
import { newCheckout, payment, startReceiver, type Checkout, type Receiver } from './helpers/checkout.js';
import { MODES, type MockEnv } from './helpers/mock.js';

describe.each(MODES)('checkout.webhooks, %s', (_name, start) => {
  let env: MockEnv;
  let checkout: Checkout;
  let receiver: Receiver;
  beforeAll(async () => {
    env = await start({ seed: 94 });
    checkout = await newCheckout(env);
    receiver = await startReceiver();
  });
  afterEach(() => {
    receiver.received.splice(0);
    receiver.status = 200;
  });
  afterAll(async () => {
    await receiver.close();
    await env.close();
  });

  /** A payment completed at the gateway and verified, which sends its event; resolves once delivered or failed. */
  async function paidAndVerified(): Promise<string> {
    const result = await checkout.client.payments.create(payment());
    if (result.outcome === 'in_progress') throw new Error('unexpected 202');
    env.backend.control.checkout.complete(result.data.reference!, 'completed');
    await checkout.client.payments.verify(result.data.reference!);
    await env.backend.clock.advance(0);
    return result.data.reference!;
  }

  it('subscribes an endpoint, shows its secret once, and lists it without', async () => {
    const endpoint = await checkout.client.webhooks.create({ url: receiver.url });
    expect(endpoint).toEqual({ id: expect.stringMatching(/^we_/), url: receiver.url, created_at: expect.any(String), secret: expect.stringMatching(/^whsec_[0-9a-f]{48}$/) });
    const listed = await checkout.client.webhooks.list();
    expect(listed).toEqual([{ id: endpoint.id, url: receiver.url, created_at: endpoint.created_at }]);
    await checkout.client.webhooks.delete(endpoint.id);
  });

  it('delivers payment.succeeded signed with the endpoint secret after verification', async () => {
    const { id, secret } = await checkout.client.webhooks.create({ url: receiver.url });
    const reference = await paidAndVerified();
    expect(receiver.received).toHaveLength(1);
    const [{ headers, body }] = receiver.received as [(typeof receiver.received)[number]];
    const timestamp = String(headers['x-svc-timestamp']);
    expect(headers['x-svc-signature']).toBe(`v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
    const event = await verifyCheckoutWebhook({ body, headers, secret, now: env.backend.clock.now() });
    expect(event).toMatchObject({ id: headers['x-svc-event-id'], type: 'payment.succeeded', data: { reference, status: 'completed' } });
    await checkout.client.webhooks.delete(id);
  });

  it('replays a failed delivery with retryEvent: same event id, delivered', async () => {
    const { id } = await checkout.client.webhooks.create({ url: receiver.url });
    receiver.status = 500;
    await paidAndVerified();
    const eventId = String(receiver.received[0]!.headers['x-svc-event-id']);
    receiver.status = 200;
    const retried = await checkout.client.webhooks.retryEvent(eventId);
    expect(retried).toEqual({
      id: eventId,
      type: 'payment.succeeded',
      deliveries: [expect.objectContaining({ endpoint_id: id, url: receiver.url, state: 'delivered', attempts: [expect.objectContaining({ status: 500 }), expect.objectContaining({ status: 200 })] })],
    });
    expect(receiver.received.map((r) => r.headers['x-svc-event-id'])).toEqual([eventId, eventId]);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    await checkout.client.webhooks.delete(id);
  });

  it('removes an endpoint, which then receives nothing; an unknown id or event is NotFoundError', async () => {
    const { id } = await checkout.client.webhooks.create({ url: receiver.url });
    await expect(checkout.client.webhooks.delete(id)).resolves.toEqual({ id, deleted: true });
    await expect(checkout.client.webhooks.list()).resolves.toEqual([]);
    await paidAndVerified();
    expect(receiver.received).toHaveLength(0);
    await expect(checkout.client.webhooks.delete(id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(checkout.client.webhooks.retryEvent('evt_unknown')).rejects.toMatchObject({ status: 404 });
  });

  it("does not show or replay another organization's endpoints and events", async () => {
    const { id } = await checkout.client.webhooks.create({ url: receiver.url });
    await paidAndVerified();
    const eventId = String(receiver.received[0]!.headers['x-svc-event-id']);
    const other = await newCheckout(env);
    await expect(other.client.webhooks.list()).resolves.toEqual([]);
    await expect(other.client.webhooks.delete(id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.client.webhooks.retryEvent(eventId)).rejects.toBeInstanceOf(NotFoundError);
    await checkout.client.webhooks.delete(id);
  });

  it('refuses a URL that is not http(s), or an id that is not one path segment, before sending', async () => {
    const before = checkout.wire.requests.length;
    await expect(checkout.client.webhooks.create({ url: 'ftp://hooks.example' })).rejects.toBeInstanceOf(ValidationError);
    await expect(checkout.client.webhooks.delete('we_1/../x')).rejects.toBeInstanceOf(ValidationError);
    await expect(checkout.client.webhooks.retryEvent('')).rejects.toBeInstanceOf(ValidationError);
    expect(checkout.wire.requests.length).toBe(before);
  });
});

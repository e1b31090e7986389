/**
 * `control.webhooks.fire` sends a chosen event for an existing record without changing it, and
 * `control.webhooks.redeliver` attempts one delivery again with a fresh signature and the same
 * event id; over the control client (standalone mock) and in-process. Signatures are checked
 * here with node:crypto, apart from the mock.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient, type ControlClient } from '../src/client.js';
import { createPayment } from './helpers/checkout.js';
import { call, startStandalone, type MockEnv } from './helpers/env.js';
import { advance, completeForm, createShop, startDeposit, type Shop } from './helpers/interactive.js';
import { placeOrder, rampMerchant } from './ramp-setup.js';

const hmac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answer: (next: number) => {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('firing and redelivering webhooks', () => {
  let env: MockEnv;
  let control: ControlClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let shop: Shop;
  const secret = 'whsec_fire_0123456789abcdef';

  beforeAll(async () => {
    env = await startStandalone({ seed: 91 });
    control = createControlClient({ baseUrl: env.origin });
    receiver = await startReceiver();
    shop = await createShop(env);
    shop.merchant.webhook = { url: receiver.url, secret };
  });
  afterAll(async () => {
    await env.close();
    await receiver.close();
  });

  /** A buy that completes: its order sends the real order.completed. */
  async function completedOrder() {
    const { id } = await startDeposit(env, shop, { fiat_amount: 100, destination_address: Keypair.random().publicKey() });
    await completeForm(env, id);
    await call(env, 'POST', `/_mock/mobile-money/${id}/approve`);
    await advance(env, 10);
    await control.webhooks.settle();
    return [...env.backend.store.orders.values()].find((o) => o.transaction_id === id)!;
  }

  it('fires order.failed for a completed order with its documented body, signed, leaving the order completed', async () => {
    const order = await completedOrder();
    const [real] = await control.webhooks.list({ merchantId: shop.merchant.id, event: 'order.completed' });
    receiver.received.length = 0;

    const fired = await control.webhooks.fire({ kind: 'order', event: 'order.failed', id: order.id });
    expect(fired).toHaveLength(1);
    const [delivery] = fired;
    expect(delivery).toMatchObject({ kind: 'order', event: 'order.failed', fired: true, state: 'delivered', url: receiver.url });
    expect(delivery!.event_id).not.toBe(real!.event_id);
    expect(real!.fired).toBe(false);
    const { headers, body } = receiver.received[0]!;
    expect(JSON.parse(body)).toEqual({ ...JSON.parse(real!.body), event: 'order.failed', timestamp: delivery!.attempts[0]!.at });
    expect(headers['x-webhook-signature']).toBe(hmac(secret, body));
    expect(env.backend.store.orders.get(order.id)!.status).toBe('completed');
  });

  it('redelivers a delivery: a new attempt with a fresh timestamp and signature, the same event id and body', async () => {
    const [real] = await control.webhooks.list({ merchantId: shop.merchant.id, event: 'order.completed' });
    receiver.received.length = 0;
    await control.clock.advance(30);

    const again = await control.webhooks.redeliver(real!.id);
    expect(again.id).toBe(real!.id);
    expect(again.event_id).toBe(real!.event_id);
    expect(again.attempts).toHaveLength(real!.attempts.length + 1);
    const last = again.attempts.at(-1)!;
    expect(last).toMatchObject({ manual: true, status: 200 });
    const { headers, body } = receiver.received[0]!;
    expect(body).toBe(real!.body);
    expect(headers['x-webhook-signature']).toBe(hmac(secret, body));
    expect(Number(headers['x-webhook-timestamp']) - Number(real!.attempts[0]!.request.headers['X-Webhook-Timestamp'])).toBeGreaterThanOrEqual(30);
    // The in-process call does the same.
    const inProcess = await env.backend.control.webhooks.redeliver(real!.id);
    expect(inProcess.attempts).toHaveLength(again.attempts.length + 1);
  });

  it('fires a ramp payment.completed for an on-ramp order, about its Mobile Money collection', async () => {
    const ramp = await rampMerchant(env);
    ramp.merchant.webhook = { url: receiver.url, secret };
    const placed = await placeOrder(env, ramp, { fiat_amount: 120 });
    await expect(control.webhooks.fire({ kind: 'ramp_payment', event: 'payment.completed', id: placed.reference })).rejects.toMatchObject({
      status: 409,
      message: 'the ramp order has no Mobile Money collection yet',
    });
    await control.clock.advance(5); // the prompt goes out a moment after the order is placed
    receiver.received.length = 0;

    const [delivery] = await control.webhooks.fire({ kind: 'ramp_payment', event: 'payment.completed', id: placed.reference });
    expect(delivery).toMatchObject({ kind: 'ramp_payment', event: 'payment.completed', fired: true, state: 'delivered' });
    const { headers, body } = receiver.received[0]!;
    expect(JSON.parse(body)).toMatchObject({
      event: 'payment.completed',
      data: { status: 'completed', amount: 12_000, currency: 'GHS', channel: 'mobile_money', meta: { ramp_order_id: placed.id, ramp_type: 'onramp' } },
    });
    expect(headers['x-webhook-signature']).toBe(hmac(secret, body));
  });

  it('fires payment.succeeded for a pending checkout payment to its endpoint, and redelivers it once the endpoint recovers', async () => {
    const org = await control.fixtures.checkout({ webhook_url: receiver.url });
    const payment = await createPayment(env, org.key);
    receiver.received.length = 0;
    receiver.answer(500);

    const [failed] = await control.webhooks.fire({ kind: 'checkout', event: 'payment.succeeded', id: payment.reference });
    expect(failed).toMatchObject({ kind: 'checkout', state: 'failed', endpoint_id: org.webhook!.id, fired: true });
    const first = receiver.received[0]!;
    const event = JSON.parse(first.body);
    expect(event).toMatchObject({ id: failed!.event_id, type: 'payment.succeeded', data: { reference: payment.reference, status: 'completed' } });
    const stamp = first.headers['x-svc-timestamp'];
    expect(first.headers['x-svc-signature']).toBe(`v1=${hmac(org.webhook!.secret, `${stamp}.${first.body}`)}`);
    expect(first.headers['x-svc-event-id']).toBe(failed!.event_id);

    receiver.answer(200);
    await control.clock.advance(5);
    const redelivered = await control.webhooks.redeliver(failed!.id);
    expect(redelivered.state).toBe('delivered');
    const second = receiver.received[1]!;
    expect(second.body).toBe(first.body);
    expect(second.headers['x-svc-event-id']).toBe(failed!.event_id);
    expect(Number(second.headers['x-svc-timestamp'])).toBe(Number(stamp) + 5);
    expect(second.headers['x-svc-signature']).toBe(`v1=${hmac(org.webhook!.secret, `${second.headers['x-svc-timestamp']}.${second.body}`)}`);
  });

  it('refuses an event its kind does not have (400), an unknown record or delivery (404), and nowhere to send (409), changing nothing', async () => {
    const before = (await control.webhooks.list()).length;
    const ramp = await rampMerchant(env); // no webhook URL
    const placed = await placeOrder(env, ramp);
    const refusals: [Parameters<ControlClient['webhooks']['fire']>[0], number, string][] = [
      [{ kind: 'order', event: 'payment.completed' as 'order.failed', id: 'ord_x' }, 400, 'VALIDATION_ERROR'],
      [{ kind: 'nope' as 'order', event: 'order.failed', id: 'ord_x' }, 400, 'VALIDATION_ERROR'],
      [{ kind: 'order', event: 'order.completed', id: 'ord_missing' }, 404, 'NOT_FOUND'],
      [{ kind: 'checkout', event: 'payment.failed', id: 'txn_missing' }, 404, 'NOT_FOUND'],
      [{ kind: 'ramp_payment', event: 'payment.failed', id: placed.reference }, 409, 'INVALID_STATE'],
    ];
    for (const [input, status, code] of refusals) {
      await expect(control.webhooks.fire(input)).rejects.toMatchObject({ status, code });
      await expect(env.backend.control.webhooks.fire(input)).rejects.toMatchObject({ status, code });
    }
    await expect(control.webhooks.redeliver('whd_missing')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await control.webhooks.list()).toHaveLength(before);
  });
});

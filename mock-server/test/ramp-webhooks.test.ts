import { createHmac, randomBytes } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { startReceiver, type Received, type Receiver } from './helpers/receiver.js';
import { advance, payDeposit, placeOrder, rampMerchant, statusOf, type RampMerchant } from './ramp-setup.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';

describe.each(MODES)('ramp payment webhooks, %s', (_name, start) => {
  let env: MockEnv;
  let receiver: Receiver;
  beforeAll(async () => {
    env = await start({ seed: 61 });
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => receiver.close());

  /** A merchant whose webhook URL points at the receiver, with a secret only this test knows. */
  async function subscribed(): Promise<RampMerchant & { secret: string }> {
    const m = await rampMerchant(env);
    const secret = `whsec_${randomBytes(32).toString('hex')}`;
    m.merchant.webhook = { url: receiver.url, secret };
    return { ...m, secret };
  }

  /** Waits for the deliveries under way (the control list settles them first). */
  const deliveries = async (m: RampMerchant) => (await call(env, 'GET', `/_mock/webhooks?merchant_id=${m.merchant.id}`)).body.data as any[];

  function expectSigned(req: Received, secret: string) {
    const expected = createHmac('sha256', secret).update(req.body).digest('hex');
    expect(req.headers['x-webhook-signature']).toBe(expected);
    expect(req.headers['x-webhook-timestamp']).toMatch(/^\d+$/);
    expect(req.headers['content-type']).toBe('application/json');
  }

  const day = async () => (await call(env, 'GET', '/_mock/clock')).body.now.slice(0, 10).replace(/-/g, '');

  it('sends payment.completed, signed with the webhook secret, when the Mobile Money collection succeeds', async () => {
    const m = await subscribed();
    const order = await placeOrder(env, m, { fiat_amount: 100.5 });
    const approved = await call(env, 'POST', `/_mock/mobile-money/${order.reference}/approve`);
    await deliveries(m);
    expect(receiver.received).toHaveLength(1);
    const [req] = receiver.received;
    expectSigned(req!, m.secret);
    expect(Number(req!.headers['x-webhook-timestamp'])).toBe(Math.floor(Date.parse((await call(env, 'GET', '/_mock/clock')).body.now) / 1000));
    const body = JSON.parse(req!.body);
    expect(body).toEqual({
      event: 'payment.completed',
      data: {
        reference: expect.stringMatching(new RegExp(`^PAY-${await day()}-${UUID}$`)),
        status: 'completed',
        amount: 10050,
        currency: 'GHS',
        provider_ref: approved.body.provider_ref,
        channel: 'mobile_money',
        meta: { ramp_order_id: order.id, ramp_type: 'onramp' },
      },
    });
    expect(Number.isInteger(body.data.amount)).toBe(true);
    // The crypto leg is read by polling: its completion sends nothing more.
    await advance(env, 7);
    expect(await statusOf(env, m, order.reference)).toBe('completed');
    expect((await deliveries(m)).map((d) => [d.kind, d.event, d.state])).toEqual([['ramp_payment', 'payment.completed', 'delivered']]);
    expect(receiver.received).toHaveLength(1);
  });

  it('sends payment.failed when the user declines the prompt', async () => {
    const m = await subscribed();
    const order = await placeOrder(env, m);
    await call(env, 'POST', `/_mock/mobile-money/${order.id}/decline`);
    await deliveries(m);
    expect(receiver.received).toHaveLength(1);
    expectSigned(receiver.received[0]!, m.secret);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      event: 'payment.failed',
      data: { status: 'failed', amount: 10000, channel: 'mobile_money', meta: { ramp_order_id: order.id, ramp_type: 'onramp' } },
    });
  });

  it('sends payment.failed when a prompt nobody answered times out, after the order expired: the collection failed', async () => {
    const m = await subscribed();
    const order = await placeOrder(env, m);
    await advance(env, 300);
    expect(await statusOf(env, m, order.reference)).toBe('expired');
    expect(await deliveries(m)).toEqual([]);
    await advance(env, 120);
    expect(await statusOf(env, m, order.reference)).toBe('expired');
    await deliveries(m);
    expect(receiver.received).toHaveLength(1);
    expectSigned(receiver.received[0]!, m.secret);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      event: 'payment.failed',
      data: { status: 'failed', amount: 10000, currency: 'GHS', channel: 'mobile_money', meta: { ramp_order_id: order.id, ramp_type: 'onramp' } },
    });
  });

  it('sends payment.failed for a failed payout attempt and payment.completed for the one that succeeds', async () => {
    const m = await subscribed();
    const order = await placeOrder(env, m, { type: 'offramp', fiat_amount: 42.1 });
    const wallet = Keypair.random().publicKey();
    await payDeposit(env, order, wallet);
    await call(env, 'POST', `/api/v1/ramp/orders/${order.reference}/confirm`, { headers: m.auth, body: { source_wallet: wallet } });
    await advance(env, 2);
    expect(receiver.received).toHaveLength(0);
    const failed = await call(env, 'POST', `/_mock/payouts/${order.reference}/fail`);
    await advance(env, 30 + 5);
    expect(await statusOf(env, m, order.reference)).toBe('completed');
    await deliveries(m);
    const bodies = receiver.received.map((r) => (expectSigned(r, m.secret), JSON.parse(r.body)));
    expect(bodies.map((b) => [b.event, b.data.status, b.data.amount, b.data.meta])).toEqual([
      ['payment.failed', 'failed', 4210, { ramp_order_id: order.id, ramp_type: 'offramp' }],
      ['payment.completed', 'completed', 4210, { ramp_order_id: order.id, ramp_type: 'offramp' }],
    ]);
    expect(bodies[0].data.provider_ref).toBe(failed.body.provider_ref);
    expect(bodies[1].data.provider_ref).not.toBe(bodies[0].data.provider_ref);
    expect(bodies[1].data.reference).not.toBe(bodies[0].data.reference);
  });

  it('retries on the order-webhook schedule (0 s, 10 s, 1 min), signing every attempt afresh', async () => {
    const m = await subscribed();
    receiver.script = [500, 503];
    const order = await placeOrder(env, m);
    await call(env, 'POST', `/_mock/mobile-money/${order.reference}/approve`);
    await deliveries(m);
    expect(receiver.received).toHaveLength(1);
    await advance(env, 9);
    expect(receiver.received).toHaveLength(1);
    await advance(env, 1);
    expect(receiver.received).toHaveLength(2);
    await advance(env, 60);
    expect(receiver.received).toHaveLength(3);
    const stamps = receiver.received.map((r) => Number(r.headers['x-webhook-timestamp']));
    expect([stamps[1]! - stamps[0]!, stamps[2]! - stamps[1]!]).toEqual([10, 60]);
    for (const r of receiver.received) {
      expect(r.body).toBe(receiver.received[0]!.body);
      expectSigned(r, m.secret);
    }
    const [delivery] = await deliveries(m);
    expect(delivery).toMatchObject({ kind: 'ramp_payment', event: 'payment.completed', state: 'delivered' });
    expect(delivery.attempts.map((a: any) => a.status)).toEqual([500, 503, 200]);
  });

  it('sends nothing while the merchant has no webhook URL', async () => {
    const none = await rampMerchant(env);
    const order = await placeOrder(env, none);
    await call(env, 'POST', `/_mock/mobile-money/${order.reference}/approve`);
    expect(await deliveries(none)).toEqual([]);
  });

  it('sends payment.completed for a late collection, which the order then refunds (fiat_refunded), and nothing for the refund', async () => {
    const m = await subscribed();
    for (const end of ['cancel', 'expire'] as const) {
      receiver.received.length = 0;
      const late = await placeOrder(env, m, { fiat_amount: 120 });
      await advance(env, 2); // the prompt is sent
      if (end === 'cancel') await call(env, 'POST', `/api/v1/ramp/orders/${late.reference}/cancel`, { headers: m.auth });
      else await advance(env, 298);
      const approved = await call(env, 'POST', `/_mock/mobile-money/${late.reference}/approve`);
      await advance(env, 5); // the refund payout goes through
      expect(await statusOf(env, m, late.reference)).toBe('fiat_refunded');
      await deliveries(m);
      expect(receiver.received).toHaveLength(1);
      expectSigned(receiver.received[0]!, m.secret);
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
        event: 'payment.completed',
        data: { status: 'completed', amount: 12000, provider_ref: approved.body.provider_ref, meta: { ramp_order_id: late.id, ramp_type: 'onramp' } },
      });
    }
  });
});

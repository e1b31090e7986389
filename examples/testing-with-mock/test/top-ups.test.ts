/**
 * The shop's top-up code against the mock service, in-process: the customer's phone is played
 * with control calls, time moves on the manual clock (no sleeping), and the webhooks are the
 * real signed POSTs the shop's endpoint received.
 */
import { createHmac } from 'node:crypto';
import { bypass } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, USER, type World } from './world.ts';

let world: World;
beforeEach(async () => {
  world = await startWorld();
});
afterEach(() => world.close());

/** The signature as the service computes it, independently of the SDK. */
const hmac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describe('wallet top-ups', () => {
  it('credits the wallet once the customer approves the Mobile Money prompt', async () => {
    const reference = await world.topUps.start(USER, 100);
    await world.backend.control.clock.advance(2); // the service sends the prompt 2 s after the order
    expect(world.backend.control.rails.prompts('pending')).toHaveLength(1);

    await world.backend.control.rails.approvePrompt(reference);
    const result = await world.topUps.settle(reference);

    expect(result).toMatchObject({ reference, credited: true, status: 'completed' });
    expect(result.usdc).toBeGreaterThan(6);
    expect(world.topUps.balance(USER.wallet)).toBe(result.usdc);

    // The collection's payment webhook reached the shop's endpoint, signed with its secret.
    await world.settled();
    expect(world.received).toHaveLength(1);
    const [delivery] = world.received;
    expect(delivery!.headers['x-webhook-signature']).toBe(hmac(world.webhookSecret, delivery!.body));
    expect(JSON.parse(delivery!.body)).toMatchObject({ event: 'payment.completed', data: { amount: 10000, currency: 'GHS', meta: { ramp_type: 'onramp' } } });
    expect(delivery).toMatchObject({ outcome: 'recorded', status: 200 });
  });

  it('credits nothing when the customer declines the prompt', async () => {
    const reference = await world.topUps.start(USER, 50);
    await world.backend.control.rails.declinePrompt(reference);
    const result = await world.topUps.settle(reference);

    expect(result).toMatchObject({ credited: false, status: 'failed', usdc: 0 });
    expect(result.failureReason).toMatch(/declined/i);
    expect(world.topUps.balance(USER.wallet)).toBe(0);
    await world.settled();
    expect(world.received.map((r) => JSON.parse(r.body).event)).toEqual(['payment.failed']);
  });

  it('credits nothing when nobody answers the prompt: the order expires with its 5-minute rate lock, and no sleeping', async () => {
    const startedAt = world.backend.clock.now();
    const reference = await world.topUps.start(USER, 50);
    const result = await world.topUps.settle(reference);

    expect(result).toMatchObject({ credited: false, status: 'expired', usdc: 0 });
    expect(world.backend.clock.now() - startedAt).toBe(300_000);
  });

  it('keeps a payment once when the endpoint failed and the service delivered it again 10 s later', async () => {
    world.failNextWebhooks(1);
    const reference = await world.topUps.start(USER, 100);
    await world.backend.control.rails.approvePrompt(reference);
    await world.settled();
    expect(world.received.map((r) => [r.outcome, r.status])).toEqual([['recorded', 500]]);

    await world.backend.control.clock.advance(10);
    await world.settled();
    expect(world.received.map((r) => [r.outcome, r.status])).toEqual([
      ['recorded', 500],
      ['duplicate', 200],
    ]);
    // Same event, signed afresh for each attempt.
    const [first, second] = world.received;
    expect(second!.body).toBe(first!.body);
    expect(second!.headers['x-webhook-signature']).toBe(hmac(world.webhookSecret, second!.body));
    expect(world.topUps.payments.size).toBe(1);
  });

  it('refuses a webhook not signed with the secret, and records nothing', async () => {
    const body = JSON.stringify({ event: 'payment.completed', data: { reference: 'PAY-forged', status: 'completed', amount: 1, currency: 'GHS' } });
    // From outside the simulated service: bypass() lets this request past msw to the real endpoint.
    const res = await fetch(
      bypass(world.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': hmac('a guess', body), 'x-webhook-timestamp': String(Math.floor(Date.now() / 1000)) },
        body,
      }),
    );
    expect(res.status).toBe(400);
    expect(world.received).toEqual([expect.objectContaining({ status: 400, outcome: expect.stringMatching(/signature/i) })]);
    expect(world.topUps.payments.size).toBe(0);
  });
});

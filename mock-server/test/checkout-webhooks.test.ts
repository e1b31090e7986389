import { timingSafeEqual } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import {
  auth,
  complete,
  createKey,
  createPayment,
  expectedSignature,
  PAYMENTS,
  settleWebhooks,
  startReceiver,
  subscribe,
  type KeyInfo,
  type Receiver,
} from './helpers/checkout.js';

const WEBHOOKS = '/api/v1/developer/webhooks';

describe.each(MODES)('checkout webhooks, %s', (_name, start) => {
  let env: MockEnv;
  let current: KeyInfo;
  let receivers: Receiver[] = [];
  const receiver = async () => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };
  beforeAll(async () => {
    env = await start({ seed: 66 });
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    await call(env, 'POST', '/_mock/reset');
    current = await createKey(env);
  });
  afterEach(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    receivers = [];
  });

  /** A payment settled at the gateway with `status`, then verified once. */
  const paidAndVerified = async (status = 'completed') => {
    const payment = await createPayment(env, current.key, { meta: { order_id: 'A-17' } });
    await complete(env, payment.reference, status);
    await call(env, 'GET', `${PAYMENTS}/${payment.session_id}`);
    await settleWebhooks(env);
    return payment;
  };

  describe('subscriptions', () => {
    it('subscribes an endpoint with {url} and answers {id, url, secret}', async () => {
      const res = await call(env, 'POST', WEBHOOKS, { body: { url: 'https://shop.example/hooks' }, headers: auth(current.key) });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        data: { id: expect.stringMatching(/^we_/), url: 'https://shop.example/hooks', secret: expect.stringMatching(/^whsec_[0-9a-f]{48}$/), created_at: expect.any(String) },
      });
    });

    it('lists and deletes only the endpoints of the key organization', async () => {
      const mine = await subscribe(env, current.key, 'https://shop.example/a');
      const other = await createKey(env);
      const theirs = await subscribe(env, other.key, 'https://other.example/b');
      const list = await call(env, 'GET', WEBHOOKS, { headers: auth(current.key) });
      expect(list.body).toEqual({ success: true, data: [{ id: mine.id, url: 'https://shop.example/a', created_at: expect.any(String) }] });
      expect(JSON.stringify(list.body)).not.toContain(mine.secret);

      const foreign = await call(env, 'DELETE', `${WEBHOOKS}/${theirs.id}`, { headers: auth(current.key) });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe(foreign.body.message);
      const removed = await call(env, 'DELETE', `${WEBHOOKS}/${mine.id}`, { headers: auth(current.key) });
      expect(removed.body).toEqual({ success: true, data: { id: mine.id, deleted: true } });
      expect((await call(env, 'GET', WEBHOOKS, { headers: auth(current.key) })).body.data).toEqual([]);
    });

    it('refuses a bad url with 400 and a missing or legacy key with 401', async () => {
      for (const url of ['not a url', 'ftp://shop.example/x', 42]) {
        const res = await call(env, 'POST', WEBHOOKS, { body: { url }, headers: auth(current.key) });
        expect(res.status).toBe(400);
      }
      expect((await call(env, 'POST', WEBHOOKS, { body: { url: 'https://shop.example/a' } })).status).toBe(401);
      const legacy = await createKey(env, { legacy: true });
      expect((await call(env, 'GET', WEBHOOKS, { headers: auth(legacy.key) })).status).toBe(401);
      expect(env.backend.store.checkout.webhookEndpoints.size).toBe(0);
    });
  });

  describe('delivery', () => {
    it('posts payment.succeeded to every subscribed endpoint, signed with each endpoint secret', async () => {
      const [a, b] = [await receiver(), await receiver()];
      const subA = await subscribe(env, current.key, a.url);
      const subB = await subscribe(env, current.key, b.url);
      const payment = await paidAndVerified('completed');

      for (const [r, sub] of [[a, subA], [b, subB]] as const) {
        expect(r.received).toHaveLength(1);
        const { headers, body } = r.received[0]!;
        expect(headers['x-svc-event-type']).toBe('payment.succeeded');
        expect(headers['x-svc-timestamp']).toBe(String(Math.floor(env.backend.clock.now() / 1000)));
        const expected = Buffer.from(expectedSignature(sub.secret, String(headers['x-svc-timestamp']), body));
        const actual = Buffer.from(String(headers['x-svc-signature']));
        expect(actual.length === expected.length && timingSafeEqual(actual, expected)).toBe(true);
        const event = JSON.parse(body);
        expect(event).toEqual({
          id: headers['x-svc-event-id'],
          type: 'payment.succeeded',
          created_at: expect.any(String),
          data: {
            reference: payment.reference,
            session_id: payment.session_id,
            status: 'completed',
            amount: 10_000,
            final_amount: 10_000,
            currency: 'GHS',
            meta: expect.objectContaining({ order_id: 'A-17', organizationId: current.organization_id }),
          },
        });
      }
      // One event, the same id at both endpoints; a signature made with the other secret does not match.
      expect(a.received[0]!.headers['x-svc-event-id']).toBe(b.received[0]!.headers['x-svc-event-id']);
      expect(a.received[0]!.headers['x-svc-signature']).not.toBe(expectedSignature(subB.secret, String(a.received[0]!.headers['x-svc-timestamp']), a.received[0]!.body));
    });

    it.each([
      ['success', 'payment.succeeded'],
      ['failed', 'payment.failed'],
      ['cancelled', 'payment.failed'],
    ])('maps a session %s to %s', async (status, type) => {
      const r = await receiver();
      await subscribe(env, current.key, r.url);
      await paidAndVerified(status);
      expect(r.received.map((x) => x.headers['x-svc-event-type'])).toEqual([type]);
      expect(JSON.parse(r.received[0]!.body).data.status).toBe(status);
    });

    it('sends nothing for a session never verified, nor for a verified pending one', async () => {
      const r = await receiver();
      await subscribe(env, current.key, r.url);
      const never = await createPayment(env, current.key);
      await complete(env, never.reference, 'completed');
      const pending = await createPayment(env, current.key);
      await call(env, 'GET', `${PAYMENTS}/${pending.reference}`);
      await env.backend.clock.advance(24 * 3600);
      await settleWebhooks(env);
      expect(r.received).toEqual([]);
    });

    it('sends nothing to another organization and nothing to a deleted endpoint', async () => {
      const [mine, theirs] = [await receiver(), await receiver()];
      const sub = await subscribe(env, current.key, mine.url);
      const other = await createKey(env);
      await subscribe(env, other.key, theirs.url);
      await call(env, 'DELETE', `${WEBHOOKS}/${sub.id}`, { headers: auth(current.key) });
      await paidAndVerified();
      expect(mine.received).toEqual([]);
      expect(theirs.received).toEqual([]);
    });

    it('re-sends the same event id when a verification synchronizes the same status again', async () => {
      const r = await receiver();
      await subscribe(env, current.key, r.url);
      const payment = await paidAndVerified();
      await call(env, 'GET', `${PAYMENTS}/${payment.reference}`);
      await settleWebhooks(env);
      expect(r.received).toHaveLength(2);
      expect(r.received[1]!.headers['x-svc-event-id']).toBe(r.received[0]!.headers['x-svc-event-id']);
      expect(r.received[1]!.body).toBe(r.received[0]!.body);
    });

    it('gives a new event when a failed session is paid on retry', async () => {
      const r = await receiver();
      await subscribe(env, current.key, r.url);
      const payment = await paidAndVerified('failed');
      await complete(env, payment.reference, 'completed');
      await call(env, 'GET', `${PAYMENTS}/${payment.reference}`);
      await settleWebhooks(env);
      expect(r.received.map((x) => x.headers['x-svc-event-type'])).toEqual(['payment.failed', 'payment.succeeded']);
      expect(r.received[1]!.headers['x-svc-event-id']).not.toBe(r.received[0]!.headers['x-svc-event-id']);
    });

    it('makes one attempt: a 500 or a refused connection is failed and never retried by itself', async () => {
      const r = await receiver();
      r.status = 500;
      await subscribe(env, current.key, r.url);
      const closed = await receiver();
      await subscribe(env, current.key, closed.url);
      await closed.close();
      await paidAndVerified();
      await env.backend.clock.advance(7 * 24 * 3600);
      await settleWebhooks(env);
      expect(r.received).toHaveLength(1);
      const deliveries = (await call(env, 'GET', '/_mock/webhooks')).body.data.filter((d: { kind: string }) => d.kind === 'checkout');
      expect(deliveries.map((d: { state: string; attempts: unknown[] }) => [d.state, d.attempts.length])).toEqual([
        ['failed', 1],
        ['failed', 1],
      ]);
    });
  });

  describe('a removed endpoint', () => {
    it('receives nothing more: a redelivery of its failed event is not sent, and nothing goes out signed with an empty secret', async () => {
      const r = await receiver();
      r.status = 500;
      const sub = await subscribe(env, current.key, r.url);
      await paidAndVerified();
      expect(r.received).toHaveLength(1);
      await call(env, 'DELETE', `${WEBHOOKS}/${sub.id}`, { headers: auth(current.key) });
      r.status = 200;
      const [failed] = (await call(env, 'GET', '/_mock/webhooks')).body.data.filter((d: { kind: string }) => d.kind === 'checkout');
      const redelivered = await call(env, 'POST', `/_mock/webhooks/${failed.id}/redeliver`);
      await settleWebhooks(env);
      expect(r.received).toHaveLength(1);
      expect(redelivered.body).toMatchObject({ state: 'failed', attempts: [{ status: 500 }, { error: 'webhook endpoint removed' }] });
    });
  });

  describe('retry endpoint', () => {
    const retry = (id: string, key = current.key) =>
      call(env, 'POST', `${WEBHOOKS}/events/${id}/retry`, { headers: auth(key) });

    it('replays a failed event with the same id and a fresh signature', async () => {
      const r = await receiver();
      r.status = 503;
      const sub = await subscribe(env, current.key, r.url);
      await paidAndVerified();
      const eventId = String(r.received[0]!.headers['x-svc-event-id']);
      r.status = 200;
      await env.backend.clock.advance(60);

      const res = await retry(eventId);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: eventId, type: 'payment.succeeded', deliveries: [{ endpoint_id: sub.id, state: 'delivered' }] });
      expect(r.received).toHaveLength(2);
      const second = r.received[1]!;
      expect(second.headers['x-svc-event-id']).toBe(eventId);
      expect(second.body).toBe(r.received[0]!.body);
      expect(Number(second.headers['x-svc-timestamp'])).toBe(Number(r.received[0]!.headers['x-svc-timestamp']) + 60);
      expect(second.headers['x-svc-signature']).toBe(expectedSignature(sub.secret, String(second.headers['x-svc-timestamp']), second.body));
    });

    it('replays only to endpoints that did not acknowledge it, or to all when every one did', async () => {
      const [ok, failing] = [await receiver(), await receiver()];
      failing.status = 500;
      await subscribe(env, current.key, ok.url);
      await subscribe(env, current.key, failing.url);
      await paidAndVerified();
      const eventId = String(ok.received[0]!.headers['x-svc-event-id']);
      failing.status = 200;
      await retry(eventId);
      expect([ok.received.length, failing.received.length]).toEqual([1, 2]);
      await retry(eventId);
      expect([ok.received.length, failing.received.length]).toEqual([2, 3]);
    });

    it('answers 404 for an unknown event or one of another organization', async () => {
      const r = await receiver();
      await subscribe(env, current.key, r.url);
      await paidAndVerified();
      const eventId = String(r.received[0]!.headers['x-svc-event-id']);
      const other = await createKey(env);
      expect((await retry(eventId, other.key)).status).toBe(404);
      const unknown = await retry('evt_00000000-0000-4000-8000-000000000000');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'event not found', message: 'event not found' });
      expect((await call(env, 'POST', `${WEBHOOKS}/events/${eventId}/retry`)).status).toBe(401);
      expect(r.received).toHaveLength(1);
    });
  });
});

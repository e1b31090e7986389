/**
 * Each delivery attempt is kept as sent and as answered: the request's headers and body, the
 * receiver's status, headers and body (cut at RESPONSE_BODY_LIMIT), how long it took, and the
 * retry it scheduled; in-process and over the control client.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient, type ControlClient } from '../src/client.js';
import { enqueueDelivery, RESPONSE_BODY_LIMIT } from '../src/webhooks/deliver.js';
import { startStandalone, type MockEnv } from './helpers/env.js';

const hmacHex = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

interface Answer {
  status: number;
  body: string;
  delayMs?: number;
}

/** A receiver on 127.0.0.1 that answers each request with the next scripted answer. */
async function startScriptedReceiver(answers: Answer[]) {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? { status: 200, body: '' };
      setTimeout(() => res.writeHead(answer.status, { 'x-receiver': 'scripted', 'content-type': 'text/plain' }).end(answer.body), answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('delivery records keep every attempt', () => {
  let env: MockEnv;
  let control: ControlClient;
  beforeAll(async () => {
    env = await startStandalone({ seed: 7 });
    control = createControlClient({ baseUrl: env.origin });
  });
  afterAll(() => env.close());

  it('records headers and body as sent, the answer cut to the limit, the timing and the next retry', async () => {
    const long = 'é'.repeat(RESPONSE_BODY_LIMIT); // two bytes each: twice the limit
    const receiver = await startScriptedReceiver([
      { status: 500, body: long, delayMs: 60 },
      { status: 200, body: '{"received":true}' },
    ]);
    try {
      const merchant = await control.fixtures.merchant({ webhook_url: receiver.url });
      const queued = enqueueDelivery(env.backend.context, {
        kind: 'order',
        event: 'order.completed',
        merchantId: merchant.id,
        url: receiver.url,
        payload: { event: 'order.completed', order_id: 'ord_attempts' },
      });
      await control.webhooks.settle();

      const first = await control.webhooks.get(queued.id);
      expect(first.state).toBe('pending');
      expect(first.attempts).toHaveLength(1);
      const [failed] = first.attempts;
      // As sent: what the receiver got, byte for byte, signed with the merchant's secret.
      const got = receiver.received[0]!;
      expect(failed!.request.body).toBe(got.body);
      expect(failed!.request.headers['X-Webhook-Signature']).toBe(hmacHex(merchant.webhook!.secret, got.body));
      expect(got.headers['x-webhook-signature']).toBe(failed!.request.headers['X-Webhook-Signature']);
      expect(got.headers['x-webhook-timestamp']).toBe(failed!.request.headers['X-Webhook-Timestamp']);
      expect(failed!.request.headers['content-type']).toBe('application/json');
      // As answered: status, headers, and the body cut at the limit on a character boundary or before.
      expect(failed!.status).toBe(500);
      expect(failed!.manual).toBe(false);
      expect(failed!.response!.headers['x-receiver']).toBe('scripted');
      expect(failed!.response!.truncated).toBe(true);
      expect(long.startsWith(failed!.response!.body.replace(/\uFFFD$/, ''))).toBe(true);
      expect(new TextEncoder().encode(failed!.response!.body.replace(/\uFFFD$/, '')).length).toBeLessThanOrEqual(RESPONSE_BODY_LIMIT);
      expect(failed!.duration_ms).toBeGreaterThanOrEqual(50);
      // The retry it scheduled, 10 s of clock time after it was sent.
      expect(Date.parse(failed!.next_attempt_at!) - Date.parse(failed!.at)).toBe(10_000);
      expect(first.next_attempt_at).toBe(failed!.next_attempt_at);

      await control.clock.advance(10);
      const done = await control.webhooks.get(queued.id);
      expect(done.state).toBe('delivered');
      const second = done.attempts[1]!;
      expect(second).toMatchObject({ status: 200, manual: false, next_attempt_at: null, response: { body: '{"received":true}', truncated: false } });
      expect(Number(second.request.headers['X-Webhook-Timestamp']) - Number(failed!.request.headers['X-Webhook-Timestamp'])).toBe(10);
      expect(second.request.headers['X-Webhook-Signature']).toBe(hmacHex(merchant.webhook!.secret, second.request.body));
      expect(done.next_attempt_at).toBeNull();

      // The in-process control gives the same record.
      expect(JSON.parse(JSON.stringify(env.backend.control.webhooks.get(queued.id)))).toEqual(done);
      expect((await control.webhooks.list({ merchantId: merchant.id })).map((d) => d.id)).toEqual([queued.id]);
    } finally {
      await receiver.close();
    }
  });

  it('records a refused connection as an error with no answer', async () => {
    const receiver = await startScriptedReceiver([]);
    await receiver.close();
    const merchant = await control.fixtures.merchant({ webhook_url: receiver.url });
    const queued = enqueueDelivery(env.backend.context, { kind: 'order', event: 'order.failed', merchantId: merchant.id, url: receiver.url, payload: {} });
    await control.webhooks.settle();
    const [refused] = (await control.webhooks.get(queued.id)).attempts;
    expect(refused).toMatchObject({ error: 'ECONNREFUSED', next_attempt_at: expect.any(String) });
    expect(refused!.status).toBeUndefined();
    expect(refused!.response).toBeUndefined();
  });

  it('answers 404 NOT_FOUND for an unknown delivery', async () => {
    await expect(control.webhooks.get('whd_missing')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(() => env.backend.control.webhooks.get('whd_missing')).toThrow(expect.objectContaining({ status: 404 }));
  });
});

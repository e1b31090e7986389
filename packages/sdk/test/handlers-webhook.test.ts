/**
 * createWebhookHandler with deliveries signed independently (node:crypto HMACs, as the service
 * signs): what it answers for each outcome, that onEvent runs once per event, and that a
 * failed onEvent is run again by the retry. The adapters' tests take real deliveries from the mock.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { toExpress } from '../src/handlers/adapters/express.js';
import { createWebhookHandler, DedupeLeaseError, MemoryDedupeStore, type DedupeStore } from '../src/handlers/index.js';
import type { CheckoutWebhookEvent, WebhookEvent } from '../src/webhooks/index.js';
import { SqliteDedupeStore } from '../src/webhooks/sqlite.js';

const SECRET = 'whsec_0123456789abcdef0123456789abcdef';
const URL_ = 'https://shop.example/webhooks';
const hmac = (secret: string, content: string) => createHmac('sha256', secret).update(content).digest('hex');
const now = () => Math.floor(Date.now() / 1000);

let n = 0;
const orderEvent = (event = 'order.completed') => ({
  event,
  order_id: `ord_${++n}`,
  type: 'onramp',
  fiat_amount: '150.00',
  fiat_currency: 'GHS',
  crypto_amount: '9.80',
  crypto_currency: 'USDC',
  destination_address: null,
  timestamp: new Date().toISOString(),
});

/** An order webhook as the mock signs it: hex HMAC of the raw body. */
function orderDelivery(payload: object, secret = SECRET, body = JSON.stringify(payload)) {
  return new Request(URL_, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-signature': hmac(secret, body), 'x-webhook-timestamp': String(now()) },
    body,
  });
}

function checkoutDelivery(payload: { id: string; type: string }, secret = SECRET, headers: Record<string, string> = {}) {
  const body = JSON.stringify(payload);
  const ts = now();
  return new Request(URL_, {
    method: 'POST',
    headers: {
      'x-svc-signature': `v1=${hmac(secret, `${ts}.${body}`)}`,
      'x-svc-timestamp': String(ts),
      'x-svc-event-id': payload.id,
      'x-svc-event-type': payload.type,
      ...headers,
    },
    body,
  });
}

const read = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });

describe('createWebhookHandler', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sikaramp-handlers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers 200 after onEvent ran, and 200 duplicate without running it again', async () => {
    const seen: WebhookEvent[] = [];
    const handle = createWebhookHandler({ secret: SECRET, store: new MemoryDedupeStore(), onEvent: (e) => void seen.push(e) });
    const payload = orderEvent();
    expect(await read(await handle(orderDelivery(payload)))).toEqual({ status: 200, body: { received: true } });
    expect(await read(await handle(orderDelivery(payload)))).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(seen).toEqual([payload]);
  });

  it('answers 500 when onEvent throws and releases the key, so that the retry runs it', async () => {
    let calls = 0;
    const reported: unknown[] = [];
    const handle = createWebhookHandler({
      secret: SECRET,
      store: new MemoryDedupeStore(),
      onEvent: () => {
        if (++calls === 1) throw new Error(`database down (${SECRET})`);
      },
      onError: (e) => reported.push(e),
    });
    const payload = orderEvent('order.failed');
    const failed = await handle(orderDelivery(payload));
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain(SECRET);
    expect(reported).toHaveLength(1);
    expect((await handle(orderDelivery(payload))).status).toBe(200);
    expect(calls).toBe(2);
  });

  it('answers 409 to a delivery of an event still being handled, then handles nothing twice', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const handle = createWebhookHandler({ secret: SECRET, store: new MemoryDedupeStore(), onEvent: () => (calls++, gate) });
    const payload = orderEvent();
    const first = handle(orderDelivery(payload));
    await new Promise((r) => setTimeout(r, 10));
    const second = await read(await handle(orderDelivery(payload)));
    expect(second).toMatchObject({ status: 409, body: { error: { code: 'in_flight' } } });
    release();
    expect((await first).status).toBe(200);
    expect((await handle(orderDelivery(payload))).status).toBe(200);
    expect(calls).toBe(1);
  });

  it('answers 409 over HTTP to a redelivery that comes after the lease of a slow onEvent, which runs once', async () => {
    const db = new DatabaseSync(join(dir, 'slow.db'));
    const ran: string[] = [];
    const errors: unknown[] = [];
    const handle = createWebhookHandler({
      secret: SECRET,
      store: new SqliteDedupeStore(db),
      leaseSeconds: 1,
      // A fulfilment slower than the lease: the lease is renewed while it runs.
      onEvent: async (event) => {
        ran.push(event.event);
        await new Promise((r) => setTimeout(r, 1_600));
      },
      onError: (e) => void errors.push(e),
    });
    const serve = toExpress(handle);
    const server = createServer((req, res) => serve(req, res, () => res.destroy()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    const body = JSON.stringify(orderEvent());
    const deliver = () =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': hmac(SECRET, body), 'x-webhook-timestamp': String(now()) }, body });
    try {
      const first = deliver();
      await new Promise((r) => setTimeout(r, 1_300));
      expect(await read(await deliver())).toMatchObject({ status: 409, body: { error: { code: 'in_flight' } } });
      expect(await read(await first)).toEqual({ status: 200, body: { received: true } });
      expect(await read(await deliver())).toEqual({ status: 200, body: { received: true, duplicate: true } });
      expect(ran).toEqual(['order.completed']);
      expect(errors).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      db.close();
    }
  });

  it('reports to onError, with its request, an onEvent whose lease was lost while it ran', async () => {
    let clock = 0;
    const reported: [unknown, Request][] = [];
    let finish!: () => void;
    const handle = createWebhookHandler({
      secret: SECRET,
      store: new MemoryDedupeStore({ now: () => clock }),
      leaseSeconds: 1,
      onEvent: () => new Promise<void>((resolve) => (finish = resolve)),
      onError: (e, request) => void reported.push([e, request]),
    });
    const payload = orderEvent();
    const stalled = orderDelivery(payload);
    const first = handle(stalled);
    await new Promise((r) => setTimeout(r, 10));
    const finishFirst = finish;
    clock += 2_000; // the process stalled past the lease: the retry claims the event again
    const second = handle(orderDelivery(payload));
    await new Promise((r) => setTimeout(r, 500));
    expect(reported).toEqual([[expect.objectContaining({ name: 'DedupeLeaseError', reason: 'lost' }), stalled]]);
    // Told apart from other failures with the class the handlers entry exports.
    expect(reported[0]![0]).toBeInstanceOf(DedupeLeaseError);
    finishFirst();
    finish();
    expect([(await first).status, (await second).status]).toEqual([200, 200]);
  });

  it('answers 400 for a wrong secret or a re-serialised body, runs nothing, and claims no key', async () => {
    const seen: unknown[] = [];
    const handle = createWebhookHandler({ secret: SECRET, store: new MemoryDedupeStore(), onEvent: (e) => void seen.push(e) });
    const payload = orderEvent();
    const wrong = await read(await handle(orderDelivery(payload, 'whsec_someone_else')));
    expect(wrong).toMatchObject({ status: 400, body: { error: { code: 'invalid_webhook', reason: 'no_matching_signature' } } });
    // Signed over the bytes the service sent, then parsed and written again with other spacing.
    const raw = JSON.stringify(payload, null, 2);
    const signed = orderDelivery(payload, SECRET, raw);
    const reserialised = new Request(signed, { body: JSON.stringify(JSON.parse(raw)) });
    const refused = await read(await handle(reserialised));
    expect(refused).toMatchObject({ status: 400, body: { error: { reason: 'no_matching_signature', message: expect.stringContaining('raw request body') } } });
    expect(seen).toEqual([]);
    expect((await handle(orderDelivery(payload, SECRET, raw))).status).toBe(200);
    expect(seen).toEqual([payload]);
  });

  it('tells onRefused of each refusal and onDuplicate of each redelivery; a failing onRefused changes no answer', async () => {
    const calls: string[] = [];
    const reported: unknown[] = [];
    const handle = createWebhookHandler({
      secret: SECRET,
      store: new MemoryDedupeStore(),
      onEvent: (e) => void calls.push(`event ${e.event}`),
      onDuplicate: (e) => void calls.push(`duplicate ${e.event}`),
      onRefused: (error) => {
        calls.push(`refused ${error.reason}`);
        throw new Error('log sink down');
      },
      onError: (e) => reported.push(e),
    });
    const payload = orderEvent('order.expired');
    expect((await handle(orderDelivery(payload, 'whsec_forged'))).status).toBe(400);
    expect((await handle(orderDelivery(payload))).status).toBe(200);
    expect(await read(await handle(orderDelivery(payload)))).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(calls).toEqual(['refused no_matching_signature', 'event order.expired', 'duplicate order.expired']);
    expect(reported).toEqual([new Error('log sink down')]);
  });

  it('accepts the old secret during a rotation with `secrets`', async () => {
    const handle = createWebhookHandler({ secrets: ['whsec_new', SECRET], store: new MemoryDedupeStore(), onEvent: () => {} });
    expect((await handle(orderDelivery(orderEvent(), SECRET))).status).toBe(200);
    expect((await handle(orderDelivery(orderEvent(), 'whsec_new'))).status).toBe(200);
  });

  it('answers 405 with Allow for another method, 413 for a body too large', async () => {
    const handle = createWebhookHandler({ secret: SECRET, store: new MemoryDedupeStore(), onEvent: () => {}, maxBodyBytes: 100 });
    const get = await handle(new Request(URL_));
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await handle(orderDelivery(orderEvent()))).status).toBe(413);
  });

  it('answers 413 to a streamed body with no length after reading just past maxBodyBytes, not the whole of it', async () => {
    const handle = createWebhookHandler({ secret: SECRET, store: new MemoryDedupeStore(), onEvent: () => {}, maxBodyBytes: 1024 });
    // 64 MiB offered in 64 KiB chunks, as Hono, Next.js, Bun or Workers hand over a chunked upload.
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 64 * 1024 * 1024) return controller.close();
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const res = await handle(new Request(URL_, { method: 'POST', body, duplex: 'half' } as RequestInit));
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(2 * 64 * 1024);
  });

  it('refuses 400 a captured order delivery replayed, with a fresh timestamp header, once its key has expired', async () => {
    const DAY = 86_400_000;
    let clock = Date.now();
    const now = () => clock;
    const handled: string[] = [];
    const refused: string[] = [];
    const handle = createWebhookHandler({
      secret: SECRET,
      store: new MemoryDedupeStore({ now }),
      now,
      onEvent: (event) => void handled.push(event.event),
      onRefused: (error) => void refused.push(error.reason),
    });
    // The signature covers the body only: a replay keeps the body and sends a fresh timestamp header.
    const body = JSON.stringify(orderEvent());
    const deliver = () =>
      handle(new Request(URL_, { method: 'POST', headers: { 'x-webhook-signature': hmac(SECRET, body), 'x-webhook-timestamp': String(Math.floor(clock / 1000)) }, body }));
    expect((await deliver()).status).toBe(200);
    clock += 6 * DAY;
    expect(await (await deliver()).json()).toEqual({ received: true, duplicate: true });
    clock += 2 * DAY; // the handled key (7 days) is gone
    const replay = await deliver();
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: { code: 'invalid_webhook', reason: 'timestamp_too_old' } });
    expect(handled).toEqual(['order.completed']);
    expect(refused).toEqual(['timestamp_too_old']);
  });

  it('answers 500 when the store fails, without running onEvent', async () => {
    const broken: DedupeStore = {
      claim: async () => {
        throw new Error('redis: connection refused');
      },
      release: async () => {},
    };
    let calls = 0;
    const handle = createWebhookHandler({ secret: SECRET, store: broken, onEvent: () => void calls++, onError: () => {} });
    const res = await handle(orderDelivery(orderEvent()));
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('redis');
    expect(calls).toBe(0);
  });

  it('refuses to start without a secret', () => {
    for (const secret of [undefined, '']) {
      expect(() => createWebhookHandler({ secret, store: new MemoryDedupeStore(), onEvent: () => {} })).toThrow(TypeError);
    }
    expect(() => createWebhookHandler({ secrets: [], store: new MemoryDedupeStore(), onEvent: () => {} })).toThrow(/secret/);
  });

  it('keeps handled events across a restart with SqliteDedupeStore', async () => {
    const file = join(dir, 'events.db');
    let calls = 0;
    const start = () => createWebhookHandler({ secret: SECRET, store: new SqliteDedupeStore(new DatabaseSync(file)), onEvent: () => void calls++ });
    const payload = orderEvent();
    expect((await start()(orderDelivery(payload))).status).toBe(200);
    expect(await read(await start()(orderDelivery(payload)))).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(calls).toBe(1);
  });

  describe("kind: 'checkout'", () => {
    const payment = (id: string) => ({ id, type: 'payment.succeeded', created_at: '2026-11-24T12:00:00Z', data: { reference: 'ref_1', session_id: 'cs_1', status: 'completed' } });

    it('verifies X-Svc-Signature and de-duplicates by event id', async () => {
      const seen: CheckoutWebhookEvent[] = [];
      const handle = createWebhookHandler({ kind: 'checkout', secret: SECRET, store: new MemoryDedupeStore(), onEvent: (e) => void seen.push(e) });
      expect((await handle(checkoutDelivery(payment('evt_1')))).status).toBe(200);
      expect(await read(await handle(checkoutDelivery(payment('evt_1'))))).toMatchObject({ body: { duplicate: true } });
      expect(seen.map((e) => e.id)).toEqual(['evt_1']);
    });

    it('answers 400 to an event id header that the signed body contradicts', async () => {
      const handle = createWebhookHandler({ kind: 'checkout', secret: SECRET, store: new MemoryDedupeStore(), onEvent: () => {} });
      const res = await read(await handle(checkoutDelivery(payment('evt_2'), SECRET, { 'x-svc-event-id': 'evt_other' })));
      expect(res).toMatchObject({ status: 400, body: { error: { reason: 'header_mismatch' } } });
    });

    it('refuses an order webhook, signed the other way', async () => {
      const handle = createWebhookHandler({ kind: 'checkout', secret: SECRET, store: new MemoryDedupeStore(), onEvent: () => {} });
      expect((await handle(orderDelivery(orderEvent()))).status).toBe(400);
    });
  });

  it('answers 400 to any unsigned or tampered delivery, runs nothing, and never shows the secret (property)', async () => {
    let calls = 0;
    const secret = fc.stringMatching(/^[\w-]{8,40}$/);
    const tamper = fc.oneof(
      // random bytes and headers
      fc.record({
        body: fc.oneof(fc.string(), fc.json()),
        signature: fc.oneof(fc.stringMatching(/^[ -~]{0,80}$/), fc.stringMatching(/^[0-9a-f]{64}$/), fc.base64String()),
        timestamp: fc.oneof(fc.stringMatching(/^[ -~]{0,20}$/), fc.integer({ min: now() - 200, max: now() + 200 }).map(String)),
      }),
      // a real delivery with one byte of the body changed
      fc.record({ index: fc.nat(), by: fc.integer({ min: 1, max: 255 }) }).map(({ index, by }) => {
        const body = JSON.stringify(orderEvent());
        const bytes = new TextEncoder().encode(body);
        bytes[index % bytes.length] = (bytes[index % bytes.length]! + by) % 256;
        return { body: new TextDecoder('latin1').decode(bytes), signature: hmac(SECRET, body), timestamp: String(now()) };
      }),
    );
    await fc.assert(
      fc.asyncProperty(secret, tamper, fc.constantFrom<'order' | 'checkout'>('order', 'checkout'), async (key, { body, signature, timestamp }, kind) => {
        const handle = createWebhookHandler({ kind, secret: [key, SECRET][n++ % 2]!, store: new MemoryDedupeStore(), onEvent: () => void calls++ });
        const headers: Record<string, string> = kind === 'order'
          ? { 'x-webhook-signature': signature, 'x-webhook-timestamp': timestamp }
          : { 'x-svc-signature': `v1=${signature}`, 'x-svc-timestamp': timestamp, 'x-svc-event-id': 'evt', 'x-svc-event-type': 'payment.succeeded' };
        const res = await handle(new Request(URL_, { method: 'POST', headers, body }));
        expect(res.status).toBe(400);
        const text = await res.text();
        expect(text).not.toContain(SECRET);
        if (key.length > 12) expect(text).not.toContain(key);
      }),
      { numRuns: 200 },
    );
    expect(calls).toBe(0);
  });
});

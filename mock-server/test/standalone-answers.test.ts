/**
 * The standalone server answers the handlers `route()` made without building a fetch Request
 * or Response (src/http/node-request.ts, DirectAnswer). These send the same requests over
 * HTTP to a standalone server and, through msw's own getResponse, to a twin backend with the
 * same seed and clock, and expect the same statuses, headers and bodies, byte for byte.
 */
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockBackend, type MockBackend } from '../src/backend.js';
import { startMockServer, type MockServer } from '../src/server.js';
import { paymentBody, PAYMENTS } from './helpers/checkout.js';

/** Headers node:http adds to every answer on the wire, which a Response in hand has not. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

const answerOf = async (res: Response, key: string): Promise<Answer> => ({
  status: res.status,
  headers: [...res.headers].filter(([name]) => !TRANSPORT.has(name)),
  // The checkout key is the one thing each side draws from its own CSPRNG.
  body: Buffer.from(await res.arrayBuffer()).toString('latin1').replaceAll(key, '<key>'),
});

describe('the standalone server answers as msw does over the same handlers', () => {
  let server: MockServer;
  let twin: MockBackend;
  const keys = { wire: '', twin: '' };

  const onWire = async (sent: Sent) => {
    const headers = JSON.parse(JSON.stringify(sent.headers ?? {}).replaceAll('<key>', keys.wire));
    return answerOf(await fetch(`${server.url}${sent.path}`, { method: sent.method, headers, body: sent.body }), keys.wire);
  };
  const inTwin = async (sent: Sent) => {
    const headers = JSON.parse(JSON.stringify(sent.headers ?? {}).replaceAll('<key>', keys.twin));
    const request = new Request(`${server.url}${sent.path}`, { method: sent.method, headers, body: sent.body });
    const res = await getResponse(twin.handlers, request);
    if (!res) throw new Error(`msw left ${sent.method} ${sent.path} unanswered`);
    return answerOf(res, keys.twin);
  };
  /** Sends to both and expects the same answer; returns the wire's body, parsed. */
  const both = async (sent: Sent) => {
    const [wire, local] = [await onWire(sent), await inTwin(sent)];
    expect(wire, `${sent.method} ${sent.path}`).toEqual(local);
    return { status: wire.status, body: JSON.parse(Buffer.from(wire.body, 'latin1').toString('utf8')) };
  };

  beforeAll(async () => {
    server = await startMockServer({ port: 0, clock: 'manual', seed: 41 });
    twin = createMockBackend({ origin: server.url, clock: 'manual', seed: 41 });
    const created = await fetch(`${server.url}/_mock/checkout/keys`, { method: 'POST', body: '{}' });
    keys.wire = ((await created.json()) as { key: string }).key;
    const local = await getResponse(twin.handlers, new Request(`${server.url}/_mock/checkout/keys`, { method: 'POST', body: '{}' }));
    keys.twin = ((await local!.json()) as { key: string }).key;
  });
  afterAll(() => server.close());

  const json = { 'content-type': 'application/json', authorization: 'Bearer <key>' };
  const post = (body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = json): Sent => ({ method: 'POST', path: PAYMENTS, headers, body });

  it('creates and verifies a payment, with text outside ASCII in and out', async () => {
    const name = 'Ɔkyeame Ama 😀';
    const created = await both(post(JSON.stringify(paymentBody({ recipient: { name, email: 'ama@example.com' }, meta: { note: 'café' } }))));
    expect(created.status).toBe(201);
    const { reference, session_id } = created.body.data;
    const verified = await both({ method: 'GET', path: `${PAYMENTS}/${session_id}` });
    expect(verified.body.data.meta.note).toBe('café');
    expect((await both({ method: 'GET', path: `${PAYMENTS}/${reference}` })).body.data.id).toBe(session_id);
  });

  it('decodes a body as Request.text() does: a leading BOM dropped, bad bytes replaced', async () => {
    const text = JSON.stringify(paymentBody({ meta: { raw: 'X' } }));
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(text)]);
    expect((await both(post(bom))).status).toBe(201);
    const bad = Buffer.from(text);
    bad[bad.indexOf('"X"') + 1] = 0xff;
    const created = await both(post(new Uint8Array(bad)));
    expect(created.status).toBe(201);
    const verified = await both({ method: 'GET', path: `${PAYMENTS}/${created.body.data.session_id}` });
    expect(verified.body.data.meta.raw).toBe('\ufffd');
  });

  it('answers the same errors: body, credentials, validation, an empty or unknown reference', async () => {
    const answers = [
      await both(post('{not json')),
      await both(post('')),
      await both(post(JSON.stringify(paymentBody()), { 'content-type': 'application/json' })),
      await both(post(JSON.stringify(paymentBody()), { ...json, authorization: 'Bearer sika_checkout_nope' })),
      await both(post(JSON.stringify(paymentBody({ amount: 0 })))),
      await both({ method: 'GET', path: `${PAYMENTS}/` }),
      await both({ method: 'GET', path: `${PAYMENTS}/cs_unknown` }),
      await both({ method: 'GET', path: '/api/v1/widget/config' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([400, 400, 401, 401, 502, 400, 404, 401]);
  });

  it('answers an Idempotency-Key as msw does: the first, the replay with its header, a conflict, an empty key', async () => {
    const body = JSON.stringify(paymentBody());
    const headers = { ...json, 'idempotency-key': 'order-77' };
    const first = await both(post(body, headers));
    const replay = await onWire(post(body, headers));
    expect(replay.headers).toContainEqual(['idempotent-replayed', 'true']);
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.body)).toEqual(first.body);
    await inTwin(post(body, headers));
    expect((await both(post(JSON.stringify(paymentBody({ amount: 5 })), headers))).status).toBe(409);
    expect((await both(post(body, { ...json, 'idempotency-key': ' ' }))).status).toBe(400);
  });
});

describe('a direct answer to a browser', () => {
  it('carries the CORS headers of an allowed origin', async () => {
    const server = await startMockServer({ port: 0, clock: 'manual', corsOrigins: ['http://shop.localhost:3000'] });
    try {
      const res = await fetch(`${server.url}${PAYMENTS}/cs_unknown`, { headers: { origin: 'http://shop.localhost:3000' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBe('http://shop.localhost:3000');
      expect(res.headers.get('vary')).toBe('Origin');
      expect(res.headers.get('content-type')).toBe('application/json');
    } finally {
      await server.close();
    }
  });
});

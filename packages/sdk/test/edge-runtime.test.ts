/**
 * The SDK on an edge-like runtime (workerd, Vercel Edge, Deno without Node's globals): bundled
 * alone for the browser conditions and run in a bare V8 context that has the Web standard
 * globals (fetch and its classes, streams, timers, Web Crypto) and no Buffer, process or require.
 * Its calls go through that context's fetch to a real server on 127.0.0.1.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const session = { id: 'cs_edge', reference: 'PAY-20261125-EDGE', status: 'completed', amount: 5000, final_amount: 5000, currency: 'GHS', meta: { order_id: '7' } };

let server: Server;
let origin: string;
let context: vm.Context;
beforeAll(async () => {
  // The answer in three writes, a little apart: the client's stream gives it as several chunks.
  server = createServer((req, res) => {
    const text = JSON.stringify({ success: true, data: { ...session, note: 'x'.repeat(64 * 1024) } });
    const third = Math.ceil(text.length / 3);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(text.slice(0, third));
    setTimeout(() => res.write(text.slice(third, 2 * third)), 5);
    setTimeout(() => res.end(text.slice(2 * third)), 10);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const bundle = await build({ absWorkingDir: root, entryPoints: ['src/index.ts'], bundle: true, write: false, format: 'iife', globalName: 'sikaramp', platform: 'browser', logLevel: 'silent' });
  const { fetch, Headers, Request, Response, AbortController, AbortSignal, ReadableStream, URL, URLSearchParams, TextEncoder, TextDecoder, crypto, atob, btoa, DOMException, Event, EventTarget, performance, structuredClone, queueMicrotask } = globalThis;
  context = vm.createContext({
    fetch, Headers, Request, Response, AbortController, AbortSignal, ReadableStream, URL, URLSearchParams, TextEncoder, TextDecoder, crypto, atob, btoa,
    DOMException, Event, EventTarget, performance, structuredClone, queueMicrotask, setTimeout, clearTimeout, console,
  });
  vm.runInContext(bundle.outputFiles[0]!.text, context);
  const handlers = await build({ absWorkingDir: root, entryPoints: ['src/handlers/index.ts'], bundle: true, write: false, format: 'iife', globalName: 'sikarampHandlers', platform: 'browser', logLevel: 'silent' });
  vm.runInContext(handlers.outputFiles[0]!.text, context);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('@sikaramp/sdk on an edge runtime', () => {
  it('reads an answer that arrives in several chunks, with no Buffer in the runtime', async () => {
    expect(vm.runInContext('typeof Buffer + typeof process + typeof require', context)).toBe('undefinedundefinedundefined');
    context.origin = origin;
    const result = await vm.runInContext(`new sikaramp.CheckoutClient({ baseUrl: origin, apiKey: 'sika_checkout_edge' }).payments.verify('cs_edge').then((r) => ({ outcome: r.outcome, id: r.session.id, note: r.session.note.length }))`, context);
    expect(result).toEqual({ outcome: 'paid', id: 'cs_edge', note: 64 * 1024 });
  });

  it('runs the webhook handler on a body streamed in several chunks', async () => {
    const secret = 'whsec_edge';
    const body = JSON.stringify({ event: 'order.completed', order_id: 'ord_edge', type: 'onramp', fiat_amount: '150.00', fiat_currency: 'GHS', crypto_amount: '9.5', crypto_currency: 'USDC', destination_address: null, timestamp: new Date().toISOString(), pad: 'y'.repeat(1000) });
    context.delivery = { body, secret, signature: createHmac('sha256', secret).update(body).digest('hex'), timestamp: String(Math.floor(Date.now() / 1000)) };
    const answer = await vm.runInContext(
      `(async () => {
        const seen = [];
        const handle = sikarampHandlers.createWebhookHandler({ secret: delivery.secret, store: new sikarampHandlers.MemoryDedupeStore(), onEvent: (event) => seen.push(event.order_id) });
        const bytes = new TextEncoder().encode(delivery.body);
        const stream = new ReadableStream({ start(c) { c.enqueue(bytes.slice(0, 400)); c.enqueue(bytes.slice(400)); c.close(); } });
        const headers = { 'x-webhook-signature': delivery.signature, 'x-webhook-timestamp': delivery.timestamp };
        const response = await handle(new Request('http://127.0.0.1/webhooks', { method: 'POST', headers, body: stream, duplex: 'half' }));
        return { status: response.status, seen };
      })()`,
      context,
    );
    expect(answer).toEqual({ status: 200, seen: ['ord_edge'] });
  });
});

/**
 * A slowloris on the handlers: a client that sends its headers, then its body one byte at a
 * time, through Express over real HTTP (the adapter hands the unread body over as a stream).
 * Each handler answers 408 once `bodyTimeoutMs` has passed, asks the service nothing, and the
 * connection is closed rather than left waiting for the rest.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WidgetClient } from '../src/clients/widget.js';
import { toExpress } from '../src/handlers/adapters/express.js';
import { createRampHandlers, createWebhookHandler, MemoryDedupeStore } from '../src/handlers/index.js';
import { customerInput, newWidget, recordingFetch } from './helpers/clients.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';

/** Sends the headers of a 100-byte body, then one byte every 50 ms; resolves with the answer's status, when it came, and whether the server closed. */
async function trickle(port: number, path: string, headers: Record<string, string>) {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  const started = Date.now();
  const lines = Object.entries({ host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': '100', ...headers });
  socket.write(`POST ${path} HTTP/1.1\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`);
  let answer = '';
  socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
  const closed = new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));
  for (let i = 0; i < 60 && !answer; i++) {
    socket.write('{');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const after = Date.now() - started;
  const wasClosed = await Promise.race([closed, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000))]);
  socket.destroy();
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), after, closed: wasClosed, body: answer.slice(answer.indexOf('\r\n\r\n') + 4) };
}

describe('handlers against a body that trickles in (Express, 127.0.0.1)', () => {
  let env: MockEnv;
  let port: number;
  let close: () => void;
  let sent: string[];
  const events: string[] = [];

  beforeAll(async () => {
    env = await startStandalone({ seed: 43 });
    const shop = await newWidget(env);
    const ama = (await shop.widget.customers.create(customerInput())).id;
    const recorded = recordingFetch();
    sent = recorded.sent;
    const widget = new WidgetClient({ baseUrl: env.origin, secretKey: shop.secretKey, fetch: recorded.fetch });
    const ramp = createRampHandlers({ widget, authorize: () => ama, bodyTimeoutMs: 500 });
    const webhook = createWebhookHandler({ secret: 'whsec_slow', store: new MemoryDedupeStore(), bodyTimeoutMs: 500, onEvent: (e) => void events.push(e.event) });
    const app = express();
    app.post('/api/ramp/session', toExpress(ramp.session));
    app.post('/webhooks', toExpress(webhook));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
    close = () => (server.closeAllConnections(), server.close());
  });
  afterAll(async () => {
    close?.();
    await env?.close();
  });

  it('answers 408 to session-url after bodyTimeoutMs, sends nothing to the service, and closes the connection', async () => {
    const before = sent.length;
    const res = await trickle(port, '/api/ramp/session', { cookie: 'sid=ama' });
    expect(res.status).toBe(408);
    expect(res.body).toContain(JSON.stringify({ error: { code: 'body_timeout', message: 'The body must arrive within 500 ms.' } }));
    expect(res.after).toBeGreaterThanOrEqual(450);
    expect(res.after).toBeLessThan(2500);
    expect(res.closed).toBe(true);
    expect(sent.length).toBe(before);
  });

  it('answers 408 to the webhook after bodyTimeoutMs, so that the service retries, and runs nothing', async () => {
    const res = await trickle(port, '/webhooks', { 'x-webhook-signature': 'a'.repeat(64), 'x-webhook-timestamp': String(Math.floor(Date.now() / 1000)) });
    expect([res.status, res.closed]).toEqual([408, true]);
    expect(events).toEqual([]);
  });

  it('refuses a bodyTimeoutMs that is not a positive number of ms', () => {
    const widget = new WidgetClient({ baseUrl: env.origin, secretKey: 'xx_secret_0' });
    for (const bodyTimeoutMs of [0, -1, Number.NaN, 2 ** 31]) {
      expect(() => createRampHandlers({ widget, authorize: () => null, bodyTimeoutMs })).toThrow(RangeError);
      expect(() => createWebhookHandler({ secret: 's', store: new MemoryDedupeStore(), onEvent: () => {}, bodyTimeoutMs })).toThrow(RangeError);
    }
  });
});

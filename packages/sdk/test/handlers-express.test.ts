/** toExpress with Express 5 over real HTTP: the raw body from `express.raw`, and the mistake of `express.json()` in front. */
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { toExpress } from '../src/handlers/adapters/express.js';
import { createWebhookHandler, MemoryDedupeStore } from '../src/handlers/index.js';
import { adapterSuite } from './helpers/handlers.js';

adapterSuite('Express', async ({ ramp, webhook }) => {
  const app = express();
  app.all('/api/ramp/session', toExpress(ramp.session));
  app.get('/api/ramp/status', toExpress(ramp.status));
  app.post('/webhooks', express.raw({ type: '*/*' }), toExpress(webhook));
  app.post('/webhooks-parsed', express.json(), toExpress(webhook));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
});

describe('toExpress behind a global express.json() that keeps the raw bytes (`verify`)', () => {
  it('verifies the webhook from req.rawBody, while req.body is the parsed object', async () => {
    const secret = 'whsec_express_verify';
    const seen: string[] = [];
    const app = express();
    app.use(express.json({ verify: (req, _res, buf) => void ((req as { rawBody?: Buffer }).rawBody = buf) }));
    app.post('/webhooks', toExpress(createWebhookHandler({ secret, store: new MemoryDedupeStore(), onEvent: (e) => void seen.push(e.event) })));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const body = JSON.stringify({ event: 'order.expired', order_id: 'ord_verify' }, null, 2);
      const headers = {
        'content-type': 'application/json',
        'x-webhook-signature': createHmac('sha256', secret).update(body).digest('hex'),
        'x-webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      };
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, { method: 'POST', headers, body });
      expect([res.status, await res.json()]).toEqual([200, { received: true }]);
      expect(seen).toEqual(['order.expired']);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

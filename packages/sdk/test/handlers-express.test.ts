/** toExpress with Express 5 over real HTTP: the raw body from `express.raw`, and the mistake of `express.json()` in front. */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { toExpress } from '../src/handlers/adapters/express.js';
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

/**
 * toHono with Hono, served over real HTTP by Node's server through `app.fetch` (what
 * @hono/node-server does). A middleware that read the body as JSON first does no harm (Hono keeps its text);
 * handing the handler a request rebuilt from the parsed JSON is the mistake, refused with 400.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { toHono } from '../src/handlers/adapters/hono.js';
import { sendWebResponse, toWebRequest } from '../src/handlers/adapters/node.js';
import { adapterSuite } from './helpers/handlers.js';

adapterSuite('Hono', async ({ ramp, webhook }) => {
  const app = new Hono();
  app.all('/api/ramp/session', toHono(ramp.session));
  app.get('/api/ramp/status', toHono(ramp.status));
  // A logging middleware that parses the body first: the adapter still gets the bytes.
  app.use('/webhooks', async (c, next) => {
    await c.req.json().catch(() => undefined);
    await next();
  });
  app.post('/webhooks', toHono(webhook));
  app.post('/webhooks-parsed', async (c) => webhook(new Request(c.req.url, { method: 'POST', headers: c.req.raw.headers, body: JSON.stringify(await c.req.json()) })));
  const server = createServer((req, res) => {
    toWebRequest(req, req.url ?? '/', undefined)
      .then((request) => app.fetch(request))
      .then((response) => sendWebResponse(response, res))
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
});

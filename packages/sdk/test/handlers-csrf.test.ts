/**
 * Cross-site request forgery on `session-url` when the shop signs its customers in by cookie,
 * through Express over real HTTP with the body parsers most shops mount globally. A page on
 * another site can make the browser send the cookie with an HTML form (urlencoded or
 * text/plain): neither needs a CORS preflight. Only `application/json` does, so the handler
 * takes nothing else, and starts nothing at the service for the forged request.
 */
import type { AddressInfo } from 'node:net';
import { Keypair } from '@stellar/stellar-sdk';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient } from '../src/anchor/index.js';
import { WidgetClient } from '../src/clients/widget.js';
import { toExpress } from '../src/handlers/adapters/express.js';
import { createRampHandlers } from '../src/handlers/index.js';
import { customerInput, newWidget, recordingFetch } from './helpers/clients.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';

describe('session-url against a forged cross-site form, Express with global body parsers (127.0.0.1)', () => {
  let env: MockEnv;
  let url: string;
  let close: () => void;
  let sent: string[];

  beforeAll(async () => {
    env = await startStandalone({ seed: 41 });
    const shop = await newWidget(env);
    const ama = (await shop.widget.customers.create(customerInput())).id;
    const recorded = recordingFetch();
    sent = recorded.sent;
    const widget = new WidgetClient({ baseUrl: env.origin, secretKey: shop.secretKey, fetch: recorded.fetch });
    const anchor = new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer: Keypair.random(), fetch: recorded.fetch, now: () => env.backend.clock.now() });
    const ramp = createRampHandlers({ widget, anchor, publicKey: shop.publicKey, authorize: (req) => (req.headers.get('cookie') === 'sid=ama' ? ama : null) });
    const app = express();
    app.use(express.urlencoded({ extended: false }));
    app.use(express.json());
    app.use(express.text());
    app.post('/api/ramp/session', toExpress(ramp.session));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/ramp/session`;
    close = () => (server.closeAllConnections(), server.close());
  });
  afterAll(async () => {
    close?.();
    await env?.close();
  });

  /** What the browser sends for `<form method=post action=session-url enctype=…>` on another site, the victim's cookie attached. */
  const forged = (contentType: string, body: string) =>
    fetch(url, { method: 'POST', headers: { cookie: 'sid=ama', 'content-type': contentType, origin: 'https://evil.example' }, body });

  it('refuses an urlencoded form with 415 and sends nothing to the service', async () => {
    const before = sent.length;
    const res = await forged('application/x-www-form-urlencoded', 'flow=sell');
    expect([res.status, await res.json()]).toEqual([415, { error: { code: 'unsupported_media_type', message: 'The body must be JSON (content-type: application/json).' } }]);
    expect(sent.length).toBe(before);
  });

  it('refuses a text/plain form whose field name spells JSON, and a body with no content type', async () => {
    const before = sent.length;
    // <input name='{"flow":"sell","amount":5,"x":"' value='"}'> sends {"flow":"sell","amount":5,"x":"="}.
    expect((await forged('text/plain', '{"flow":"sell","amount":5,"x":"="}')).status).toBe(415);
    expect((await forged('multipart/form-data; boundary=x', '--x--')).status).toBe(415);
    const bare = await fetch(url, { method: 'POST', headers: { cookie: 'sid=ama' }, body: new Blob(['{"flow":"sell"}']) });
    expect(bare.status).toBe(415);
    expect(sent.length).toBe(before);
  });

  it('takes the widget’s own request: application/json, with or without a charset', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
      const res = await forged(type, JSON.stringify({ flow: 'sell', amount: 5 }));
      expect([type, res.status]).toEqual([type, 200]);
    }
  });
});

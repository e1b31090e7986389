/**
 * One suite for every framework adapter: the framework serves the drop-in handlers on
 * 127.0.0.1, the widget's calls go to it over real HTTP, and the standalone mock delivers real
 * webhooks to it. Each framework mounts the webhook twice: as its adapter documents (raw body)
 * and behind its JSON body parser (the mistake), which must be refused with 400.
 */
import { createHmac } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient } from '../../src/anchor/index.js';
import { createRampHandlers, createWebhookHandler, MemoryDedupeStore, type RampHandlers } from '../../src/handlers/index.js';
import type { WebhookEvent } from '../../src/webhooks/index.js';
import { customerInput, newWidget } from './clients.js';
import { flood } from './flood.js';
import { startStandalone, type MockEnv } from './mock.js';

export interface ServedHandlers {
  ramp: RampHandlers;
  webhook: (request: Request) => Promise<Response>;
}

/**
 * Starts the framework on 127.0.0.1 with POST /api/ramp/session, GET /api/ramp/status,
 * POST /webhooks (raw body, as documented) and POST /webhooks-parsed (a JSON body parser in front).
 */
export type StartFramework = (handlers: ServedHandlers) => Promise<{ url: string; close(): Promise<void> }>;

const PHONE = '+233201234567';

export function adapterSuite(framework: string, start: StartFramework) {
  describe(`the handlers in ${framework}, against the standalone mock`, () => {
    let env: MockEnv;
    let server: { url: string; close(): Promise<void> };
    let secret: string;
    const customers = new Map<string, string>();
    const events: WebhookEvent[] = [];
    const wallet = Keypair.random().publicKey();

    beforeAll(async () => {
      env = await startStandalone({ seed: 7 });
      const shop = await newWidget(env);
      customers.set('ama', (await shop.widget.customers.create(customerInput())).id);
      customers.set('kofi', (await shop.widget.customers.create(customerInput())).id);
      const now = () => env.backend.clock.now();
      const anchor = new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer: Keypair.random(), now });
      const ramp = createRampHandlers({
        widget: shop.widget,
        anchor,
        publicKey: shop.publicKey,
        authorize: (request) => customers.get(request.headers.get('cookie') ?? ''),
      });
      // Read lazily: the secret exists once the webhook URL is set, which needs the server's URL.
      const webhook = (request: Request) =>
        createWebhookHandler({ secret, store, now, onEvent: (event) => void events.push(event) })(request);
      const store = new MemoryDedupeStore();
      server = await start({ ramp, webhook });
      secret = (await shop.merchant.client.webhook.set({ url: `${server.url}/webhooks` })).secret!;
    });
    afterAll(async () => {
      await server?.close();
      await env?.close();
    });

    const session = (body: string, cookie = 'ama') =>
      fetch(`${server.url}/api/ramp/session`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body });
    const status = (id: string, cookie = 'ama') => fetch(`${server.url}/api/ramp/status?id=${encodeURIComponent(id)}`, { headers: { cookie } });
    const advance = async (seconds: number) => {
      await env.backend.clock.advance(seconds);
      await env.backend.control.webhooks.settle();
    };

    it('buys through session-url, reads the status only for its customer, and fulfils from the mock’s real webhook', async () => {
      const res = await session(JSON.stringify({ flow: 'buy', amount: 120, asset: 'USDC', destination: wallet, lang: 'en' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const { url, id } = (await res.json()) as { url: string; id: string };
      expect(url).toContain('/interactive?token=');
      expect(await (await status(id)).json()).toMatchObject({ transaction: { id, kind: 'deposit', status: 'incomplete' } });
      expect((await status(id, 'kofi')).status).toBe(404);

      await env.backend.control.anchor.completeInteractive(id, { provider: 'mtn', phone: PHONE });
      await env.backend.control.rails.approvePrompt(id);
      await advance(2);
      await advance(5);
      const orderId = env.backend.control.anchor.transaction(id).order_id;
      expect(events.filter((e) => 'order_id' in e && e.order_id === orderId)).toEqual([
        expect.objectContaining({ event: 'order.completed', fiat_amount: '120.00', destination_address: wallet }),
      ]);
      expect((await status(id)).status).toBe(200);
    });

    it('sells, and answers the wrong method, bad JSON and a stranger with JSON errors', async () => {
      expect((await session(JSON.stringify({ flow: 'sell', amount: 5 }))).status).toBe(200);
      const get = await fetch(`${server.url}/api/ramp/session`, { headers: { cookie: 'ama' } });
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
      const bad = await session('{"flow":');
      expect([bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([400, 'invalid_json']);
      expect((await session(JSON.stringify({ flow: 'sell' }), 'stranger')).status).toBe(401);
    });

    it('verifies the raw body, and refuses with 400 a body a JSON parser read and wrote again', async () => {
      const payload = {
        event: 'order.completed',
        order_id: `ord_${framework}_reserialised`,
        type: 'offramp',
        fiat_amount: '60.00',
        fiat_currency: 'GHS',
        crypto_amount: '5.00',
        crypto_currency: 'USDC',
        destination_address: null,
        timestamp: new Date(env.backend.clock.now()).toISOString(),
      };
      // The bytes the service sent (spaced), signed with the secret as the service signs them.
      const body = JSON.stringify(payload, null, 2);
      const headers = {
        'content-type': 'application/json',
        'x-webhook-signature': createHmac('sha256', secret).update(body).digest('hex'),
        'x-webhook-timestamp': String(Math.floor(env.backend.clock.now() / 1000)),
      };
      const parsed = await fetch(`${server.url}/webhooks-parsed`, { method: 'POST', headers, body });
      expect(parsed.status).toBe(400);
      expect(await parsed.json()).toMatchObject({ error: { reason: 'no_matching_signature', message: expect.stringContaining('raw request body') } });
      expect(events.some((e) => 'order_id' in e && e.order_id === payload.order_id)).toBe(false);

      const raw = await fetch(`${server.url}/webhooks`, { method: 'POST', headers, body });
      expect([raw.status, await raw.json()]).toEqual([200, { received: true }]);
      expect(events.filter((e) => 'order_id' in e && e.order_id === payload.order_id)).toHaveLength(1);
    });

    it('answers 413 to a chunked session body with no length while it is still arriving', async () => {
      // The webhook routes here sit behind the framework's own body reading (express.raw drains
      // the rest before answering; Hono's c.req.json() holds it all): see the handlers guide.
      const max = 64 * 1024 * 1024;
      const { status, sent } = await flood(server.url, '/api/ramp/session', { cookie: 'ama' }, max);
      expect(status).toBe(413);
      expect(sent).toBeLessThan(max);
      // The server still answers.
      expect((await session(JSON.stringify({ flow: 'sell', amount: 5 }))).status).toBe(200);
    });
  });
}

/**
 * The example shop over real HTTP against the standalone mock server: the widget's calls (as
 * `<ramp-widget>` makes them) start a buy and a sell, and the mock's signed order webhook
 * reaches the shop's fulfilment once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '@sikaramp/mock-server';
import { MerchantClient, WidgetClient } from '@sikaramp/sdk';
import { Keypair } from '@sikaramp/sdk/anchor';
import { MemoryDedupeStore } from '@sikaramp/sdk/handlers';
import type { WebhookEvent } from '@sikaramp/sdk/webhooks';
import { serve } from '../src/main.ts';
import { createShop } from '../src/server.ts';

describe('the Hono shop with the drop-in handlers', () => {
  let mock: MockServer;
  let shop: Awaited<ReturnType<typeof serve>>;
  const fulfilled: WebhookEvent[] = [];
  /** The shop's login: cookie -> Sikaramp customer id. */
  const logins = new Map<string, string>();
  const wallet = Keypair.random().publicKey();

  beforeAll(async () => {
    // A manual clock without a seed starts at the wall clock, so signed timestamps and SEP-10 time bounds look fresh.
    mock = await startMockServer({ port: 0, clock: 'manual' });
    const email = 'kofi@shop.example';
    const password = 'a long test password';
    const dashboard = new MerchantClient({ baseUrl: mock.url, email, password });
    const merchant = await dashboard.auth.register({ name: 'Kofi Shop', legal_name: 'Kofi Shop Ltd', email, password });
    mock.backend.control.merchants.approveKyb(merchant.id);
    const { key: secretKey } = await dashboard.apiKeys.create({ key_type: 'secret' });
    const { key: publicKey } = await dashboard.apiKeys.create({ key_type: 'public' });
    const customer = await new WidgetClient({ baseUrl: mock.url, secretKey }).customers.create({ first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' });
    logins.set('session=ama', customer.id);

    let app: ReturnType<typeof createShop> | undefined;
    shop = await serve((request) => app!.fetch(request));
    const { secret } = await dashboard.webhook.set({ url: `${shop.url}/webhooks/sikaramp` });
    app = createShop({
      baseUrl: mock.url,
      anchorUrl: mock.backend.urls.anchor,
      secretKey,
      publicKey,
      stellarSecret: Keypair.random().secret(),
      webhookSecret: secret!,
      store: new MemoryDedupeStore(),
      customerOf: (request) => logins.get(request.headers.get('cookie') ?? ''),
      fulfil: (event) => void fulfilled.push(event),
    });
  });
  afterAll(async () => {
    await shop?.close();
    await mock?.close();
  });

  const session = (body: object, cookie = 'session=ama') =>
    fetch(`${shop.url}/api/ramp/session`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('buys: session-url starts the transaction, and order.completed is fulfilled once', async () => {
    const res = await session({ flow: 'buy', amount: 100, asset: 'USDC', destination: wallet, lang: 'en' });
    expect(res.status).toBe(200);
    const { id, url } = (await res.json()) as { id: string; url: string };
    expect(url).toContain('/interactive?token=');

    await mock.backend.control.anchor.completeInteractive(id, { provider: 'mtn', phone: '+233201234567' });
    await mock.backend.control.rails.approvePrompt(id);
    for (const seconds of [2, 5]) await mock.backend.clock.advance(seconds);
    await mock.backend.control.webhooks.settle();

    const { order_id } = mock.backend.control.anchor.transaction(id);
    expect(fulfilled).toEqual([expect.objectContaining({ event: 'order.completed', order_id, destination_address: wallet })]);
    const status = await fetch(`${shop.url}/api/ramp/status?id=${id}`, { headers: { cookie: 'session=ama' } });
    expect(await status.json()).toMatchObject({ transaction: { id, kind: 'deposit', status: 'completed' } });
  });

  it('sells, and tells a stranger nothing', async () => {
    const { id } = (await (await session({ flow: 'sell', amount: 5 })).json()) as { id: string };
    const mine = await fetch(`${shop.url}/api/ramp/status?id=${id}`, { headers: { cookie: 'session=ama' } });
    expect(await mine.json()).toMatchObject({ transaction: { id, kind: 'withdrawal', status: 'incomplete' } });
    expect((await fetch(`${shop.url}/api/ramp/status?id=${id}`)).status).toBe(401);
    expect((await session({ flow: 'sell' }, 'session=someone')).status).toBe(401);
  });

  it('refuses a webhook that is not signed with the shop’s secret', async () => {
    const res = await fetch(`${shop.url}/webhooks/sikaramp`, {
      method: 'POST',
      headers: { 'x-webhook-signature': '0'.repeat(64), 'x-webhook-timestamp': String(Math.floor(Date.now() / 1000)) },
      body: JSON.stringify({ event: 'order.completed', order_id: 'ord_forged' }),
    });
    expect(res.status).toBe(400);
    expect(fulfilled.some((e) => 'order_id' in e && e.order_id === 'ord_forged')).toBe(false);
  });
});

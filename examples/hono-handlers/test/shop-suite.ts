/**
 * One suite for the handler examples that run in this process (Hono, Express, Fastify): the
 * shop on 127.0.0.1 against the standalone mock server. The widget's calls (as `<ramp-widget>`
 * makes them) start a buy and a sell, the mock's signed order webhook is fulfilled once, and
 * random bad input to each endpoint gets a 4xx JSON error that names no secret and starts nothing.
 * The steps are exported: next-handlers' test runs them against `next start`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '@sikaramp/mock-server';
import { MerchantClient, WidgetClient } from '@sikaramp/sdk';
import { Keypair } from '@sikaramp/sdk/anchor';
import { MemoryDedupeStore, type DedupeStore } from '@sikaramp/sdk/handlers';
import type { WebhookEvent } from '@sikaramp/sdk/webhooks';
import { freePort } from '../../../packages/sdk/test/helpers/redis.ts';

/** What each example's `createShop` takes. */
export interface ShopConfig {
  baseUrl: string;
  anchorUrl: string;
  secretKey: string;
  publicKey: string;
  stellarSecret: string;
  webhookSecret: string;
  store: DedupeStore;
  customerOf: (request: Request) => string | undefined | Promise<string | undefined>;
  fulfil: (event: WebhookEvent) => unknown;
}

/** Serves the example's shop with `config` on 127.0.0.1 at `port`. */
export type StartShop = (config: ShopConfig, port: number) => Promise<{ close(): Promise<void> }>;

/** A merchant registered on `mock` with KYB approved, its secret and public keys, and its customer Ama. */
export async function seedMerchant(mock: MockServer) {
  const email = 'kofi@shop.example';
  const password = 'a long test password';
  const dashboard = new MerchantClient({ baseUrl: mock.url, email, password });
  const merchant = await dashboard.auth.register({ name: 'Kofi Shop', legal_name: 'Kofi Shop Ltd', email, password });
  mock.backend.control.merchants.approveKyb(merchant.id);
  const { key: secretKey } = await dashboard.apiKeys.create({ key_type: 'secret' });
  const { key: publicKey } = await dashboard.apiKeys.create({ key_type: 'public' });
  const customer = await new WidgetClient({ baseUrl: mock.url, secretKey }).customers.create({ first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' });
  return { dashboard, secretKey, publicKey, customer };
}

/** The widget's two calls to the shop at `url()`, as `<ramp-widget>` makes them, logged in by `cookie`. */
export function widgetCalls(url: () => string) {
  return {
    session: (body: unknown, cookie = 'session=ama') =>
      fetch(`${url()}/api/ramp/session`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    status: (id: string, cookie = 'session=ama') => fetch(`${url()}/api/ramp/status?id=${encodeURIComponent(id)}`, { headers: { cookie } }),
  };
}

/** A shop that is up, as the steps below drive it. */
export interface RunningShop {
  mock: MockServer;
  /** The shop's address, `http://127.0.0.1:<port>`. */
  url: string;
  /** What the shop has fulfilled so far, one `<event> <order_id or reference>` per event handled. */
  fulfilled(): string[];
  /** The secret key, the webhook secret and the Stellar secret: no answer may contain them. */
  secrets: string[];
}

/** `event` as `RunningShop.fulfilled` lists it. */
export const fulfilment = (event: WebhookEvent) => `${event.event} ${'order_id' in event ? event.order_id : event.data.reference}`;

/** Buys 100 USDC for `wallet`: order.completed is fulfilled once, and not again when the mock delivers it again. */
export async function buy(shop: RunningShop, wallet: string): Promise<{ id: string; orderId: string }> {
  const { mock } = shop;
  const { session, status } = widgetCalls(() => shop.url);
  const res = await session({ flow: 'buy', amount: 100, asset: 'USDC', destination: wallet, lang: 'en' });
  expect(res.status).toBe(200);
  const { id, url } = (await res.json()) as { id: string; url: string };
  expect(url).toContain('/interactive?token=');

  await mock.backend.control.anchor.completeInteractive(id, { provider: 'mtn', phone: '+233201234567' });
  await mock.backend.control.rails.approvePrompt(id);
  for (const seconds of [2, 5]) await mock.backend.clock.advance(seconds);
  await mock.backend.control.webhooks.settle();

  const orderId = mock.backend.control.anchor.transaction(id).order_id!;
  const fulfilled = () => shop.fulfilled().filter((line) => line === `order.completed ${orderId}`);
  await expect.poll(fulfilled).toHaveLength(1);
  expect(await (await status(id)).json()).toMatchObject({ transaction: { id, kind: 'deposit', status: 'completed' } });
  const [delivery] = mock.backend.control.webhooks.list({ event: 'order.completed' });
  const again = await fetch(`${mock.url}/_mock/webhooks/${delivery!.id}/redeliver`, { method: 'POST' });
  expect(await again.json()).toMatchObject({ state: 'delivered' });
  expect(fulfilled()).toHaveLength(1);
  return { id, orderId };
}

/** Sells 5 USDC; its status is for the signed-in customer only, and a stranger starts nothing. */
export async function sell(shop: RunningShop): Promise<void> {
  const { session, status } = widgetCalls(() => shop.url);
  const { id } = (await (await session({ flow: 'sell', amount: 5 })).json()) as { id: string };
  expect(await (await status(id)).json()).toMatchObject({ transaction: { id, kind: 'withdrawal', status: 'incomplete' } });
  expect((await status(id, '')).status).toBe(401);
  expect((await status(id, 'session=kofi')).status).toBe(401);
  expect((await status('b3f1c7d2-0000-4000-8000-000000000000')).status).toBe(404);
  expect((await session({ flow: 'sell' }, 'session=someone')).status).toBe(401);
}

/** A webhook not signed with the shop's secret is refused and fulfils nothing. */
export async function forgedWebhook(shop: RunningShop): Promise<void> {
  const res = await fetch(`${shop.url}/webhooks/sikaramp`, {
    method: 'POST',
    headers: { 'x-webhook-signature': '0'.repeat(64), 'x-webhook-timestamp': String(Math.floor(Date.now() / 1000)) },
    body: JSON.stringify({ event: 'order.completed', order_id: 'ord_forged' }),
  });
  expect(res.status).toBe(400);
  expect(shop.fulfilled()).not.toContain('order.completed ord_forged');
}

/** `numRuns` random bad inputs to each endpoint: each gets a 4xx JSON error that names no secret, and none starts or fulfils anything. */
export async function badInput(shop: RunningShop, numRuns: number): Promise<void> {
  const { mock } = shop;
  const { session, status } = widgetCalls(() => shop.url);
  const before = mock.backend.control.anchor.transactions().length;
  const handled = shop.fulfilled().length;
  const body = fc.oneof(
    fc.string(),
    fc.json(),
    // Near misses: the fields the widget sends, with wrong values.
    fc.record(
      {
        flow: fc.oneof(fc.string(), fc.constantFrom('buy', 'sell')),
        amount: fc.oneof(fc.integer({ max: 0 }), fc.string(), fc.constant(1e20), fc.constant(0.12345678)),
        asset: fc.string(),
        destination: fc.string(),
        lang: fc.string(),
      },
      { requiredKeys: ['flow', 'amount'] },
    ),
    // Any of them missing; a buy with any amount but no valid destination.
    fc.record({ flow: fc.oneof(fc.string(), fc.constant('buy')), amount: fc.oneof(fc.double(), fc.string(), fc.constant(-1)), destination: fc.string() }, { requiredKeys: [] }),
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('session', 'status', 'webhook'), body, fc.string(), async (endpoint, value, header) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      const res =
        endpoint === 'session'
          ? await session(text)
          : endpoint === 'status'
            ? await status(text)
            : await fetch(`${shop.url}/webhooks/sikaramp`, { method: 'POST', headers: { 'x-webhook-signature': encodeURIComponent(header), 'x-webhook-timestamp': '1' }, body: text });
      const answer = await res.text();
      expect(res.status, `${endpoint} ${text}: ${answer}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(JSON.parse(answer)).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
      for (const secret of shop.secrets) expect(answer).not.toContain(secret);
    }),
    { numRuns },
  );
  expect(mock.backend.control.anchor.transactions()).toHaveLength(before);
  expect(shop.fulfilled()).toHaveLength(handled);
}

export function shopSuite(framework: string, start: StartShop) {
  describe(`the ${framework} shop with the drop-in handlers`, () => {
    let shop: RunningShop;
    let server: { close(): Promise<void> };
    const fulfilled: WebhookEvent[] = [];
    /** The shop's login: cookie -> Sikaramp customer id. */
    const logins = new Map<string, string>();
    const wallet = Keypair.random().publicKey();

    beforeAll(async () => {
      // A manual clock without a seed starts at the wall clock, so signed timestamps and SEP-10 time bounds look fresh.
      const mock = await startMockServer({ port: 0, clock: 'manual' });
      shop = { mock, url: '', fulfilled: () => fulfilled.map(fulfilment), secrets: [] };
      const { dashboard, secretKey, publicKey, customer } = await seedMerchant(mock);
      logins.set('session=ama', customer.id);
      const port = await freePort();
      shop.url = `http://127.0.0.1:${port}`;
      const { secret } = await dashboard.webhook.set({ url: `${shop.url}/webhooks/sikaramp` });
      const config: ShopConfig = {
        baseUrl: mock.url,
        anchorUrl: mock.backend.urls.anchor,
        secretKey,
        publicKey,
        stellarSecret: Keypair.random().secret(),
        webhookSecret: secret!,
        store: new MemoryDedupeStore(),
        customerOf: (request) => logins.get(request.headers.get('cookie') ?? ''),
        fulfil: (event) => void fulfilled.push(event),
      };
      shop.secrets = [config.secretKey, config.webhookSecret, config.stellarSecret];
      server = await start(config, port);
    });
    afterAll(async () => {
      await server?.close();
      await shop?.mock.close();
    });

    it('buys: session-url starts the transaction, and order.completed is fulfilled once', async () => {
      const { orderId } = await buy(shop, wallet);
      expect(fulfilled).toEqual([expect.objectContaining({ event: 'order.completed', order_id: orderId, destination_address: wallet })]);
    });

    it('sells, and tells a stranger nothing', () => sell(shop));

    it('refuses a webhook that is not signed with the shop’s secret', () => forgedWebhook(shop));

    it('answers random bad input to each endpoint with a 4xx JSON error that names no secret, and starts nothing', () => badInput(shop, 60));
  });
}

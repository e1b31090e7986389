/**
 * What a shop that people copy must not teach, tried as an attacker would over real HTTP on
 * 127.0.0.1, and once from another site's page in Chromium: listing orders by counting, and
 * making the customer's browser change things here from another site (CSRF).
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutClient } from '@sikaramp/sdk';
import { launchChromium } from '../../../test/chromium.ts';
import { openShopDb } from '../src/db.ts';
import { startWorld, tempDatabase, type World } from './helpers.ts';

let world: World;
beforeAll(async () => {
  world = await startWorld();
}, 30_000);
afterAll(() => world?.close());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const checkout = () => new CheckoutClient({ baseUrl: world.mock.url, apiKey: world.config.checkoutApiKey });

/** The service's count of this shop's checkout payments, and of the shop's ramp orders and interactive transactions. */
async function counts() {
  let payments = 0;
  for await (const _ of checkout().transactions.list({ limit: 100 })) payments++;
  const transactions = await world.control.anchor.transactions();
  return { payments, transactions: transactions.length, rampOrders: world.lines.filter((l) => l.startsWith('ramp order ')).length };
}

/** An order made through the shop's form, as its own page makes it; its token from the payment's meta. */
async function buyShirt(): Promise<string> {
  const res = await world.shopFetch('/checkout', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  expect(res.status).toBe(303);
  const sessionId = new URL(res.headers.get('location')!).pathname.split('/').at(-1)!;
  const verification = await checkout().payments.verify(sessionId);
  if (verification.outcome === 'unknown') throw verification.error;
  return String(verification.session.meta?.order_id);
}

describe('orders', () => {
  it('are found by their random token only: counting, the order number or a crafted id finds none', async () => {
    const tokens = [await buyShirt(), await buyShirt()];
    const own = await json(await world.shopFetch(`/api/orders/${tokens[1]}`));
    expect(own).toMatchObject({ status: 200, body: { status: 'pending' } });

    // An attacker counts from 1 past every order there is, and tries the order's own number.
    const guesses = [...Array.from({ length: own.body.id + 5 }, (_, i) => String(i + 1)), '0', '-1', '1.0', '01', ' 1'];
    guesses.push('*', '%25', "' OR '1'='1", 'null', 'undefined', tokens[1]!.toUpperCase(), tokens[1]!.slice(0, -1));
    for (const guess of guesses) {
      const listed = await world.shopFetch(`/api/orders/${encodeURIComponent(guess)}`);
      expect(listed.status, `/api/orders/${guess}`).toBe(404);
      const returned = await world.shopFetch(`/checkout/return?order=${encodeURIComponent(guess)}`);
      expect(returned.status, `/checkout/return?order=${guess}`).toBe(404);
    }
    // Random version-4 UUIDs (122 random bits), one per order.
    const UUID = /^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/;
    expect(tokens.map((t) => UUID.test(t))).toEqual([true, true]);
    expect(new Set(tokens).size).toBe(2);
    expect(own.body.token).toBe(tokens[1]);
  });

  it('in a file from before tokens stay unreachable, and new ones get a token', () => {
    const path = tempDatabase();
    const old = new DatabaseSync(path);
    old.exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY AUTOINCREMENT, amount INTEGER NOT NULL, currency TEXT NOT NULL,
      description TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending', session_id TEXT, reference TEXT, checkout_url TEXT,
      created_at TEXT NOT NULL, paid_at TEXT)`);
    old.exec(`INSERT INTO orders (amount, currency, description, created_at) VALUES (2500, 'GHS', 'Kofi Shop T-shirt', '2026-01-01T00:00:00Z')`);
    old.close();
    const db = openShopDb(path);
    try {
      for (const guess of ['1', 'null', '']) expect(db.getOrder(guess)).toBeUndefined();
      const order = db.createOrder({ amount: 2500, currency: 'GHS', description: 'Kofi Shop T-shirt' });
      expect(order.id).toBe(2);
      expect(db.getOrder(order.token)).toMatchObject({ id: 2, token: order.token });
    } finally {
      db.close();
    }
  });
});

describe('a captured order webhook', () => {
  it('replayed with a fresh timestamp, before and after a restart, is handled once', async () => {
    // Order webhooks sign the body alone: whoever captured one delivery can send it again later.
    const body = `{"order_id":"ord_replayed","event":"order.completed","type":"onramp","fiat_amount":"100.00","fiat_currency":"GHS","crypto_amount":"6.31","crypto_currency":"USDC","destination_address":null,"timestamp":"${new Date().toISOString()}"}`;
    const deliver = async () =>
      json(
        await fetch(`${world.config.publicUrl}/webhooks/sikaramp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-webhook-signature': createHmac('sha256', world.config.webhookSecret).update(body).digest('hex'),
            'x-webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          },
          body,
        }),
      );
    expect(await deliver()).toEqual({ status: 200, body: { received: true } });
    expect(await deliver()).toEqual({ status: 200, body: { received: true, duplicate: true } });
    await world.restart();
    expect(await deliver()).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(world.lines.filter((l) => l.includes('(ord_replayed) — signature verified'))).toHaveLength(1);
  });
});

describe('cross-site requests', () => {
  const shop = () => world.config.publicUrl;
  /** The headers a browser sends for a request a page of `origin` makes: that page can set neither. */
  const from = (origin: string | null, site?: string) => ({ ...(origin === null ? {} : { origin }), ...(site ? { 'sec-fetch-site': site } : {}) });
  const attempts = (): [string, Record<string, string>][] => [
    ['another site', from('https://evil.example', 'cross-site')],
    ['another port of this machine', from('http://127.0.0.1:1', 'same-site')],
    ['a sandboxed frame or data: page (Origin null)', from('null', 'cross-site')],
    ['a look-alike host', from(`${new URL(shop()).origin}.evil.example`, 'cross-site')],
    ['no Origin at all', from(null, 'cross-site')],
    ['no Origin and no fetch metadata (not a browser)', from(null)],
    ['the shop’s Origin with cross-site fetch metadata', from(new URL(shop()).origin, 'cross-site')],
  ];

  it('change nothing, from whatever origin, for every state-changing route', async () => {
    // A sell the shop's own page started, whose test-mode payment route is attacked too.
    const sell = await json(
      await world.shopFetch('/api/ramp/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ flow: 'sell', amount: 20 }) }),
    );
    expect(sell.status).toBe(200);
    const before = await counts();
    const routes: [string, string, string][] = [
      ['/checkout', 'application/x-www-form-urlencoded', ''],
      ['/api/ramp/orders', 'text/plain', '{"amount":100}'],
      ['/api/ramp/orders', 'application/json', '{"amount":100}'],
      ['/api/ramp/session', 'application/json', JSON.stringify({ flow: 'sell', amount: 20, asset: 'USDC' })],
      ['/api/ramp/session', 'text/plain', JSON.stringify({ flow: 'sell', amount: 20, asset: 'USDC' })],
      [`/api/test/sell/${sell.body.id}/pay`, 'application/json', '{}'],
    ];
    let tried = 0;
    for (const [path, type, body] of routes) {
      for (const [who, headers] of attempts()) {
        const res = await fetch(`${shop()}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': type, ...headers }, body });
        expect(res.status, `${path} from ${who}`).toBe(403);
        expect(await res.json()).toEqual({ error: 'cross-site request refused: changes come only from this shop’s own pages' });
        tried++;
      }
    }
    expect(tried).toBe(42);
    expect(await counts()).toEqual(before);
  });

  it('take the JSON API only as JSON, even from the shop’s own origin', async () => {
    const before = await counts();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await world.shopFetch('/api/ramp/orders', { method: 'POST', headers: { 'content-type': type }, body: '{"amount":100}' });
      expect(await json(res)).toEqual({ status: 415, body: { error: 'the API takes JSON only (content-type: application/json)' } });
    }
    expect(await counts()).toEqual(before);
  });

  it('accept the shop’s own pages, on either spelling of this machine', async () => {
    const port = new URL(shop()).port;
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const res = await fetch(`${shop()}/api/ramp/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ flow: 'sell', amount: 20, asset: 'USDC' }),
      });
      expect(res.status).toBe(200);
    }
  });

  describe('from another site’s page in Chromium', () => {
    let browser: Browser;
    let attacker: Server;
    let attackerUrl: string;
    beforeAll(async () => {
      // The attacker's page: a form that submits itself to the shop's checkout, a no-cors fetch
      // to start a ramp order, and a text/plain form that looks like JSON to start a sell.
      attacker = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Win a phone</title>
<iframe name="sink"></iframe>
<form id="buy" method="post" action="${shop()}/checkout" target="sink"></form>
<form id="sell" method="post" action="${shop()}/api/ramp/session" enctype="text/plain" target="sink">
  <input name='{"flow":"sell","amount":20,"asset":"USDC","x":"' value='"}'>
</form>
<script>
  window.sent = [];
  fetch('${shop()}/api/ramp/orders', { method: 'POST', mode: 'no-cors', body: '{"amount":100}' }).then(() => sent.push('order'), () => sent.push('order'));
  fetch('${shop()}/api/ramp/orders', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{"amount":100}' }).then(() => sent.push('order2'), () => sent.push('order2'));
  document.getElementById('buy').submit();
  setTimeout(() => document.getElementById('sell').submit(), 300);
</script>`);
      });
      await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
      attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
      browser = await launchChromium();
    }, 30_000);
    afterAll(async () => {
      await browser?.close();
      await new Promise<void>((resolve) => attacker?.close(() => resolve()));
    });

    it('starts no payment, ramp order or sell', async () => {
      const before = await counts();
      const context = await browser.newContext();
      const page = await context.newPage();
      const answers: { url: string; status: number }[] = [];
      page.on('response', (r) => void (r.url().startsWith(shop()) && answers.push({ url: r.url(), status: r.status() })));
      await page.goto(attackerUrl);
      await expect.poll(() => page.evaluate(() => (window as any).sent.length)).toBe(2);
      // Both forms reached the shop and were answered (403), in the hidden frame.
      await expect.poll(() => answers.filter((a) => !a.url.includes('/api/ramp/orders')).map((a) => a.status)).toEqual([403, 403]);
      await context.close();
      expect(await counts()).toEqual(before);
    });
  });
});

/**
 * The example as Next.js runs it: `next build` (with no secret set, as in a merchant's CI),
 * then `next start` on 127.0.0.1 with the keys of a merchant on the standalone mock. The
 * widget's calls go to the route handlers over real HTTP; the mock's signed order webhook
 * reaches them and is fulfilled once; a route that re-serialises the body is refused. The
 * checkout page is server-rendered with the widget configured and no secret, and in Chromium it
 * hydrates without an error and its button starts a buy at the session route. The buy,
 * sell, forged webhook and bad input steps are hono-handlers' shop-suite.ts, as the in-process
 * examples run them. Telemetry is off and nothing leaves this machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '@sikaramp/mock-server';
import { Keypair } from '@sikaramp/sdk/anchor';
import { launchChromium } from '../../../test/chromium.ts';
import { freePort } from '../../../packages/sdk/test/helpers/redis.ts';
import { badInput, buy, forgedWebhook, seedMerchant, sell, type RunningShop } from '../../hono-handlers/test/shop-suite.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const nextBin = join(root, 'node_modules/next/dist/bin/next');
/** No telemetry; the test's build also serves the route that makes the raw-body mistake. */
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: '1', SIKARAMP_EXAMPLE_TEST: '1' };

/** Runs `next <args>` in the example; resolves with its output once it exits 0. */
function next(args: string[], env: Record<string, string> = {}): { child: ChildProcess; output: string[]; done: Promise<void> } {
  const output: string[] = [];
  const child = spawn(process.execPath, [nextBin, ...args], { cwd: root, env: { ...process.env, ...NEXT_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n')));
  const done = new Promise<void>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`next ${args.join(' ')} exited ${code}:\n${output.join('\n')}`)))),
  );
  return { child, output, done };
}

describe('the Next.js shop with the drop-in handlers, built and started for real', () => {
  let mock: MockServer;
  let server: ReturnType<typeof next> | undefined;
  let shop: string;
  let secrets: { secretKey: string; webhookSecret: string; stellarSecret: string };
  let publicKey: string;
  const dir = mkdtempSync(join(tmpdir(), 'next-shop-'));
  const wallet = Keypair.random().publicKey();
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    let started = performance.now();
    // Built before any secret exists: the handlers are made on the first request.
    await next(['build']).done;
    timings.build = performance.now() - started;

    mock = await startMockServer({ port: 0, clock: 'manual' });
    const { dashboard, secretKey, customer } = await seedMerchant(mock);
    const port = await freePort();
    shop = `http://127.0.0.1:${port}`;
    // The page's key, for the shop's origin only: the widget reads its config from the browser.
    ({ key: publicKey } = await dashboard.apiKeys.create({ key_type: 'public', domains: [shop] }));
    const { secret: webhookSecret } = await dashboard.webhook.set({ url: `${shop}/webhooks/sikaramp` });
    secrets = { secretKey, webhookSecret: webhookSecret!, stellarSecret: Keypair.random().secret() };

    started = performance.now();
    server = next(['start', '--hostname', '127.0.0.1', '--port', String(port)], {
      SIKARAMP_BASE_URL: mock.url,
      SIKARAMP_ANCHOR_URL: mock.backend.urls.anchor,
      SIKARAMP_SECRET_KEY: secretKey,
      SIKARAMP_PUBLIC_KEY: publicKey,
      SIKARAMP_STELLAR_SECRET: secrets.stellarSecret,
      SIKARAMP_WEBHOOK_SECRET: secrets.webhookSecret,
      SIKARAMP_CUSTOMER_ID: customer.id,
      SHOP_SESSION: 'ama',
      DATABASE: join(dir, 'events.db'),
    });
    // Up once it answers; a process that exits first fails the wait with its output.
    const up = async (): Promise<void> => {
      if ((await fetch(`${shop}/api/ramp/status`).then((r) => r.status, () => 0)) === 401) return;
      if (performance.now() - started > 30_000) throw new Error(`next start did not answer in 30 s:\n${server!.output.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return up();
    };
    await Promise.race([up(), server.done.then(() => Promise.reject(new Error(`next start exited:\n${server!.output.join('\n')}`)))]);
    timings.start = performance.now() - started;
    console.log(`next build ${Math.round(timings.build)} ms, next start ${Math.round(timings.start)} ms`);
  }, 180_000);

  afterAll(async () => {
    server?.child.kill();
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Each `fulfil <event> <id>` line the shop printed, as `<event> <id>`. */
  const fulfilled = () => server!.output.flatMap((line) => (line.startsWith('fulfil ') ? [line.slice('fulfil '.length)] : []));
  const running = (): RunningShop => ({ mock, url: shop, fulfilled, secrets: Object.values(secrets) });

  it('buys: session-url starts the transaction, and order.completed is fulfilled once', async () => {
    await buy(running(), wallet);
  });

  it('sells, and tells a stranger nothing', async () => {
    await sell(running());
    // Next.js answers a method the route does not export.
    expect((await fetch(`${shop}/api/ramp/session`)).status).toBe(405);
  });

  it('refuses a webhook that is not signed with the shop’s secret', () => forgedWebhook(running()));

  it('refuses a body that a route parsed and wrote again, and verifies the same bytes as sent', async () => {
    const payload = { event: 'order.completed', order_id: 'ord_next_raw', type: 'offramp', fiat_amount: '60.00', fiat_currency: 'GHS', crypto_amount: '5.00', crypto_currency: 'USDC', destination_address: null, timestamp: new Date().toISOString() };
    const body = JSON.stringify(payload, null, 2);
    const headers = {
      'content-type': 'application/json',
      'x-webhook-signature': createHmac('sha256', secrets.webhookSecret).update(body).digest('hex'),
      'x-webhook-timestamp': String(Math.floor(mock.backend.clock.now() / 1000)),
    };
    const mistake = await fetch(`${shop}/webhooks/reserialised`, { method: 'POST', headers, body });
    expect(mistake.status).toBe(400);
    expect(await mistake.json()).toMatchObject({ error: { reason: 'no_matching_signature', message: expect.stringContaining('raw request body') } });
    expect(fulfilled()).not.toContain('order.completed ord_next_raw');
    const raw = await fetch(`${shop}/webhooks/sikaramp`, { method: 'POST', headers, body });
    expect([raw.status, await raw.json()]).toEqual([200, { received: true }]);
    await expect.poll(() => fulfilled().filter((line) => line === 'order.completed ord_next_raw')).toHaveLength(1);
  });

  it('server-renders the checkout page with <ramp-widget> configured, and no secret in it or its scripts', async () => {
    const res = await fetch(shop);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<ramp-widget data-api-key="${publicKey}" api-base="${mock.url}" session-url="/api/ramp/session" status-url="/api/ramp/status">`);
    // Every script the page loads, named in the HTML or in the React Server Components payload it carries.
    const scripts = [...new Set(html.match(/\/_next\/static\/[^"\\]+\.js/g))];
    expect(scripts.length).toBeGreaterThan(0);
    const sources = await Promise.all(scripts.map((path) => fetch(`${shop}${path}`).then((r) => r.text())));
    for (const text of [html, ...sources]) for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
  });

  it('hydrates the page in Chromium without an error, and the button starts a buy at the session route', { timeout: 30_000 }, async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      context.setDefaultTimeout(10_000);
      await context.addCookies([{ name: 'session', value: 'ama', url: shop }]);
      const page = await context.newPage();
      // The browser asks for an icon this example does not have.
      await page.route(`${shop}/favicon.ico`, (route) => route.fulfill({ status: 204 }));
      // A production build's React reports a hydration mismatch of text as error #418 (of an
      // attribute, only in development), and Next.js any error, on the console.
      const problems: string[] = [];
      page.on('console', (message) => ['error', 'warning'].includes(message.type()) && problems.push(message.text()));
      page.on('pageerror', (error) => problems.push(error.message));
      const ready = page.waitForEvent('console', (message) => message.text() === 'ramp-ready');
      await page.addInitScript(() => addEventListener('ramp-ready', () => console.log('ramp-ready')));
      await page.goto(shop);
      await ready;

      const widget = page.locator('ramp-widget');
      expect(await widget.evaluate((el) => el instanceof customElements.get('ramp-widget')! && el.shadowRoot!.querySelector('[part=button]')!.textContent)).toBe('Buy USDC');
      // The customer's wallet, as the widget's "Connect wallet" fills it.
      await widget.evaluate((el: any, address) => (el.destination = address), wallet);
      const answered = page.waitForResponse(`${shop}/api/ramp/session`);
      await widget.locator('[part=button]').click();
      const session = await answered;
      expect(session.request().postDataJSON()).toMatchObject({ flow: 'buy', destination: wallet });
      expect(session.status()).toBe(200);
      const { url } = await session.json();
      // The flow opens in the widget's iframe, told the page's origin for its messages.
      expect(await widget.locator('[part=frame]').getAttribute('src')).toBe(`${url}&origin=${encodeURIComponent(shop)}`);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('answers bad input to every route with a 4xx JSON error that names no secret, and starts nothing', () => badInput(running(), 40));
});

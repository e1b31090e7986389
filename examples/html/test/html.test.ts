/**
 * examples/html/index.html as written, in headless Chromium: served from the demo shop's
 * origin (whose backend answers its session-url), with its CDN import answered by the widget
 * package built here, since tests reach nothing but 127.0.0.1. Clicking the button opens the
 * buy flow and the page's own listener shows the status.
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../../../test/chromium.ts';
import { startDemo, type Demo } from '../../merchant-express/src/demo.ts';
import { tempDatabase } from '../../merchant-express/test/helpers.ts';

const HTML = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
const CDN = 'https://esm.sh/@sikaramp/widget@0';

let demo: Demo;
let browser: Browser;

beforeAll(async () => {
  demo = await startDemo({ port: 0, mockPort: 0, databasePath: tempDatabase(), log: () => {}, env: {} });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

it('opens the buy flow from a plain HTML page that imports the widget from a CDN', { timeout: 30_000 }, async () => {
  expect(HTML).toContain(`import '${CDN}';`);
  const context = await browser.newContext();
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));

  // The page, with the demo merchant's public key, mock server and customer wallet in place of the placeholders.
  await page.route(`${demo.url}/index.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: HTML.replace('YOUR_PUBLIC_KEY', demo.config.publicKey)
        .replace('http://127.0.0.1:4010', demo.config.baseUrl)
        .replace('CUSTOMER_STELLAR_ADDRESS', demo.config.customer.wallet),
    }),
  );
  // The CDN's module and its chunks: the same package, bundled by the shop.
  await page.route('https://esm.sh/**', async (route) => {
    const name = route.request().url() === CDN ? 'ramp-widget.js' : route.request().url().replace(/^.*\//, '');
    const res = await fetch(`${demo.url}/widget/${name}`);
    await route.fulfill({ status: res.status, contentType: 'text/javascript', body: Buffer.from(await res.arrayBuffer()) });
  });

  await page.goto(`${demo.url}/index.html`);
  const button = page.locator('ramp-widget').locator('[part=button]');
  await expect.poll(() => button.textContent()).toBe('Buy USDC');
  const opened = page.waitForEvent('popup');
  await button.click();
  const popup = await opened;
  await popup.getByRole('heading', { name: 'Buy USDC' }).waitFor();
  await expect.poll(() => page.locator('#status').textContent()).toBe('Status: incomplete');

  // Only the shop, the mock server and the (answered) CDN: no other network.
  const origins = new Set(requested.map((url) => new URL(url).origin));
  expect([...origins].sort()).toEqual([new URL(demo.config.baseUrl).origin, demo.url, 'https://esm.sh'].sort());
  await context.close();
});

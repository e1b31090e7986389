/**
 * A buy end to end, as a Playwright test would run it, here with playwright-core inside vitest:
 * the standalone mock on a free port, started by Playwright's globalSetup (./global-setup.ts),
 * a shop's site on 127.0.0.1 whose "Buy USDC" opens the interactive flow, and headless
 * Chromium (Debian's package). The test plays the customer's phone through the control client
 * only, as a test in another process would: it reads the one-time code sent by SMS and
 * approves the Mobile Money prompt, then moves the mock's clock and sees the page report the
 * USDC delivered. docs/guides/testing-with-the-mock.md ("A buy end to end") shows this file.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createControlClient, type ControlClient } from '@sikaramp/mock-server/client';
import { WidgetClient } from '@sikaramp/sdk';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import globalSetup from './global-setup.ts';

const WALLET = 'GBXEIQBGM3ECPAZDP3AK2ETT6ZEJIOK6KBITRD6GETEVNLAGTP627FQ7';
const WAIT = { timeout: 30_000 };

let teardown: () => Promise<void>;
let mockUrl: string;
let control: ControlClient;
let shop: { origin: string; server: Server; started: string[] };
let browser: Browser;

/**
 * The shop: a page with a "Buy USDC" button, and the backend route it calls, which starts the
 * interactive deposit with the secret key (server-side, as it must) and sends the page there.
 */
async function startShop(baseUrl: string, merchant: { secret_key: string; public_key: string }, customerId: string) {
  const widget = new WidgetClient({ baseUrl, secretKey: merchant.secret_key, publicKey: merchant.public_key });
  const started: string[] = [];
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kofi Shop</title></head><body>
<button id="buy">Buy USDC</button>
<script>document.getElementById('buy').onclick = async () => {
  const { url } = await (await fetch('/buy', { method: 'POST' })).json();
  location.assign(url);
};</script></body></html>`;
  const server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url === '/buy') {
      const { url, id } = await widget.interactive.deposit({ user_id: customerId });
      started.push(id);
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url }));
    }
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, started };
}

beforeAll(async () => {
  // Playwright runs the globalSetup once before all tests; the tests know only the URL.
  teardown = await globalSetup();
  mockUrl = process.env.SIKARAMP_MOCK_URL!;
  control = createControlClient({ baseUrl: mockUrl });
  const merchant = await control.fixtures.merchant();
  const customer = await control.fixtures.customer(merchant);
  shop = await startShop(mockUrl, merchant, customer.id);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    timeout: 20_000,
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => shop?.server.close(resolve));
  await teardown?.();
});

it('buys USDC: the code from the virtual phone, the prompt approved, the page reports the USDC delivered', { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  page.setDefaultTimeout(WAIT.timeout);
  await page.goto(shop.origin);
  await page.getByRole('button', { name: 'Buy USDC' }).click();
  await page.getByRole('heading', { name: 'Buy USDC' }).waitFor();
  expect(page.url().startsWith(`${mockUrl}/interactive`)).toBe(true);

  // The customer's phone: the page sends a code by SMS, the test reads it off the virtual phone.
  await page.getByLabel('MTN MoMo').check();
  await page.getByLabel('Mobile Money number').fill('024 123 4567');
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByLabel('Verification code').waitFor();
  const { code } = await control.rails.otp('+233241234567');
  await page.getByLabel('Verification code').fill(code);

  await page.getByLabel('Amount to pay, in GHS').fill('100');
  await page.getByLabel('Stellar address').fill(WALLET);
  await page.getByRole('button', { name: 'Confirm and pay' }).click();
  await page.getByRole('heading', { name: 'Approve the prompt on your phone' }).waitFor();

  // The prompt on the phone, approved; then the anchor sends the USDC (2 s) and the chain confirms it (5 s).
  const [id] = shop.started;
  await control.rails.approvePrompt(id!);
  await control.clock.advance(10);
  await expect.poll(() => page.locator('#status').textContent(), WAIT).toBe('Done. Your USDC is in your wallet.');

  expect(await control.anchor.transaction(id!)).toMatchObject({ transaction: { id, status: 'completed', amount_in: '100.00', to: WALLET } });
  await page.close();
});

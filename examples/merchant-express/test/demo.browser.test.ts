/**
 * The demo as a person uses it, in headless Chromium (Debian's package, driven by
 * playwright-core): `startDemo()` as `pnpm demo` runs it (real clock, prompts that approve
 * themselves, shortened to a second so the test stays short), then a complete buy and a
 * complete sell through the widget, a checkout and a server-side ramp order, checking the page
 * and the verified webhooks in the terminal. With `UPDATE_SCREENSHOTS=1` it also writes the
 * screenshot the README shows (times and ids differ at every run, so not by default).
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/chromium.ts';
import { startDemo, type Demo } from '../src/demo.ts';
import { tempDatabase } from './helpers.ts';

const SCREENSHOT = fileURLToPath(new URL('../../../docs/screenshots/demo-buy.png', import.meta.url));
const WAIT = { timeout: 30_000 };

let demo: Demo;
let browser: Browser;
let page: Page;
const lines: string[] = [];

beforeAll(async () => {
  demo = await startDemo({
    port: 0,
    mockPort: 0,
    databasePath: tempDatabase(),
    autoAdvance: { mobileMoneySeconds: 1, chainSeconds: 1, payoutSeconds: 1, walletPays: false },
    log: (line) => lines.push(line),
    env: {},
  });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  context.setDefaultTimeout(30_000);
  page = await context.newPage();
  await page.goto(demo.url);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

const statuses = (list: string) => page.locator(`#${list} li`).evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.status));
const webhooks = () => page.locator('#webhook-list li').evaluateAll((items) => items.map((li) => li.textContent ?? ''));

/** The code the test phone received, as the page shows it: a new one each time. */
let lastCode = '';
async function nextCode(): Promise<string> {
  await expect.poll(() => page.locator('#otp').textContent(), WAIT).toMatch(new RegExp(`^(?!${lastCode}$)\\d{6}$`));
  lastCode = (await page.locator('#otp').textContent())!;
  return lastCode;
}

/** Opens the widget's popup and fills the interactive form as the customer would. */
async function startFlow(flow: 'buy' | 'sell', amount: string) {
  const opened = page.waitForEvent('popup');
  await page.locator(`ramp-widget[flow=${flow}]`).locator('[part=button]').click();
  const popup = await opened;
  await popup.getByRole('heading', { name: flow === 'buy' ? 'Buy USDC' : 'Sell USDC' }).waitFor(WAIT);
  await popup.getByLabel('MTN MoMo').check();
  await popup.getByLabel('Mobile Money number').fill('024 123 4567');
  await popup.getByRole('button', { name: 'Send code' }).click();
  await popup.getByLabel('Verification code').fill(await nextCode());
  await popup.getByLabel(flow === 'buy' ? 'Amount to pay, in GHS' : 'Amount to sell, in USDC').fill(amount);
  // The fee summary follows the amount; the customer reads it before confirming.
  await expect.poll(() => popup.locator('#sum-in').textContent(), WAIT).toBe(`${Number(amount).toFixed(2)} ${flow === 'buy' ? 'GHS' : 'USDC'}`);
  await popup.getByRole('button', { name: flow === 'buy' ? 'Confirm and pay' : 'Confirm', exact: true }).click();
  return popup;
}

describe('the demo in a browser', () => {
  it('shows a seeded shop with one address, and no secret in the page', async () => {
    expect(lines.filter((l) => /https?:\/\//.test(l))).toEqual([`  Open ${demo.url}`]);
    const html = await page.content();
    expect(html).not.toMatch(/_secret_/);
    await expect.poll(() => page.locator('ramp-widget[flow=buy]').locator('[part=button]').textContent()).toBe('Buy USDC');
    expect(await page.locator('ramp-widget[flow=sell]').locator('[part=button]').textContent()).toBe('Sell USDC');
  });

  it('completes a buy: each status on the page, the signed webhook verified in the terminal', { timeout: 120_000 }, async () => {
    const popup = await startFlow('buy', '100');
    // The prompt approves itself; the anchor sends the USDC and the chain confirms.
    await expect
      .poll(() => statuses('buy-statuses'), WAIT)
      .toEqual(['incomplete', 'pending_user_transfer_start', 'pending_anchor', 'pending_stellar', 'completed']);
    await expect.poll(() => popup.locator('#status').textContent(), WAIT).toBe('Done. Your USDC is in your wallet.');
    await expect.poll(webhooks, WAIT).toContainEqual(expect.stringMatching(/webhook ✓ order\.completed onramp 100\.00 GHS .* signature verified/));
    expect(lines).toContainEqual(expect.stringMatching(/^webhook ✓ order\.completed onramp 100\.00 GHS \/ [\d.]+ USDC \(ord_.+\) — signature verified$/));
    await popup.close();
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(new URL('../../../docs/screenshots/', import.meta.url), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    }
  });

  it('follows a buy to completed after the customer closed its window early, by polling the status endpoint', { timeout: 120_000 }, async () => {
    // What the shop's status endpoint answered the widget, in order: `id status`.
    const polled: string[] = [];
    const onResponse = async (response: Response) => {
      if (new URL(response.url()).pathname !== '/api/ramp/status') return;
      const { transaction } = (await response.json()) as { transaction: { id: string; status: string } };
      polled.push(`${transaction.id} ${transaction.status}`);
    };
    page.on('response', onResponse);
    try {
      const session = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/ramp/session');
      const popup = await startFlow('buy', '50');
      const { id } = (await (await session).json()) as { id: string };
      await expect.poll(() => statuses('buy-statuses'), WAIT).toContain('pending_user_transfer_start');
      // The customer closes the window while the Mobile Money prompt is on their phone: no
      // message can come any more, and the USDC has not been sent yet.
      await popup.close();
      expect(await statuses('buy-statuses')).not.toContain('completed');
      // Until now the window's messages sufficed: nothing was polled.
      expect(polled).toEqual([]);

      // The widget looks every 5 s (poll-interval): twice at most once the chain has confirmed.
      await expect.poll(async () => (await statuses('buy-statuses')).at(-1), { timeout: 40_000 }).toBe('completed');
      await expect.poll(() => polled.at(-1), WAIT).toBe(`${id} completed`);
      expect(polled.every((line) => line.startsWith(`${id} `))).toBe(true);
      // Polling may miss a short status, never repeat or reorder one.
      const order = ['incomplete', 'pending_user_transfer_start', 'pending_anchor', 'pending_stellar', 'completed'];
      const seen = (await statuses('buy-statuses')).map((status) => order.indexOf(status!));
      expect(seen).toEqual([...new Set(seen)].sort());
    } finally {
      page.off('response', onResponse);
    }
  });

  it('completes a sell: address and memo on the page, the USDC paid from its button', { timeout: 120_000 }, async () => {
    const popup = await startFlow('sell', '10');
    await popup.getByRole('heading', { name: 'Send your USDC' }).waitFor(WAIT);
    const deposit = page.locator('#sell-deposit');
    await deposit.waitFor({ state: 'visible', ...WAIT });
    expect(await page.locator('#sell-address').textContent()).toBe(await popup.locator('#send-address').textContent());
    expect(await page.locator('#sell-memo').textContent()).toBe(await popup.locator('#send-memo').textContent());
    expect(await page.locator('#sell-amount').textContent()).toBe('10.00');
    // Nothing moves until the customer's wallet pays: here, the page's test-mode button.
    expect(await statuses('sell-statuses')).toEqual(['incomplete', 'pending_user_transfer_start']);
    await page.getByRole('button', { name: 'Simulate the USDC payment' }).click();
    await expect.poll(() => page.locator('#sell-paid').textContent(), WAIT).toMatch(/^Sent 10\.00 USDC with memo \d+\.$/);
    await expect
      .poll(() => statuses('sell-statuses'), WAIT)
      .toEqual(['incomplete', 'pending_user_transfer_start', 'pending_external', 'pending_payout_confirmation', 'completed']);
    await expect.poll(webhooks, WAIT).toContainEqual(expect.stringMatching(/webhook ✓ order\.completed offramp [\d.]+ GHS \/ 10\.00 USDC/));
    expect(lines).toContainEqual(expect.stringMatching(/^webhook ✓ order\.completed offramp [\d.]+ GHS \/ 10\.00 USDC \(ord_.+\) — signature verified$/));
    await popup.close();
  });

  it('pays at checkout: the return page verifies, and ships on the signed webhook', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Pay GHS 25.00' }).click();
    await page.getByRole('heading', { name: 'Sikaramp test checkout' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Pay (succeed)' }).click();
    await page.waitForURL(/\/checkout\/return\?/);
    expect(await page.locator('#verdict').textContent()).toBe('Paid: 25.00 GHS, confirmed by Sikaramp.');
    await expect.poll(() => page.locator('#fulfilment').textContent(), WAIT).toBe('shipped (from the signed webhook, 1 shipment)');
    expect(lines).toContainEqual(expect.stringMatching(/^order [\da-f-]{36} fulfilled \(event evt_.+\)$/));
    await page.goto(demo.url);
  });

  it('follows a server-side on-ramp order to completed on the page', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Create the order' }).click();
    await expect.poll(async () => (await statuses('ramp-statuses')).at(-1), WAIT).toBe('completed');
    // The rate is locked for 2 s before the prompt, which approves itself a second later: the
    // order's polling may miss a short status, never reorder one.
    const seen = (await statuses('ramp-statuses')).map((status) => ['quote_locked', 'fiat_pending', 'fiat_confirmed', 'crypto_sending', 'completed'].indexOf(status!));
    expect(seen[0]).toBe(0);
    expect(seen).toEqual([...new Set(seen)].filter((i) => i >= 0).sort());
    expect(lines).toContainEqual(expect.stringMatching(/^ramp order RMP-\S+ finished: completed, [\d.]+ USDC sent$/));
  });
});

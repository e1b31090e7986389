/**
 * A Mobile Money prompt's and payout's history on the dashboard at `/_mock/`, in headless
 * Chromium against the standalone mock on 127.0.0.1: each shows its changes with their clock
 * times under its own History disclosure; and a button pressed on a page that has not yet
 * seen the prompt end is refused, said in the live region, and changes nothing.
 */
import { Keypair } from '@stellar/stellar-sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../test/chromium.js';
import { createControlClient, type ControlClient } from '../src/client.js';
import { call, startStandalone, type MockEnv } from './helpers/env.js';
import { signIn } from './helpers/interactive.js';
import { newKey, orderBody } from './ramp-setup.js';

const WAIT = { timeout: 10_000 };
const START = Date.parse('2026-03-02T10:00:00.000Z');

describe('Mobile Money histories on the dashboard in Chromium', () => {
  let env: MockEnv;
  let control: ControlClient;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    env = await startStandalone({ clockStart: START });
    control = createControlClient({ baseUrl: env.origin });
    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (e) => void errors.push(e.message));
    expect((await page.goto(`${env.origin}/_mock/`))?.status()).toBe(200);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  /** The lines of a record's History disclosure, opened as a viewer opens it. */
  const historyLines = async (selector: string) => {
    const item = page.locator(selector);
    await item.locator('summary').click();
    return item.locator('details li').allTextContents();
  };

  it("shows a prompt's answer and a payout's outcome, each with its clock time", async () => {
    const token = await signIn(env, Keypair.random());
    const started = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: { authorization: `Bearer ${token}` },
      body: { asset_code: 'USDC', amount: '25' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await control.anchor.completeInteractive(started.body.id, { provider: 'mtn', phone: '+233201119001', amount: 25 });
    const prompt = page.locator(`[data-prompt]`).filter({ hasText: started.body.id });
    await prompt.getByRole('button', { name: 'Approve' }).waitFor(WAIT);
    await control.clock.advance(7);
    await prompt.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => prompt.locator('.status').first().textContent(), WAIT).toBe('approved');
    expect(await historyLines(`[data-prompt]:has-text("${started.body.id}")`)).toEqual([
      '2026-03-02 10:00:00 UTC: created as pending',
      '2026-03-02 10:00:07 UTC: pending → approved (approve)',
    ]);

    const merchant = await control.fixtures.merchant();
    const phone = await control.fixtures.verifiedPhone(merchant);
    const auth = { authorization: `Bearer ${merchant.secret_key}` };
    const sell = await call(env, 'POST', '/api/v1/ramp/orders', { headers: { ...auth, 'x-idempotency-key': newKey() }, body: orderBody({ type: 'offramp', phone: phone.phone }) });
    expect(sell.status, JSON.stringify(sell.body)).toBe(201);
    const { deposit, crypto_amount, reference } = sell.body.data;
    const wallet = Keypair.random().publicKey();
    await control.rails.sendStellarPayment({ from: wallet, to: deposit.stellar_address, amount: crypto_amount, memo: deposit.memo });
    await call(env, 'POST', `/api/v1/ramp/orders/${reference}/confirm`, { headers: auth, body: { source_wallet: wallet } });
    await control.clock.advance(2);
    const sent = await control.clock.now();
    await control.clock.advance(5);
    const payout = page.locator('[data-payout]').filter({ hasText: reference });
    await expect.poll(() => payout.locator('.status').first().textContent(), WAIT).toBe('succeeded');
    const [, paid] = await historyLines(`[data-payout]:has-text("${reference}")`);
    expect(paid).toBe(`${new Date(Date.parse(sent) + 5000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')} UTC: pending → succeeded (succeed)`);
    expect(errors).toEqual([]);
  });

  it('refuses Approve pressed on a prompt the page still shows pending after it timed out, and says so', async () => {
    const token = await signIn(env, Keypair.random());
    const started = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: { authorization: `Bearer ${token}` },
      body: { asset_code: 'USDC', amount: '30' },
    });
    await control.anchor.completeInteractive(started.body.id, { provider: 'mtn', phone: '+233201119002', amount: 30 });
    const prompt = page.locator('[data-prompt]').filter({ hasText: started.body.id });
    const approve = prompt.getByRole('button', { name: 'Approve' });
    await approve.waitFor(WAIT);

    // The page stops hearing news, so it keeps showing the prompt pending while it times out.
    await page.route('**/_mock/snapshot', (route) => route.abort());
    const timedOut = await control.rails.timeOutPrompt(started.body.id);
    await approve.click();
    await expect.poll(() => page.locator('#announce').textContent(), WAIT).toBe('Refused (409): cannot approve when status is timed_out');
    await page.unroute('**/_mock/snapshot');

    await expect.poll(() => prompt.locator('.status').first().textContent(), WAIT).toBe('timed_out');
    const lines = await historyLines(`[data-prompt]:has-text("${started.body.id}")`);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/: pending → timed_out \(time_out\)$/);
    expect((await control.rails.prompts()).find((p) => p.id === timedOut.id)).toMatchObject({ status: 'timed_out', settled_at: timedOut.settled_at });
  });
});

/**
 * The dashboard at `/_mock/` in headless Chromium (Debian's package, driven by playwright-core)
 * against the standalone mock on 127.0.0.1: the virtual phone shows the code a merchant's call
 * sent, a buy completes from the page's Approve button and clock form, a sell's payout fails from
 * the phone, histories show each
 * change, the page follows the mock without reloading, axe-core finds nothing, and the keyboard
 * reaches and works every control. One page stays open throughout: live updates are the point.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Keypair } from '@stellar/stellar-sdk';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../test/chromium.js';
import { createControlClient, type ControlClient } from '../src/client.js';
import type { MerchantFixture } from '../src/control/fixtures.js';
import { call, startStandalone, type MockEnv } from './helpers/env.js';
import { newKey, orderBody } from './ramp-setup.js';

const WAIT = { timeout: 10_000 };
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const START = Date.parse('2026-03-02T10:00:00.000Z');

describe('the dashboard in Chromium', () => {
  let env: MockEnv;
  let control: ControlClient;
  let browser: Browser;
  let page: Page;
  let merchant: MerchantFixture;
  /** Console errors (a CSP refusal among them) and uncaught errors of the page. */
  const errors: string[] = [];

  beforeAll(async () => {
    env = await startStandalone({ clockStart: START });
    control = createControlClient({ baseUrl: env.origin });
    merchant = await control.fixtures.merchant({ webhook_url: 'http://127.0.0.1:9/hooks' });
    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (e) => void errors.push(e.message));
    const res = await page.goto(`${env.origin}/_mock/`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toMatch(/script-src 'sha256-[^']+'; connect-src 'self'/);
    // Set once: a reload would drop it.
    await page.evaluate(() => ((window as any).loadedOnce = true));
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  const phone = (number: string) => page.locator(`[data-phone="${number}"]`);
  const prompt = (id: string) => page.locator(`[data-prompt="${id}"]`);
  const rampRow = (id: string) => page.locator(`#ramp-orders tr[data-row="${id}"]`);
  /** The status a record's row or a prompt shows. */
  const statusIn = (where: Locator) => where.locator('.status').first();
  const hasStatus = (where: Locator, status: string) => expect.poll(() => statusIn(where).textContent(), WAIT).toBe(status);

  it('shows the code a KYC call sent on the virtual phone; approving the prompt there and advancing the clock completes the buy', async () => {
    const number = '0241110001';
    const auth = { authorization: `Bearer ${merchant.secret_key}` };
    const initiated = await call(env, 'POST', '/api/v1/ramp/kyc/initiate', {
      headers: auth,
      body: { first_name: 'Ama', last_name: 'Owusu', phone: number, provider_name: 'MTN' },
    });
    expect(initiated.status).toBe(201);

    // The code appears without a reload, and it is the one the phone was sent.
    const shown = phone(number).locator('.code').first();
    await shown.waitFor(WAIT);
    expect(await shown.textContent()).toBe((await control.rails.otp(number)).code);
    const verified = await call(env, 'POST', '/api/v1/ramp/kyc/verify', { headers: auth, body: { kyc_id: initiated.body.data.kyc_id, otp_code: await shown.textContent() } });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);

    const created = await call(env, 'POST', '/api/v1/ramp/orders', { headers: { ...auth, 'x-idempotency-key': newKey() }, body: orderBody({ phone: number }) });
    expect(created.status).toBe(201);
    const { id, reference } = created.body.data;
    await hasStatus(rampRow(id), 'quote_locked');

    // The clock form: 2 seconds start the payment, and the prompt reaches the phone.
    await page.getByLabel('Advance by').fill('2');
    await page.getByRole('button', { name: 'Advance the clock' }).click();
    await expect.poll(() => page.locator('#clock-now').textContent(), WAIT).toBe('2026-03-02 10:00:02 UTC');
    const [pending] = await control.rails.prompts('pending');
    await prompt(pending!.id).getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.locator('#announce').textContent(), WAIT).toBe(`Prompt ${pending!.id} approved.`);
    await hasStatus(prompt(pending!.id), 'approved');

    await page.getByLabel('Advance by').fill('1');
    await page.getByLabel('Unit').selectOption({ label: 'minutes' });
    await page.getByRole('button', { name: 'Advance the clock' }).click();
    await hasStatus(rampRow(id), 'completed');
    expect((await call(env, 'GET', `/api/v1/ramp/orders/${reference}`, { headers: auth })).body.data.status).toBe('completed');

    // The order's history: every status with the clock time of the change.
    await rampRow(id).getByText(/^History/).click();
    const entries = await rampRow(id).locator('details li').allTextContents();
    expect(entries[0]).toBe('2026-03-02 10:00:00 UTC: created as quote_locked');
    expect(entries[1]).toBe('2026-03-02 10:00:02 UTC: quote_locked → fiat_pending (collect)');
    expect(entries[2]).toBe('2026-03-02 10:00:02 UTC: fiat_pending → fiat_confirmed (fiat_collected)');
    expect(entries.at(-1)).toMatch(/^2026-03-02 10:0\d:\d\d UTC: crypto_sending → completed \(send_confirmed\)$/);

    // All of it without a reload; and no secret the service handed the merchant is on the page.
    expect(await page.evaluate(() => (window as any).loadedOnce)).toBe(true);
    const html = await page.content();
    for (const secret of [merchant.secret_key, merchant.public_key, merchant.password, merchant.access_token, merchant.webhook!.secret]) expect(html).not.toContain(secret);
    expect(errors).toEqual([]);
  });

  it('reaches every control with Tab and works them with Enter and Space', async () => {
    const customer = await control.fixtures.customer(merchant, { first_name: 'Kojo', last_name: 'Asante' });
    const number = '0241110002';
    await control.fixtures.verifiedPhone(merchant, { phone: number });
    const orders = [];
    for (let i = 0; i < 2; i++) {
      const created = await call(env, 'POST', '/api/v1/ramp/orders', {
        headers: { authorization: `Bearer ${merchant.secret_key}`, 'x-idempotency-key': newKey() },
        body: orderBody({ phone: number }),
      });
      orders.push(created.body.data.id as string);
    }
    // A sell whose payout to the same phone is under way.
    const sell = await call(env, 'POST', '/api/v1/ramp/orders', {
      headers: { authorization: `Bearer ${merchant.secret_key}`, 'x-idempotency-key': newKey() },
      body: orderBody({ type: 'offramp', phone: number }),
    });
    const wallet = Keypair.random().publicKey();
    const { deposit, crypto_amount, reference } = sell.body.data;
    await control.rails.sendStellarPayment({ from: wallet, to: deposit.stellar_address, amount: crypto_amount, memo: deposit.memo });
    await call(env, 'POST', `/api/v1/ramp/orders/${reference}/confirm`, { headers: { authorization: `Bearer ${merchant.secret_key}` }, body: { source_wallet: wallet } });
    await control.clock.advance(2);
    const prompts = (await control.rails.prompts('pending')).filter((p) => p.phone === number);
    expect(prompts).toHaveLength(2);
    const delivery = (await control.webhooks.list({ merchantId: merchant.id })).at(-1)!;
    await page.locator(`[data-delivery="${delivery.id}"]`).waitFor(WAIT);
    await prompt(prompts[1]!.id).getByRole('button', { name: 'Let it time out' }).waitFor(WAIT);
    const payout = page.locator(`[data-payout]`).filter({ hasText: reference });
    await payout.getByRole('button', { name: 'Fail this payout' }).waitFor(WAIT);

    // Tab from the top until focus comes round again: every control is on the way.
    const controls = await page.evaluate(() => {
      const all = [...document.querySelectorAll<HTMLElement>('button, input, select, summary')];
      all.forEach((el, i) => (el.dataset.tabProbe = String(i)));
      return all.length;
    });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const reached = new Set<string>();
    for (let i = 0; i < controls + 5; i++) {
      await page.keyboard.press('Tab');
      const probe = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.tabProbe);
      if (probe !== undefined) reached.add(probe);
    }
    expect(reached.size).toBe(controls);

    /** Tabs forward to `target` (at most all the controls), as a keyboard user does. */
    const tabTo = async (target: Locator) => {
      for (let i = 0; i < controls + 5; i++) {
        if (await target.evaluate((el) => el === document.activeElement)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error('Tab never reached the control');
    };

    await tabTo(prompt(prompts[0]!.id).getByRole('button', { name: 'Decline' }));
    await page.keyboard.press('Enter');
    await hasStatus(prompt(prompts[0]!.id), 'declined');

    await tabTo(prompt(prompts[1]!.id).getByRole('button', { name: 'Let it time out' }));
    await page.keyboard.press('Space');
    await hasStatus(prompt(prompts[1]!.id), 'timed_out');
    // The focused button went with its prompt: focus falls back to the section's heading, not to the page's top.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('phones-heading');

    await tabTo(payout.getByRole('button', { name: 'Fail this payout' }));
    await page.keyboard.press('Enter');
    await hasStatus(payout, 'failed');

    const select = page.getByLabel('New KYC status of Kojo Asante');
    await tabTo(select);
    await select.selectOption('REJECTED');
    await tabTo(page.getByRole('button', { name: 'Set status of Kojo Asante' }));
    await page.keyboard.press('Enter');
    await hasStatus(page.locator(`#customers tr[data-row="${customer.id}"]`), 'REJECTED');
    const customerHistory = page.locator(`#customers tr[data-row="${customer.id}"] summary`);
    await tabTo(customerHistory);
    await page.keyboard.press('Enter');
    expect(await page.locator(`#customers tr[data-row="${customer.id}"] details li`).last().textContent()).toMatch(/ACCEPTED → REJECTED \(control\)$/);

    const attempts = delivery.attempts.length;
    await tabTo(page.getByRole('button', { name: `Redeliver ${delivery.event} to ${delivery.url}` }));
    await page.keyboard.press('Space');
    await expect.poll(async () => (await control.webhooks.get(delivery.id)).attempts.length, WAIT).toBe(attempts + 1);
    await page.locator(`[data-delivery="${delivery.id}"]`).getByText(`Attempts (${attempts + 1})`).waitFor(WAIT);

    const before = Date.parse(await control.clock.now());
    await tabTo(page.getByLabel('Advance by'));
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('3');
    await tabTo(page.getByRole('button', { name: 'Advance the clock' }));
    await page.keyboard.press('Enter');
    await expect.poll(async () => Date.parse(await control.clock.now()) - before, WAIT).toBe(3 * 60_000);
    expect(errors).toEqual([]);
  });

  it('has no axe-core violation, with every disclosure open', async () => {
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
    await page.evaluate(AXE_SOURCE);
    const result = await page.evaluate(async () => {
      const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
      return { passes: r.passes.length, violations: (r.violations as { id: string; nodes: { target: string[] }[] }[]).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`) };
    });
    expect(result.violations).toEqual([]);
    expect(result.passes).toBeGreaterThan(10);
    expect(await page.evaluate(() => (window as any).loadedOnce)).toBe(true);
  });
});

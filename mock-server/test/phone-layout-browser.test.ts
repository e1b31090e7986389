/**
 * Every page the customer sees, on a phone: the interactive buy and sell pages in each state
 * (form, Mobile Money prompt, USDC address and memo, final status), the status page, the
 * link-error and not-found pages, and the hosted checkout page, in headless Chromium at 320,
 * 360 and 414 px wide, in English and French, with each page's own CSP in force. At each width
 * the page must not scroll sideways, its controls must be at least 44 x 44 px, and axe-core
 * must find no violation.
 *
 * `UPDATE_SCREENSHOTS=1` also writes the phone screenshots in docs/screenshots (360 px, English).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@stellar/stellar-sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../test/chromium.js';
import { createKey, createPayment, complete } from './helpers/checkout.js';
import { call, startStandalone, type MockEnv } from './helpers/env.js';
import { createShop, startDeposit, startWithdraw, type Shop } from './helpers/interactive.js';

const WAIT = { timeout: 30_000 };
const WIDTHS = [320, 360, 414] as const;
const LANGS = ['en', 'fr'] as const;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url);

interface Finding {
  view: string;
  width: number;
  /** document.documentElement.scrollWidth; more than `width` means the page scrolls sideways. */
  documentWidth: number;
  /** window.innerWidth: a phone browser widens it to fit a page that overflows. */
  viewportWidth: number;
  /** Visible controls smaller than 44 x 44 px. */
  smallTargets: string[];
  /** Visible text inputs narrower than 200 px, too narrow to read "+233 24 123 4567" while typing it. */
  narrowInputs: string[];
  /** axe-core rule id and the elements it flags. */
  violations: string[];
}

/**
 * The page as it stands, at each width: its document width, its controls under 44 px (links
 * inside a sentence are exempt, as WCAG 2.5.8 says) and axe-core's violations.
 */
async function inspect(page: Page, view: string, findings: Finding[]) {
  // Through the DevTools protocol, which the page's CSP does not govern; the page's own style
  // and script still load only by their hashes.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 740 });
    const layout = await page.evaluate(() => ({
      documentWidth: document.documentElement.scrollWidth,
      viewportWidth: innerWidth,
      smallTargets: [...document.querySelectorAll<HTMLElement>('a, button, input:not([type=radio]), label.choice')]
        .filter((el) => el.getClientRects().length > 0 && !(el.localName === 'a' && getComputedStyle(el).display === 'inline'))
        .filter((el) => {
          const box = el.getBoundingClientRect();
          return box.height < 44 || box.width < 44;
        })
        .map((el) => `${el.localName}#${el.id || el.textContent?.trim()}`),
      narrowInputs: [...document.querySelectorAll<HTMLInputElement>('input:not([type=radio])')]
        .filter((el) => el.getClientRects().length > 0 && el.getBoundingClientRect().width < 200)
        .map((el) => el.id),
    }));
    const violations = await page.evaluate(async () => {
      const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
      if (result.passes.length === 0) return ['axe-core checked nothing'];
      return (result.violations as { id: string; nodes: { target: string[] }[] }[]).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    findings.push({ view, width, ...layout, violations });
  }
}

async function screenshot(page: Page, name: string) {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  await page.setViewportSize({ width: 360, height: 740 });
  await page.screenshot({ path: fileURLToPath(new URL(`phone-${name}.png`, SCREENSHOTS)), fullPage: true, animations: 'disabled' });
}

/** Every finding that breaks a rule: wider than the viewport, small targets, or violations. */
const problems = (findings: Finding[]) => findings.filter((f) => f.documentWidth > f.width || f.viewportWidth !== f.width || f.smallTargets.length > 0 || f.narrowInputs.length > 0 || f.violations.length > 0);

describe('the customer pages on a phone', () => {
  let env: MockEnv;
  let browser: Browser;
  let context: BrowserContext;
  let shop: Shop;
  /** CSP reports from the console: a page whose own style or script the CSP blocked. */
  const blocked: string[] = [];

  beforeAll(async () => {
    env = await startStandalone({ seed: 11 });
    shop = await createShop(env);
    // A long way back, as a real shop's return address can be.
    shop.merchant.widget_config.redirect_url = 'https://shop.example/orders/return?from=ramp&campaign=mobile-money-launch';
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    context.setDefaultTimeout(30_000);
    context.on('console', (message) => void (/Content Security Policy/i.test(message.text()) && blocked.push(message.text())));
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  async function openPage(url: string) {
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }

  async function enterPhoneAndCode(page: Page, typed: string, phone: string) {
    await page.locator('#phone').fill(typed);
    await page.locator('#send-code').click();
    await page.locator('#code').waitFor({ state: 'visible', ...WAIT });
    const otp = await call(env, 'GET', `/_mock/otp?phone=${encodeURIComponent(phone)}`);
    await page.locator('#code').fill(otp.body.code);
  }

  for (const lang of LANGS) {
    it(`buys in ${lang}: the form, the Mobile Money prompt and the final status fit`, { timeout: 120_000 }, async () => {
      const findings: Finding[] = [];
      // The customer types the address: the form with every field.
      const typed = await startDeposit(env, shop);
      const empty = await openPage(`${typed.url}&lang=${lang}`);
      await empty.locator('#destination').waitFor(WAIT);
      await inspect(empty, 'buy form, address to type', findings);
      await empty.close();

      // The shop set the address: "Your USDC goes to G…" in a sentence.
      const wallet = Keypair.random().publicKey();
      const { url, id } = await startDeposit(env, shop, { destination_address: wallet });
      const page = await openPage(`${url}&lang=${lang}`);
      expect(await page.locator('#destination-preset').textContent()).toContain(wallet);
      await page.locator('input[name=provider][value=mtn]').check();
      await enterPhoneAndCode(page, '+233 24 123 4567', '+233241234567');
      await page.locator('#amount').fill('1234.56');
      await page.locator('#summary-list').waitFor({ state: 'visible', ...WAIT });
      await inspect(page, 'buy form, filled', findings);
      // The widget's desktop popup is 440 px wide: the address stays inside the card there too.
      await page.setViewportSize({ width: 440, height: 720 });
      expect(await page.locator('#destination-preset').evaluate((p) => [p.scrollWidth <= p.clientWidth, document.documentElement.scrollWidth])).toEqual([true, 440]);
      if (lang === 'en') await screenshot(page, 'buy');

      await page.locator('#confirm').click();
      await page.locator('#progress').waitFor({ state: 'visible', ...WAIT });
      await inspect(page, 'buy prompt', findings);

      expect((await call(env, 'POST', `/_mock/mobile-money/${id}/approve`)).status).toBe(200);
      await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 10 } });
      await page.locator('#back').waitFor({ state: 'visible', ...WAIT });
      await inspect(page, 'buy completed', findings);
      await page.close();

      expect(problems(findings)).toEqual([]);
      expect(blocked).toEqual([]);
    });

    it(`sells in ${lang}: the form, the address and memo to send and the final status fit`, { timeout: 120_000 }, async () => {
      const findings: Finding[] = [];
      const { url, id } = await startWithdraw(env, shop);
      const page = await openPage(`${url}&lang=${lang}`);
      await page.locator('input[name=provider][value=telecel]').check();
      await enterPhoneAndCode(page, '+233 20 765 4321', '+233207654321');
      await page.locator('#amount').fill('20');
      await page.locator('#summary-list').waitFor({ state: 'visible', ...WAIT });
      await inspect(page, 'sell form', findings);

      await page.locator('#confirm').click();
      await page.locator('#send-details').waitFor({ state: 'visible', ...WAIT });
      await inspect(page, 'sell address and memo', findings);
      if (lang === 'en') await screenshot(page, 'sell');

      // The same address and memo on the transaction's status page (its more_info_url).
      const status = await openPage(`${env.backend.urls.interactive}/transaction?id=${id}&lang=${lang}`);
      await inspect(status, 'status page, address and memo', findings);
      await status.close();

      const tx = (await call(env, 'GET', `/_mock/transactions/${id}`)).body.transaction;
      const paid = await call(env, 'POST', '/_mock/stellar/payments', {
        body: { from: Keypair.random().publicKey(), to: tx.withdraw_anchor_account, amount: '20.00', asset_code: 'USDC', memo: tx.withdraw_memo },
      });
      expect(paid.body.matched).toEqual({ kind: 'transaction', id });
      await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 10 } });
      await page.locator('#back').waitFor({ state: 'visible', ...WAIT });
      await inspect(page, 'sell completed', findings);
      await page.close();

      expect(problems(findings)).toEqual([]);
      expect(blocked).toEqual([]);
    });

    it(`shows the link-error and not-found pages in ${lang} without sideways scrolling`, { timeout: 60_000 }, async () => {
      const findings: Finding[] = [];
      const link = await openPage(`${env.backend.urls.interactive}?token=${'0'.repeat(48)}&lang=${lang}`);
      await inspect(link, 'link cannot be used', findings);
      const unknown = await openPage(`${env.backend.urls.interactive}/transaction?id=${'f'.repeat(36)}&lang=${lang}`);
      await inspect(unknown, 'unknown transaction', findings);
      await Promise.all([link.close(), unknown.close()]);

      expect(problems(findings)).toEqual([]);
      expect(blocked).toEqual([]);
    });
  }

  // The hosted checkout page is in English only, as the gateway's is.
  it('shows the hosted checkout page, paid or not, and its not-found page without sideways scrolling', { timeout: 60_000 }, async () => {
    const findings: Finding[] = [];
    const { key } = await createKey(env);
    const payment = await createPayment(env, key, { recipient: { name: 'Kwabena Ofori-Atta Enterprises (Kumasi Central Market)', email: 'k@example.com' } });
    const page = await openPage(payment.checkout_url);
    await inspect(page, 'checkout form', findings);
    await screenshot(page, 'checkout');

    expect((await complete(env, payment.reference, 'completed')).status).toBe(200);
    await page.reload();
    await inspect(page, 'checkout paid', findings);
    await page.goto(`${env.backend.urls.gateway}/checkout/cs_${'0'.repeat(32)}`);
    await inspect(page, 'checkout not found', findings);
    await page.close();

    expect(problems(findings)).toEqual([]);
    expect(blocked).toEqual([]);
  });
});

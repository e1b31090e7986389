/**
 * The interactive page in headless Chromium (Debian's package, driven by playwright-core),
 * against the standalone mock: a customer buys in an iframe on a merchant's page and sells
 * in the whole window. All on 127.0.0.1, each site on its own port, so its own origin.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair } from '@stellar/stellar-sdk';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../test/chromium.js';
import { createApiKey } from '../src/merchants.js';
import { transactionView } from '../src/transactions.js';
import { call, startStandalone, type MockEnv } from './helpers/env.js';
import { advance, completeForm, createShop, startDeposit, startWithdraw, type Shop } from './helpers/interactive.js';

const WAIT = { timeout: 30_000 };

interface Site {
  origin: string;
  server: Server;
}

/**
 * A merchant's site: `/embed?src=` frames the page, `/blank` is an empty page; both record
 * every `message` event in `window.messages` before anything else runs.
 */
async function startSite(): Promise<Site> {
  const record = `<script>window.messages = []; addEventListener('message', (e) => messages.push({ origin: e.origin, data: e.data }));</script>`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const src = url.searchParams.get('src') ?? '';
    const frame = url.pathname === '/embed' ? `<iframe src="${src.replace(/"/g, '&quot;')}" title="Buy USDC" width="480" height="900"></iframe>` : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${record}</head><body>${frame}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * A page in a browser context of its own whose clock (Playwright's) stands still until the test
 * moves it, so that the waits between the page's polls measure exactly however slow the machine.
 * Each frame notes the time each poll goes out (`polls`) and counts the timers it sets (`timers`):
 * the page sets one as it loads, then one each time a poll comes back, until a final status.
 */
async function pausedPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 60_000);
  // Runs after the clock's own script: these wrap its timers.
  await page.addInitScript(() => {
    const w = window as any;
    w.polls = [];
    w.timers = 0;
    const { fetch, setTimeout } = window;
    window.fetch = (input, init) => {
      if (String(input).includes('/api/transaction')) w.polls.push(Date.now());
      return fetch.call(window, input, init);
    };
    window.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      w.timers++;
      return setTimeout(...args);
    }) as typeof setTimeout;
  });
  return page;
}

const pollTimes = (frame: Frame | Page) => frame.evaluate(() => (window as any).polls as number[]);

/** Moves the page's clock by `ms`, once every poll sent has come back and the next one is timed. */
async function tick(page: Page, frame: Frame | Page, ms: number) {
  await expect.poll(() => frame.evaluate(() => (window as any).timers > (window as any).polls.length), WAIT).toBe(true);
  await page.clock.runFor(ms);
}

const gapsOf = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

const messagesOf = (page: Page) => page.evaluate(() => (window as any).messages as { origin: string; data: any }[]);

async function fillPhoneAndCode(env: MockEnv, page: Frame | Page, typed: string, phone: string) {
  await page.getByLabel('Mobile Money number').fill(typed);
  await page.getByRole('button', { name: 'Send code' }).click();
  const code = page.getByLabel('Verification code');
  await code.waitFor({ state: 'visible', ...WAIT });
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('code');
  const otp = await call(env, 'GET', `/_mock/otp?phone=${encodeURIComponent(phone)}`);
  await code.fill(otp.body.code);
}

describe('interactive page in Chromium', () => {
  let env: MockEnv;
  let browser: Browser;
  let context: BrowserContext;
  let shop: Shop;
  let embedder: Site;
  let stranger: Site;

  beforeAll(async () => {
    env = await startStandalone({ seed: 5 });
    embedder = await startSite();
    stranger = await startSite();
    shop = await createShop(env);
    browser = await launchChromium();
    context = await browser.newContext();
    context.setDefaultTimeout(30_000);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await env?.close();
    for (const site of [embedder, stranger]) if (site) await new Promise((resolve) => site.server.close(resolve));
  });

  it('buys in an iframe and posts every status to the embedding page, and only to it', { timeout: 60_000 }, async () => {
    const { key } = await createApiKey(env.backend.context, shop.merchant, { key_type: 'public', domains: [embedder.origin] });
    const { url, id } = await startDeposit(env, shop, { api_key: key });
    const wallet = Keypair.random().publicKey();

    const page = await context.newPage();
    await page.goto(`${embedder.origin}/embed?src=${encodeURIComponent(url)}`);
    const frame = page.frames().find((f) => f.url().startsWith(url))!;
    await frame.getByRole('heading', { name: 'Buy USDC' }).waitFor(WAIT);

    // A page on a third origin opens the same link in a popup and asks for its own origin.
    const third = await context.newPage();
    await third.goto(`${stranger.origin}/blank`);
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      third.evaluate((href) => void window.open(href, 'ramp'), `${url}&origin=${encodeURIComponent(stranger.origin)}`),
    ]);
    await popup.getByRole('heading', { name: 'Buy USDC' }).waitFor(WAIT);

    // Accessibility by hand: a label for every input, a legend for every group, and every
    // aria-describedby pointing at an element that exists.
    const audit = await frame.evaluate(() => ({
      lang: document.documentElement.lang,
      unlabelled: [...document.querySelectorAll('input')].filter((i) => (i.labels?.length ?? 0) === 0).map((i) => i.id || i.name),
      inputs: document.querySelectorAll('input').length,
      fieldsetsWithoutLegend: [...document.querySelectorAll('fieldset')].filter((f) => !f.querySelector(':scope > legend')).length,
      danglingDescriptions: [...document.querySelectorAll('[aria-describedby]')]
        .flatMap((el) => el.getAttribute('aria-describedby')!.split(' '))
        .filter((ref) => !document.getElementById(ref)),
      liveRegion: document.getElementById('status')?.getAttribute('aria-live'),
    }));
    expect(audit).toEqual({ lang: 'en', unlabelled: [], inputs: 7, fieldsetsWithoutLegend: 0, danglingDescriptions: [], liveRegion: 'polite' });

    // Confirming an empty form names the first problem at its field and moves focus there.
    await frame.getByRole('button', { name: 'Confirm and pay' }).click();
    await expect.poll(() => frame.locator('#provider-error').textContent()).toBe('Choose your Mobile Money provider.');
    expect(await frame.getByLabel('MTN MoMo').getAttribute('aria-invalid')).toBe('true');
    expect(await frame.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('provider');

    await frame.getByLabel('MTN MoMo').check();
    await fillPhoneAndCode(env, frame, '024 123 4567', '+233241234567');

    const amount = frame.getByLabel('Amount to pay, in GHS');
    await amount.fill('5');
    await amount.press('Tab');
    await expect.poll(() => frame.locator('#amount-error').textContent()).toBe('The minimum is 15.98 GHS.');
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await amount.getAttribute('aria-describedby')).toBe('amount-hint amount-error');

    await amount.fill('100');
    await frame.getByLabel('Stellar address').fill(wallet);
    // The fee breakdown, before the confirm button: 1 % platform fee, 0.01 USDC network fee at 15.66.
    await expect.poll(() => frame.locator('#sum-out').textContent(), WAIT).toBe('6.31 USDC');
    const summary = await frame.evaluate(() => {
      const text = (id: string) => document.getElementById(id)!.textContent;
      const list = document.getElementById('summary-list')!;
      const before = Boolean(list.compareDocumentPosition(document.getElementById('confirm')!) & Node.DOCUMENT_POSITION_FOLLOWING);
      return [text('sum-in'), text('sum-platform-label'), text('sum-platform'), text('sum-network'), text('sum-rate'), text('sum-out'), before];
    });
    expect(summary).toEqual(['100.00 GHS', 'Platform fee (1%)', '1.00 GHS', '0.16 GHS', '1 USDC = 15.66 GHS', '6.31 USDC', true]);
    expect(await amount.getAttribute('aria-invalid')).toBeNull();

    const posts: { path: string; headers: Record<string, string> }[] = [];
    page.on('request', (r) => void (r.method() === 'POST' && posts.push({ path: new URL(r.url()).pathname, headers: r.headers() })));
    await frame.getByRole('button', { name: 'Confirm and pay' }).click();
    const heading = frame.getByRole('heading', { name: 'Approve the prompt on your phone' });
    await heading.waitFor(WAIT);
    // A merchant's order is confirmed at the widget backend with the public key and the customer's session.
    const confirms = posts.filter((p) => p.path === '/api/v1/widget/orders' || p.path === '/interactive/api/complete');
    expect(confirms.map((p) => p.path)).toEqual(['/api/v1/widget/orders']);
    expect(confirms[0]!.headers).toMatchObject({
      'x-api-key': key,
      'x-session-id': expect.any(String),
      'x-session-token': expect.any(String),
      'x-idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(await frame.evaluate(() => document.activeElement?.id)).toBe('progress-heading');
    expect(await frame.locator('#progress-text').textContent()).toBe(
      'We sent a payment prompt for 100.00 GHS to +233241234567 (MTN MoMo). Approve it to pay.',
    );
    await expect.poll(async () => (await messagesOf(page)).length, WAIT).toBe(2);

    // The customer approves; the anchor sends the USDC 2 s later and the chain confirms 5 s
    // after that. Time jumps past both at once: the page still reports each status.
    expect((await call(env, 'POST', `/_mock/mobile-money/${id}/approve`)).status).toBe(200);
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 10 } });
    await expect.poll(() => frame.locator('#status').textContent(), WAIT).toBe('Done. Your USDC is in your wallet.');

    const messages = await messagesOf(page);
    expect(messages.map((m) => m.data.transaction.status)).toEqual([
      'incomplete',
      'pending_user_transfer_start',
      'pending_anchor',
      'pending_stellar',
      'completed',
    ]);
    for (const m of messages) {
      expect(m.origin).toBe(env.origin);
      expect(Object.keys(m.data)).toEqual(['transaction']);
      expect(m.data.transaction).toMatchObject({ id, kind: 'deposit', more_info_url: expect.stringContaining(id) });
    }
    const final = env.backend.store.anchor.transactions.get(id)!;
    expect(messages.at(-1)!.data.transaction).toEqual(transactionView(env.backend.context, final));
    expect(messages.at(-1)!.data.transaction).toMatchObject({ amount_in: '100.00', amount_out: '6.31', to: wallet });
    // Embedded: no link back to the merchant (the merchant's page is right there).
    expect(await frame.locator('#back').isHidden()).toBe(true);

    // The popup saw the same statuses and posted them, addressed to the embedding origin:
    // the browser delivered none of them to the third origin's page.
    await expect.poll(() => popup.locator('#status').textContent(), WAIT).toBe('Done. Your USDC is in your wallet.');
    expect(await popup.evaluate(() => JSON.parse(document.getElementById('ramp-config')!.textContent!).targetOrigin)).toBe(embedder.origin);
    expect(await messagesOf(third)).toEqual([]);
    await Promise.all([page.close(), third.close(), popup.close()]);
  });

  it('asks the embedding page to close on Escape, addressed like its statuses, and never from a popup', { timeout: 60_000 }, async () => {
    const { key } = await createApiKey(env.backend.context, shop.merchant, { key_type: 'public', domains: [embedder.origin] });
    const { url, id } = await startDeposit(env, shop, { api_key: key });
    const page = await context.newPage();
    await page.goto(`${embedder.origin}/embed?src=${encodeURIComponent(url)}`);
    const frame = page.frames().find((f) => f.url().startsWith(url))!;
    await frame.getByLabel('Mobile Money number').focus();
    await expect.poll(async () => (await messagesOf(page)).length, WAIT).toBe(1);

    await frame.getByLabel('Mobile Money number').press('Escape');
    await expect.poll(async () => (await messagesOf(page)).length, WAIT).toBe(2);
    expect((await messagesOf(page))[1]).toEqual({ origin: env.origin, data: { type: 'sikaramp:close', transaction_id: id } });
    // Other keys ask for nothing.
    await frame.getByLabel('Mobile Money number').press('Enter');
    await frame.getByLabel('Mobile Money number').press('a');

    // The same page in a popup of the embedding page: Escape there posts nothing to the opener
    // (the frame's second Escape, pressed after it, is the next message).
    const [popup] = await Promise.all([context.waitForEvent('page'), page.evaluate((href) => void window.open(href, 'ramp'), url)]);
    await popup.getByLabel('Mobile Money number').press('Escape');
    await frame.getByLabel('Mobile Money number').press('Escape');
    await expect.poll(async () => (await messagesOf(page)).map((m) => m.data.type ?? m.data.transaction.status), WAIT).toEqual([
      'incomplete',
      'sikaramp:close',
      'incomplete',
      'sikaramp:close',
    ]);
    await Promise.all([page.close(), popup.close()]);
  });

  it('sells in the whole window: address and memo to copy, live status, then a link back', { timeout: 60_000 }, async () => {
    shop.merchant.widget_config.redirect_url = `${embedder.origin}/back?from=ramp`;
    const { url, id } = await startWithdraw(env, shop);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.origin });
    const page = await context.newPage();
    await page.goto(url);
    await page.getByLabel('Telecel Cash').check();
    await fillPhoneAndCode(env, page, '+233 20 765 4321', '+233207654321');
    await page.getByLabel('Amount to sell, in USDC').fill('20');
    await expect.poll(() => page.locator('#sum-in').textContent(), WAIT).toBe('20.00 USDC');
    expect(await page.locator('#sum-out').textContent()).toMatch(/^\d+\.\d{2} GHS$/);
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();

    await page.getByRole('heading', { name: 'Send your USDC' }).waitFor(WAIT);
    const tx = env.backend.store.anchor.transactions.get(id)!;
    expect(await page.locator('#send-address').textContent()).toBe(tx.withdraw_anchor_account);
    expect(await page.locator('#send-memo').textContent()).toBe(tx.withdraw_memo);
    expect(await page.locator('#progress-text').textContent()).toBe(
      'Send exactly 20.00 USDC to this address with this memo. Without the memo we cannot match your payment.',
    );
    await page.getByRole('button', { name: 'Copy memo' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(tx.withdraw_memo);
    await expect.poll(() => page.locator('#status').textContent()).toBe('Waiting for your USDC.');

    const paid = await call(env, 'POST', '/_mock/stellar/payments', {
      body: { from: Keypair.random().publicKey(), to: tx.withdraw_anchor_account, amount: '20.00', asset_code: 'USDC', memo: tx.withdraw_memo },
    });
    expect(paid.body.matched).toEqual({ kind: 'transaction', id });
    await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 10 } });
    await expect.poll(() => page.locator('#status').textContent(), WAIT).toBe('Done. The cedis are in your Mobile Money wallet.');

    const back = page.getByRole('link', { name: `Back to ${shop.merchant.name}` });
    await back.waitFor(WAIT);
    expect(await back.getAttribute('href')).toBe(`${embedder.origin}/back?from=ramp&transaction_id=${id}&status=completed`);
    await page.close();
  });

  it('shows the status of a buy whose form was finished before the page loaded, and reports each status after it', { timeout: 60_000 }, async () => {
    const { key } = await createApiKey(env.backend.context, shop.merchant, { key_type: 'public', domains: [embedder.origin] });
    const wallet = Keypair.random().publicKey();
    const { url, id } = await startDeposit(env, shop, { api_key: key, fiat_amount: 100, destination_address: wallet });
    // The test (or the dashboard) finishes the form before the widget's iframe has loaded the page.
    await completeForm(env, id);

    const page = await context.newPage();
    const served = page.waitForResponse((res) => res.url().startsWith(url));
    await page.goto(`${embedder.origin}/embed?src=${encodeURIComponent(url)}`);
    expect((await served).status()).toBe(200);
    const frame = page.frames().find((f) => f.url().startsWith(url))!;
    await frame.getByRole('heading', { name: 'Approve the prompt on your phone' }).waitFor(WAIT);
    expect(await frame.locator('#progress-text').textContent()).toBe(
      'We sent a payment prompt for 100.00 GHS to +233201234567 (MTN MoMo). Approve it to pay.',
    );
    expect(await frame.locator('#form').isHidden()).toBe(true);
    expect(await frame.locator('#status').textContent()).toBe('Approve the payment prompt on your phone.');
    await expect.poll(async () => (await messagesOf(page)).map((m) => m.data.transaction.status), WAIT).toEqual(['pending_user_transfer_start']);

    expect((await call(env, 'POST', `/_mock/mobile-money/${id}/approve`)).status).toBe(200);
    await advance(env, 10);
    await expect.poll(() => frame.locator('#status').textContent(), WAIT).toBe('Done. Your USDC is in your wallet.');
    const messages = await messagesOf(page);
    expect(messages.map((m) => m.data.transaction.status)).toEqual(['pending_user_transfer_start', 'pending_anchor', 'pending_stellar', 'completed']);
    for (const m of messages) expect(m).toMatchObject({ origin: env.origin, data: { transaction: { id, kind: 'deposit' } } });
    expect(messages.at(-1)!.data.transaction).toEqual(transactionView(env.backend.context, env.backend.store.anchor.transactions.get(id)!));
    await page.close();
  });

  it('shows a sell finished elsewhere: the address and memo, the status to the end, the final status when opened again; refused 30 minutes after its start', { timeout: 60_000 }, async () => {
    shop.merchant.widget_config.redirect_url = `${embedder.origin}/back?from=ramp`;
    const { url, id } = await startWithdraw(env, shop, { onchain_amount: 20 });
    await completeForm(env, id, { provider: 'telecel' });
    const tx = env.backend.store.anchor.transactions.get(id)!;

    const page = await context.newPage();
    expect((await page.goto(url))?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Send your USDC' }).waitFor(WAIT);
    expect(await page.locator('#send-address').textContent()).toBe(tx.withdraw_anchor_account);
    expect(await page.locator('#send-memo').textContent()).toBe(tx.withdraw_memo);
    expect(await page.locator('#status').textContent()).toBe('Waiting for your USDC.');
    expect(await page.locator('#form').isHidden()).toBe(true);

    await call(env, 'POST', '/_mock/stellar/payments', {
      body: { from: Keypair.random().publicKey(), to: tx.withdraw_anchor_account, amount: '20.00', asset_code: 'USDC', memo: tx.withdraw_memo },
    });
    await advance(env, 10);
    await expect.poll(() => page.locator('#status').textContent(), WAIT).toBe('Done. The cedis are in your Mobile Money wallet.');
    const back = `${embedder.origin}/back?from=ramp&transaction_id=${id}&status=completed`;
    expect(await page.getByRole('link', { name: `Back to ${shop.merchant.name}` }).getAttribute('href')).toBe(back);

    // Opened again once it is over: the final status and the way back, nothing to fill in.
    const again = await context.newPage();
    expect((await again.goto(url))?.status()).toBe(200);
    await expect.poll(() => again.locator('#status').textContent(), WAIT).toBe('Done. The cedis are in your Mobile Money wallet.');
    expect(await again.getByRole('link', { name: `Back to ${shop.merchant.name}` }).getAttribute('href')).toBe(back);
    expect(await again.locator('#form').isHidden()).toBe(true);
    expect(await again.locator('#progress').isHidden()).toBe(true);

    // The link lasts as long as the form would have: 30 minutes from the start.
    await advance(env, 30 * 60);
    const late = await context.newPage();
    expect((await late.goto(url))?.status()).toBe(404);
    expect(await late.getByRole('heading', { level: 1 }).textContent()).toBe('This link cannot be used');
    await Promise.all([page.close(), again.close(), late.close()]);
  });

  it('keeps polling, backing off, when a poll fails (an answer it cannot read, the network down), and reports every status after', { timeout: 60_000 }, async () => {
    const { key } = await createApiKey(env.backend.context, shop.merchant, { key_type: 'public', domains: [embedder.origin] });
    const { url, id } = await startDeposit(env, shop, { api_key: key, fiat_amount: 100, destination_address: Keypair.random().publicKey() });
    const page = await pausedPage(browser);
    // The second poll gets what a restarting mock's proxy might answer (200, but no history),
    // the third finds nobody listening; the others reach the mock.
    let served = 0;
    await page.route(`${env.backend.urls.interactive}/api/transaction?**`, (route) => {
      served++;
      if (served === 2) return route.fulfill({ status: 200, contentType: 'application/json', body: '{"data":null}' });
      if (served === 3) return route.abort('connectionrefused');
      return route.continue();
    });
    await page.goto(`${embedder.origin}/embed?src=${encodeURIComponent(url)}`);
    const frame = page.frames().find((f) => f.url().startsWith(url))!;
    await expect.poll(async () => (await messagesOf(page)).length, WAIT).toBe(1);
    await completeForm(env, id);
    while ((await pollTimes(frame)).length < 5) await tick(page, frame, 1_000);
    // 1 s between polls; 2 s after the first failure, 4 s after the second; 1 s again once one worked.
    expect(gapsOf(await pollTimes(frame))).toEqual([1_000, 2_000, 4_000, 1_000]);

    expect((await call(env, 'POST', `/_mock/mobile-money/${id}/approve`)).status).toBe(200);
    await advance(env, 10);
    const statuses = async () => (await messagesOf(page)).map((m) => m.data.transaction.status);
    // A second at a time until the page has reported the final status.
    await expect
      .poll(
        async () => {
          await page.clock.runFor(1_000);
          return statuses();
        },
        { ...WAIT, interval: 50 },
      )
      .toEqual(['incomplete', 'pending_user_transfer_start', 'pending_anchor', 'pending_stellar', 'completed']);
    await page.context().close();
  });

  it('waits at most 30 s between polls, however many fail in a row', { timeout: 60_000 }, async () => {
    const { url } = await startDeposit(env, shop);
    const page = await pausedPage(browser);
    await page.route(`${env.backend.urls.interactive}/api/transaction?**`, (route) => route.abort('connectionrefused'));
    await page.goto(url);
    while ((await pollTimes(page)).length < 8) await tick(page, page, 1_000);
    // Each wait doubles after a failure, up to 30 s.
    expect(gapsOf(await pollTimes(page))).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    await page.context().close();
  });

  it('shows an error page with a 404 for a link that does not exist', async () => {
    const page = await context.newPage();
    const res = await page.goto(`${env.backend.urls.interactive}?token=${'0'.repeat(48)}`);
    expect(res?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link cannot be used');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.locator('form, input, script').count()).toBe(0);
    await page.close();
  });
});

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventually, type ShopPage, stellarAccountId, useWorld, type World } from './helpers/world.js';

let world: World;
useWorld((w) => (world = w));

const types = (shop: ShopPage) => shop.events.map((e) => e.type);

/**
 * Calls `open()` as a page would (Playwright's evaluate counts as a click: a popup opens) and
 * keeps how its promise settled on `window.opened`:
 * `{ value }` or `{ error: { name, code, message, transaction } }`.
 */
const open = (page: Page) =>
  page.locator('ramp-widget').evaluate((el: any) => {
    (window as any).opened = undefined;
    el.open().then(
      (value: unknown) => ((window as any).opened = { value }),
      ({ name, code, message, transaction }: any) => ((window as any).opened = { error: { name, code, message, transaction } }),
    );
  });
const opened = (page: Page) => page.evaluate(() => (window as any).opened);

/** The transaction id the widget opened, once the interactive page shows it (its first status came). */
async function openedId(shop: ShopPage): Promise<string> {
  await eventually(() => types(shop)).toContain('ramp-status');
  return shop.events.find((e) => e.type === 'ramp-open')!.detail.id;
}

describe('await widget.open()', () => {
  it('resolves with the completed transaction, the detail ramp-complete carries', async () => {
    const shop = await world.open({ flow: 'buy', amount: '150', destination: stellarAccountId() });
    await eventually(() => types(shop)).toContain('ramp-ready');
    await open(shop.page);
    const id = await openedId(shop);
    // A second call while the flow is open starts nothing: the same promise.
    const same = await shop.page.locator('ramp-widget').evaluate((el: any) => el.open() === el.open());
    expect(same).toBe(true);
    await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
    await world.control('POST', `/mobile-money/${id}/approve`);
    await world.control('POST', '/clock/advance', { seconds: 120 });
    await eventually(() => opened(shop.page)).toBeDefined();
    const complete = shop.events.find((e) => e.type === 'ramp-complete')!;
    expect(await opened(shop.page)).toEqual({ value: complete.detail });
    expect(complete.detail.transaction).toMatchObject({ id, status: 'completed', amount_in: '150.00' });
    expect(world.sessionRequests.filter((r) => r.amount === 150)).toHaveLength(1);
    await shop.page.context().close();
  });

  it('rejects with transaction_failed and the failed transaction when the customer declines the prompt', async () => {
    const shop = await world.open({ flow: 'buy', amount: '70', destination: stellarAccountId() });
    await eventually(() => types(shop)).toContain('ramp-ready');
    await open(shop.page);
    const id = await openedId(shop);
    await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
    await world.control('POST', `/mobile-money/${id}/decline`);
    await eventually(() => opened(shop.page)).toBeDefined();
    const error = shop.events.find((e) => e.type === 'ramp-error')!.detail;
    expect(error.code).toBe('transaction_failed');
    expect(await opened(shop.page)).toEqual({
      error: { name: 'RampError', code: 'transaction_failed', message: error.message, transaction: error.transaction },
    });
    expect(error.transaction).toMatchObject({ id, status: 'error' });
    await shop.page.context().close();
  });

  it('rejects with closed when the customer closes the dialog first; the transaction goes on', async () => {
    const shop = await world.open({ flow: 'sell', amount: '20' });
    await eventually(() => types(shop)).toContain('ramp-ready');
    await open(shop.page);
    const id = await openedId(shop);
    await shop.page.keyboard.press('Escape');
    await eventually(() => opened(shop.page)).toBeDefined();
    expect(await opened(shop.page)).toEqual({
      error: { name: 'RampError', code: 'closed', message: expect.any(String), transaction: { ...shop.events.at(-1)!.detail.transaction } },
    });
    expect((await opened(shop.page)).error.transaction).toMatchObject({ id, status: 'incomplete' });
    // Closing is no ramp-error: the page's error handler is for failures.
    expect(types(shop)).not.toContain('ramp-error');
    await shop.page.context().close();
  });

  it('stays pending when the browser blocks the popup, and resolves once Continue opened it and the transaction completed', async () => {
    // open() called by the page's script, outside a click: Chromium blocks the popup.
    const shop = await world.open({ flow: 'buy', mode: 'popup', amount: '90', destination: stellarAccountId() }, { autoOpen: true });
    await eventually(() => types(shop)).toContain('ramp-error');
    expect(shop.events.find((e) => e.type === 'ramp-error')!.detail.code).toBe('popup_blocked');
    expect(await opened(shop.page)).toBeUndefined();

    const popupOpened = shop.page.waitForEvent('popup');
    await shop.page.locator('ramp-widget').locator('[part=continue]').click();
    await popupOpened;
    const id = await openedId(shop);
    await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
    await world.control('POST', `/mobile-money/${id}/approve`);
    await world.control('POST', '/clock/advance', { seconds: 120 });
    await eventually(() => opened(shop.page)).toBeDefined();
    expect(await opened(shop.page)).toEqual({ value: shop.events.find((e) => e.type === 'ramp-complete')!.detail });
    await shop.page.context().close();
  });

  it('rejects with session_failed when the backend answers a URL the widget does not open, and with secret_key for a secret key', async () => {
    const shop = await world.open({ 'session-url': `/evil-session?url=${encodeURIComponent('javascript:alert(1)')}` });
    await eventually(() => types(shop)).toContain('ramp-ready');
    await open(shop.page);
    await eventually(() => opened(shop.page)).toBeDefined();
    expect(await opened(shop.page)).toMatchObject({ error: { name: 'RampError', code: 'session_failed' } });
    expect(shop.events.find((e) => e.type === 'ramp-error')!.detail.code).toBe('session_failed');
    // A click on the button that fails leaves no unhandled rejection on the page.
    const unhandled: string[] = [];
    shop.page.on('pageerror', (error) => void unhandled.push(error.message));
    await shop.page.locator('ramp-widget').locator('[part=button]').click();
    await eventually(() => types(shop).filter((t) => t === 'ramp-error')).toHaveLength(2);
    await shop.page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(unhandled).toEqual([]);

    await shop.page.locator('ramp-widget').evaluate((el, key) => el.setAttribute('data-api-key', key), world.secretKey);
    await eventually(() => types(shop).filter((t) => t === 'ramp-error')).toHaveLength(3);
    await open(shop.page);
    await eventually(() => opened(shop.page)).toBeDefined();
    expect(await opened(shop.page)).toMatchObject({ error: { name: 'RampError', code: 'secret_key' } });
    await shop.page.context().close();
  });
});

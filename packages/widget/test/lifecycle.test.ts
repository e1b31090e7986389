import { describe, expect, it } from 'vitest';
import { eventually, type ShopPage, stellarAccountId, useWorld, type World } from './helpers/world.js';

let world: World;
useWorld((w) => (world = w));

const types = (shop: ShopPage) => shop.events.map((e) => e.type);

/**
 * The flow's states (src/lifecycle.ts) as a page meets them through open(): a call while the flow
 * is opening, blocked or open is the same transaction, never a second session.
 */
describe('open() during the flow', () => {
  it('opens the popup the browser blocked when called again in a click, for the same transaction and promise', async () => {
    // The page's script calls open() outside a click: Chromium blocks the popup.
    const shop = await world.open({ flow: 'buy', mode: 'popup', amount: '90', destination: stellarAccountId() }, { autoOpen: true });
    await eventually(() => types(shop)).toContain('ramp-error');
    expect(shop.events.find((e) => e.type === 'ramp-error')!.detail.code).toBe('popup_blocked');
    const sessions = world.sessionRequests.length;

    // The page's own button calls open() again (Playwright's evaluate counts as a click).
    const popupOpened = shop.page.waitForEvent('popup');
    await shop.page.locator('ramp-widget').evaluate((el: any) => {
      (window as any).again = el.open();
      (window as any).again.then((value: unknown) => ((window as any).againValue = value));
    });
    await popupOpened;
    await eventually(() => types(shop)).toContain('ramp-status');
    const id = shop.events.find((e) => e.type === 'ramp-open')!.detail.id;
    expect(await shop.page.locator('ramp-widget').locator('[part=continue]').count()).toBe(0);
    await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
    await world.control('POST', `/mobile-money/${id}/approve`);
    await world.control('POST', '/clock/advance', { seconds: 120 });
    await eventually(() => shop.page.evaluate(() => (window as any).opened)).toBeDefined();
    // The promise the blocked call got and the one of this call settle alike: one transaction.
    const { opened, again } = await shop.page.evaluate(() => ({ opened: (window as any).opened, again: (window as any).againValue }));
    expect(opened).toEqual({ value: again });
    expect(again.transaction).toMatchObject({ id, status: 'completed' });
    expect(world.sessionRequests.length).toBe(sessions);
    expect(types(shop).filter((t) => t === 'ramp-open')).toHaveLength(1);
    await shop.page.context().close();
  });

  it('gives a ramp-open listener that calls open() the same promise, not a second transaction', async () => {
    const shop = await world.open({ flow: 'sell', mode: 'iframe', amount: '20' });
    await eventually(() => types(shop)).toContain('ramp-ready');
    const sessions = world.sessionRequests.length;
    await shop.page.locator('ramp-widget').evaluate((el: any) => {
      el.addEventListener('ramp-open', () => ((window as any).inner = el.open()), { once: true });
      (window as any).outer = el.open();
    });
    await shop.page.getByRole('dialog').waitFor();
    await eventually(() => types(shop)).toContain('ramp-status');
    expect(await shop.page.evaluate(() => (window as any).inner === (window as any).outer)).toBe(true);
    expect(world.sessionRequests.length - sessions).toBe(1);
    expect(types(shop).filter((t) => t === 'ramp-open')).toHaveLength(1);
    await shop.page.context().close();
  });
});

/** Calls open() as a page would (in a click) and keeps how its promise settled on `window.opened`. */
const open = (shop: ShopPage) =>
  shop.page.locator('ramp-widget').evaluate((el: any) => {
    (window as any).opened = undefined;
    el.open().then(
      (value: unknown) => ((window as any).opened = { value }),
      ({ code, transaction }: any) => ((window as any).opened = { error: { code, transaction } }),
    );
  });
const opened = (shop: ShopPage) => shop.page.evaluate(() => (window as any).opened);
/** The transaction an event names, if any. */
const named = (detail: any) => detail?.transaction?.id ?? detail?.id;
const complete = async (id: string) => {
  await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
  await world.control('POST', `/mobile-money/${id}/approve`);
  await world.control('POST', '/clock/advance', { seconds: 120 });
};

describe('from one flow to the next', () => {
  it('stops polling a closed transaction once a new flow opens: its end settles nothing and fires nothing', async () => {
    const shop = await world.open({ flow: 'buy', mode: 'iframe', amount: '60', destination: stellarAccountId(), 'status-url': '/status' });
    await eventually(() => types(shop)).toContain('ramp-ready');
    await open(shop);
    await eventually(() => types(shop)).toContain('ramp-status');
    const old = shop.events.find((e) => e.type === 'ramp-open')!.detail.id;
    await shop.page.keyboard.press('Escape');
    await eventually(() => opened(shop)).toMatchObject({ error: { code: 'closed' } });
    const closedAt = shop.events.length;

    // The next flow is opening (the merchant backend has not answered) when the old transaction ends.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await shop.page.route('**/session', async (route) => {
      await held;
      await route.continue();
    });
    await open(shop);
    await complete(old);
    // Poll interval 200 ms: the old poll had several turns to report it.
    await shop.page.waitForTimeout(1_500);
    release();
    await eventually(() => types(shop).slice(closedAt)).toEqual(['ramp-open', 'ramp-status']);
    const id = shop.events.at(-2)!.detail.id;
    expect(id).not.toBe(old);
    expect(await opened(shop)).toBeUndefined();
    expect(shop.events.slice(closedAt).filter((e) => named(e.detail) === old)).toEqual([]);

    // The new promise is settled by its own transaction.
    await complete(id);
    await eventually(() => opened(shop)).toBeDefined();
    expect((await opened(shop)).value.transaction).toMatchObject({ id, status: 'completed' });
    expect(shop.events.slice(closedAt).filter((e) => named(e.detail) === old)).toEqual([]);
    await shop.page.context().close();
  });

  it('returns focus to the open button when the popup Continue opened is closed (keyboard)', async () => {
    const shop = await world.open({ flow: 'sell', mode: 'popup', amount: '20' }, { autoOpen: true });
    await eventually(() => shop.events.find((e) => e.type === 'ramp-error')?.detail.code).toBe('popup_blocked');
    const widget = shop.page.locator('ramp-widget');
    await widget.locator('[part=continue]').waitFor();
    await shop.page.locator('#before').focus();
    await shop.page.keyboard.press('Tab');
    await shop.page.keyboard.press('Tab');
    expect(await widget.locator('[part=continue]').evaluate((el) => el.matches(':focus'))).toBe(true);
    const popupOpened = shop.page.waitForEvent('popup');
    await shop.page.keyboard.press('Enter');
    const popup = await popupOpened;
    await eventually(() => types(shop)).toContain('ramp-open');
    await popup.close();
    await eventually(() => types(shop)).toContain('ramp-close');
    // Continue is gone; focus is on the open button, not lost to <body>.
    const active = () =>
      shop.page.evaluate(() => {
        const el = document.activeElement;
        return `${el?.localName} ${el?.shadowRoot?.activeElement?.getAttribute('part')}`;
      });
    expect(await active()).toBe('ramp-widget button');
    await shop.page.context().close();
  });

  it('keeps the mode a flow started with: Continue opens the popup after the page switched to redirect; the next open redirects', async () => {
    const shop = await world.open({ flow: 'sell', mode: 'popup', amount: '20' }, { autoOpen: true });
    await eventually(() => shop.events.find((e) => e.type === 'ramp-error')?.detail.code).toBe('popup_blocked');
    const widget = shop.page.locator('ramp-widget');
    await widget.locator('[part=continue]').waitFor();
    await widget.evaluate((el) => el.setAttribute('mode', 'redirect'));

    const popupOpened = shop.page.waitForEvent('popup');
    await widget.locator('[part=continue]').click();
    const popup = await popupOpened;
    await eventually(() => types(shop)).toContain('ramp-status');
    const first = shop.events.find((e) => e.type === 'ramp-open')!.detail;
    expect(first.mode).toBe('popup');
    expect(new URL(shop.page.url()).origin).toBe(world.shop);
    await eventually(() => popup.url()).toBe(first.url);
    expect(await widget.locator('[part=continue]').count()).toBe(0);
    await popup.close();
    await eventually(() => opened(shop)).toMatchObject({ error: { code: 'closed' } });

    // The change takes effect on the next open: this one leaves for the flow.
    await widget.locator('[part=button]').click();
    await shop.page.waitForURL((url) => url.origin === new URL(world.mock.url).origin);
    expect(shop.events.filter((e) => e.type === 'ramp-open').map((e) => e.detail.mode)).toEqual(['popup', 'redirect']);
    await shop.page.context().close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stellarAccountId, startWorld, type ShopPage, type World } from './helpers/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
}, 60_000);
afterAll(async () => {
  await world?.close();
});

const types = (events: { type: string }[]) => events.map((e) => e.type);
const statuses = (events: { type: string; detail: any }[]) =>
  events.filter((e) => e.type === 'ramp-status').map((e) => e.detail.transaction.status);
const widget = (shop: ShopPage) => shop.page.locator('ramp-widget');

/** The transaction id the widget opened, from its ramp-open event. */
async function openedId(shop: ShopPage): Promise<string> {
  await expect.poll(() => types(shop.events), { timeout: 10_000 }).toContain('ramp-open');
  return shop.events.find((e) => e.type === 'ramp-open')!.detail.id;
}

describe('<ramp-widget> in Chromium', () => {
  it('applies the theme from the widget config, and lets the page override it', async () => {
    const { page, events } = await world.open();
    await expect.poll(() => types(events)).toContain('ramp-ready');
    const ready = events.find((e) => e.type === 'ramp-ready')!;
    expect(ready.detail.config.theme).toEqual({ primary_color: '#7c3aed', border_radius: '3px' });
    expect(ready).toMatchObject({ bubbles: true, composed: true });
    const style = () =>
      page.locator('ramp-widget').evaluate((el) => {
        const button = el.shadowRoot!.querySelector('[part=button]')!;
        const s = getComputedStyle(button);
        return { background: s.backgroundColor, radius: s.borderTopLeftRadius };
      });
    expect(await style()).toEqual({ background: 'rgb(124, 58, 237)', radius: '3px' });
    await page.addStyleTag({ content: 'ramp-widget { --ramp-primary-color: #ff0000 } ramp-widget::part(button) { border-radius: 20px }' });
    expect(await style()).toEqual({ background: 'rgb(255, 0, 0)', radius: '20px' });
    await page.context().close();
  });

  it('refuses a secret key: a visible error, an error event, and no request at all', async () => {
    const { page, events, requests } = await world.open({ 'data-api-key': world.secretKey });
    await expect.poll(() => types(events)).toEqual(['ramp-error']);
    expect(events[0]!.detail).toMatchObject({ code: 'secret_key' });
    expect(events[0]!.detail.message).not.toContain(world.secretKey);
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('Secret key refused');
    const button = page.locator('ramp-widget').locator('[part=button]');
    expect(await button.isDisabled()).toBe(true);
    await page.locator('ramp-widget').evaluate((el: any) => el.open());
    // Nothing left the shop's own origin (no config request), and the shop's backend was not asked.
    expect(requests.filter((url) => !url.startsWith(world.shop))).toEqual([]);
    expect(world.sessionRequests).toHaveLength(0);
    await page.context().close();
  });

  it('completes a buy in the modal iframe, reporting each status until completion', async () => {
    const destination = stellarAccountId();
    const shop = await world.open({ flow: 'buy', mode: 'iframe', amount: '150', destination }, { lang: 'en' });
    await expect.poll(() => types(shop.events)).toContain('ramp-ready');
    const trigger = widget(shop).locator('[part=button]');
    await trigger.click();
    const id = await openedId(shop);

    // The merchant backend was asked with what the page passed; the key stayed on the server.
    expect(world.sessionRequests.at(-1)).toEqual({ flow: 'buy', amount: 150, asset: 'USDC', destination, lang: 'en' });
    const dialog = shop.page.getByRole('dialog', { name: 'Buy USDC' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    const frame = widget(shop).locator('iframe');
    expect(await frame.getAttribute('title')).toBe('Buy USDC');
    expect(await frame.getAttribute('allow')).toBe('camera; microphone; payment; clipboard-write; accelerometer; gyroscope; fullscreen');
    const src = new URL((await frame.getAttribute('src'))!);
    expect(src.origin).toBe(new URL(world.mock.url).origin);
    expect(src.searchParams.get('origin')).toBe(world.shop);
    expect(src.searchParams.get('lang')).toBe('en');
    await expect.poll(() => statuses(shop.events), { timeout: 10_000 }).toEqual(['incomplete']);

    // The customer finishes the form and approves the Mobile Money prompt; the chain confirms.
    await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
    await world.control('POST', `/mobile-money/${id}/approve`);
    await world.control('POST', '/clock/advance', { seconds: 120 });
    await expect.poll(() => types(shop.events), { timeout: 15_000 }).toContain('ramp-complete');
    expect(statuses(shop.events)).toEqual(['incomplete', 'pending_user_transfer_start', 'pending_anchor', 'pending_stellar', 'completed']);
    const complete = shop.events.find((e) => e.type === 'ramp-complete')!;
    expect(complete).toMatchObject({ bubbles: true, composed: true });
    expect(complete.detail.transaction).toMatchObject({ id, kind: 'deposit', status: 'completed', amount_in: '150.00' });

    // Closing hands focus back to the button that opened it.
    await widget(shop).locator('[part=close]').click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(types(shop.events).slice(-2)).toEqual(['ramp-complete', 'ramp-close']);
    expect(await trigger.evaluate((el) => el.matches(':focus'))).toBe(true);
    expect(types(shop.events).filter((t) => t === 'ramp-error')).toEqual([]);
    await shop.page.context().close();
  });

  it('completes a sell in a popup opened in the click, and notices the customer closing it', async () => {
    const shop = await world.open({ flow: 'sell', mode: 'popup', amount: '20' });
    await expect.poll(() => types(shop.events)).toContain('ramp-ready');
    expect(await widget(shop).locator('[part=wallet]').count()).toBe(0);
    const trigger = widget(shop).locator('[part=button]');
    const popupOpened = shop.page.waitForEvent('popup');
    await trigger.click();
    const popup = await popupOpened;
    const id = await openedId(shop);
    expect(shop.events.find((e) => e.type === 'ramp-open')!.detail).toMatchObject({ id, mode: 'popup' });
    await expect.poll(() => new URL(popup.url()).origin).toBe(new URL(world.mock.url).origin);
    await expect.poll(() => statuses(shop.events), { timeout: 10_000 }).toEqual(['incomplete']);

    // The form shows the anchor's address and memo; the customer's wallet pays them.
    const { transaction } = await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'telecel', phone: '+233201234567' });
    await expect.poll(() => statuses(shop.events), { timeout: 10_000 }).toContain('pending_user_transfer_start');
    const waiting = shop.events.find((e) => e.type === 'ramp-status' && e.detail.transaction.status === 'pending_user_transfer_start')!;
    expect(waiting.detail.transaction).toMatchObject({
      kind: 'withdrawal',
      withdraw_anchor_account: transaction.withdraw_anchor_account,
      withdraw_memo: transaction.withdraw_memo,
    });
    await world.control('POST', '/stellar/payments', {
      from: stellarAccountId(),
      to: transaction.withdraw_anchor_account,
      amount: transaction.amount_in,
      asset_code: 'USDC',
      memo: transaction.withdraw_memo,
    });
    await world.control('POST', '/clock/advance', { seconds: 120 });
    await expect.poll(() => types(shop.events), { timeout: 15_000 }).toContain('ramp-complete');
    expect(statuses(shop.events)).toEqual(['incomplete', 'pending_user_transfer_start', 'pending_external', 'pending_payout_confirmation', 'completed']);

    // The customer closes the popup: the page hears of it, and focus is back on the button.
    await popup.close();
    await expect.poll(() => types(shop.events).at(-1)).toBe('ramp-close');
    expect(shop.events.at(-1)!.detail.transaction).toMatchObject({ id, status: 'completed' });
    expect(await trigger.evaluate((el) => el.matches(':focus'))).toBe(true);
    await shop.page.context().close();
  });
});

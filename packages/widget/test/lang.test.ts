import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventually, useWorld, type World } from './helpers/world.js';

let world: World;
useWorld((w) => (world = w));


/** Every text of the widget a customer can see or hear, as it is now. */
const texts = (page: Page) =>
  page.locator('ramp-widget').evaluate((el) => {
    const part = (name: string) => el.shadowRoot!.querySelector(`[part=${name}]`);
    return {
      button: part('button')?.textContent,
      wallet: part('wallet')?.textContent,
      status: part('status')?.textContent,
      message: part('message')?.textContent,
      continue: part('continue')?.textContent,
      dialog: part('dialog')?.getAttribute('aria-label'),
      close: part('close')?.getAttribute('aria-label'),
      frame: part('frame')?.getAttribute('title'),
    };
  });

/** Holds the shop backend's session answers until the returned function is called. */
async function holdSessions(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/session', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

describe("<ramp-widget>'s own texts follow lang", () => {
  it('speaks French on a French page: button, wallet, loading, dialog, close, and the page inside', async () => {
    const shop = await world.open({ flow: 'buy', amount: '150' }, { lang: 'fr-GH' });
    await eventually(() => shop.events.map((e) => e.type)).toContain('ramp-ready');
    expect(await texts(shop.page)).toMatchObject({ button: 'Acheter des USDC', wallet: 'Connecter un portefeuille', status: '' });

    const release = await holdSessions(shop.page);
    await shop.page.locator('ramp-widget').locator('[part=button]').click();
    await eventually(async () => (await texts(shop.page)).status).toBe('Chargement…');
    release();
    const dialog = shop.page.getByRole('dialog', { name: 'Acheter des USDC' });
    await dialog.waitFor();
    expect(await texts(shop.page)).toMatchObject({ status: '', dialog: 'Acheter des USDC', close: 'Fermer', frame: 'Acheter des USDC' });
    expect(await shop.page.getByRole('button', { name: 'Fermer' }).count()).toBe(1);
    // The interactive page is in French as well, from the same lang the backend passed on.
    await eventually(() => shop.page.locator('ramp-widget').locator('iframe').contentFrame().locator('h1').textContent()).toBe('Acheter des USDC');
    await shop.page.keyboard.press('Escape');
    await eventually(() => dialog.count()).toBe(0);

    // The page switches to English: the texts follow, without a reload.
    await shop.page.evaluate(() => document.documentElement.setAttribute('lang', 'en'));
    await eventually(async () => (await texts(shop.page)).button).toBe('Buy USDC');
    expect((await texts(shop.page)).wallet).toBe('Connect wallet');
    await shop.page.context().close();
  });

  it("follows the element's own lang over the page's, and says its errors in it", async () => {
    const shop = await world.open({ flow: 'sell', mode: 'popup' }, { lang: 'en', autoOpen: true });
    // open() outside a click: the browser blocks the popup.
    await eventually(() => shop.events.map((e) => e.type)).toContain('ramp-error');
    expect(await texts(shop.page)).toMatchObject({ button: 'Sell USDC', message: 'Popup blocked.', continue: 'Continue' });
    expect(shop.events.find((e) => e.type === 'ramp-error')!.detail).toMatchObject({ code: 'popup_blocked', message: 'Popup blocked.' });

    await shop.page.locator('ramp-widget').evaluate((el) => el.setAttribute('lang', 'fr'));
    await eventually(async () => (await texts(shop.page)).button).toBe('Vendre des USDC');
    expect((await texts(shop.page)).continue).toBe('Continuer');

    // An error raised now is in French, on the page and in the event.
    await shop.page.locator('ramp-widget').evaluate((el, key) => el.setAttribute('data-api-key', key), world.secretKey);
    await eventually(async () => (await texts(shop.page)).message).toBe('Ce n’est pas une clé publique.');
    expect(shop.events.at(-1)!.detail).toMatchObject({ code: 'secret_key', message: 'Ce n’est pas une clé publique.' });
    expect(await shop.page.getByRole('alert').textContent()).toBe('Ce n’est pas une clé publique.');
    await shop.page.context().close();
  });

  it('prefixes a failure it reports in French, keeping the detail it was given', async () => {
    const shop = await world.open({ 'session-url': `/evil-session?url=${encodeURIComponent('data:text/html,x')}` }, { lang: 'fr' });
    await eventually(() => shop.events.map((e) => e.type)).toContain('ramp-ready');
    await shop.page.locator('ramp-widget').locator('[part=button]').click();
    await eventually(async () => (await texts(shop.page)).message).toBe('Session : not https');
    expect(shop.events.at(-1)!.detail).toMatchObject({ code: 'session_failed', message: 'Session : not https' });
    await shop.page.context().close();
  });
});

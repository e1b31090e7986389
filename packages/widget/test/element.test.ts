import { describe, expect, it } from 'vitest';
import { eventually, stellarAccountId, useWorld, type World } from './helpers/world.js';

let world: World;
useWorld((w) => (world = w));


/**
 * A page of the shop's origin with no widget on it yet: the test writes the element, then loads
 * the widget (an import() written as text, which vitest's transform leaves alone).
 */
async function blankPage() {
  const context = await world.browser.newContext();
  await context.route((url) => !['127.0.0.1', 'localhost'].includes(url.hostname), (route) => route.abort());
  const page = await context.newPage();
  await page.goto(`${world.shop}/blank`);
  return page;
}

describe('<ramp-widget> as an element', () => {
  it('reads its attributes (numbers as numbers), keeps a property set before it was defined, and re-renders on each change', async () => {
    const page = await blankPage();
    const destination = stellarAccountId();
    const read = await page.evaluate(async (destination) => {
      document.body.innerHTML = '<ramp-widget amount="20" poll-interval="300"></ramp-widget><ramp-widget></ramp-widget>';
      const [el, plain] = [...document.querySelectorAll('ramp-widget')] as any[];
      el.destination = destination;
      await new Function("return import('/widget/ramp-widget.js')")();
      await new Promise((resolve) => setTimeout(resolve));
      const { amount, pollInterval, flow, mode, asset, allow } = plain;
      return {
        el: { amount: el.amount, pollInterval: el.pollInterval, destination: el.destination, wallet: !!el.shadowRoot.querySelector('[part=wallet]') },
        plain: { amount, pollInterval, flow, mode, asset, allow, wallet: !!plain.shadowRoot.querySelector('[part=wallet]') },
      };
    }, destination);
    expect(read).toEqual({
      el: { amount: 20, pollInterval: 300, destination, wallet: false },
      plain: {
        amount: undefined,
        pollInterval: 5000,
        flow: 'buy',
        mode: 'iframe',
        asset: 'USDC',
        allow: 'camera; microphone; payment; clipboard-write; accelerometer; gyroscope; fullscreen',
        wallet: true,
      },
    });
    const el = page.locator('ramp-widget').first();
    const button = el.locator('[part=button]');
    await el.evaluate((el) => el.setAttribute('flow', 'sell'));
    await eventually(() => button.textContent()).toBe('Sell USDC');
    expect(await el.locator('[part=dialog]').count()).toBe(0);
    await el.evaluate((el: any) => {
      el.flow = 'buy';
      el.removeAttribute('amount');
    });
    await eventually(() => button.textContent()).toBe('Buy USDC');
    expect(await el.locator('[part=wallet]').count()).toBe(0);
    // The property set before the element was defined is reactive like any other.
    await el.evaluate((el: any) => (el.destination = ''));
    await eventually(() => el.locator('[part=wallet]').textContent()).toBe('Connect wallet');
    expect(await el.evaluate((el: any) => el.amount)).toBeNull();
    await page.context().close();
  });

  it('reads the config again when the key changes, and refuses a secret key set later', async () => {
    const shop = await world.open();
    await eventually(() => shop.events.map((e) => e.type)).toEqual(['ramp-ready']);
    await shop.page.locator('ramp-widget').evaluate((el, key) => el.setAttribute('data-api-key', key), world.secretKey);
    await eventually(() => shop.events.map((e) => e.type)).toEqual(['ramp-ready', 'ramp-error']);
    expect(shop.events[1]!.detail).toMatchObject({ code: 'secret_key' });
    expect(await shop.page.locator('ramp-widget').locator('[part=button]').isDisabled()).toBe(true);
    await shop.page.context().close();
  });

  it('is styled where the browser cannot construct a stylesheet (a <style> in its shadow root)', async () => {
    const page = await blankPage();
    const style = await page.evaluate(async () => {
      delete (globalThis as any).CSSStyleSheet;
      document.body.innerHTML = '<ramp-widget></ramp-widget>';
      await new Function("return import('/widget/ramp-widget.js')")();
      await new Promise((resolve) => setTimeout(resolve));
      const button = document.querySelector('ramp-widget')!.shadowRoot!.querySelector('[part=button]')!;
      const s = getComputedStyle(button);
      return { background: s.backgroundColor, radius: s.borderTopLeftRadius };
    });
    expect(style).toEqual({ background: 'rgb(15, 118, 110)', radius: '12px' });
    await page.context().close();
  });
});

import { describe, expect, it } from 'vitest';
import { eventually, useWorld, type World } from './helpers/world.js';

let world: World;
useWorld((w) => (world = w));


describe('<ramp-widget> while the session endpoint answers', () => {
  it('shows the button busy, announces it, keeps focus on it, and sends one session request for two clicks', async () => {
    const shop = await world.open({ flow: 'sell', mode: 'iframe', amount: '20' });
    await eventually(() => shop.events.map((e) => e.type)).toContain('ramp-ready');
    // The shop's backend is slow: its answer waits until the test lets it through.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await shop.page.route('**/session', async (route) => {
      await held;
      await route.continue();
    });
    const widget = shop.page.locator('ramp-widget');
    const button = widget.locator('[part=button]');
    const status = shop.page.getByRole('status');
    const state = () =>
      button.evaluate((el) => ({
        busy: el.getAttribute('aria-busy'),
        disabled: el.getAttribute('aria-disabled'),
        opacity: getComputedStyle(el).opacity,
      }));
    expect(await state()).toEqual({ busy: 'false', disabled: 'false', opacity: '1' });
    expect(await status.textContent()).toBe('');

    const before = world.sessionRequests.length;
    await button.focus();
    await shop.page.keyboard.press('Enter');
    await eventually(() => state()).toEqual({ busy: 'true', disabled: 'true', opacity: '0.7' });
    expect(await status.textContent()).toBe('Loading…');
    expect(await status.isVisible()).toBe(true);
    // Still focusable, so keyboard focus stays where it was; the second click starts nothing.
    expect(await button.evaluate((el) => el.matches(':focus'))).toBe(true);
    // (force: a real click at the button, which Playwright would otherwise wait to see enabled)
    await button.click({ force: true });
    await shop.page.keyboard.press('Enter');

    release();
    await eventually(() => shop.events.filter((e) => e.type === 'ramp-open')).toHaveLength(1);
    await eventually(() => state()).toEqual({ busy: 'false', disabled: 'false', opacity: '1' });
    expect(await status.textContent()).toBe('');
    expect(world.sessionRequests.length - before).toBe(1);
    await shop.page.getByRole('dialog').waitFor();
    expect(shop.events.filter((e) => e.type === 'ramp-open')).toHaveLength(1);
    await shop.page.context().close();
  });
});

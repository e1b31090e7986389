import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from './helpers/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
}, 60_000);
afterAll(async () => {
  await world?.close();
});

const types = (events: { type: string }[]) => events.map((e) => e.type);

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
});

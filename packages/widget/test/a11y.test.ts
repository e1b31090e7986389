/**
 * axe-core on <ramp-widget> in each state a customer meets, in English and French: idle, busy
 * while the session is asked for, an error with the Continue button, and the open dialog. axe
 * looks into the element's open shadow root; the interactive page inside the iframe is the
 * mock's, checked by its own tests.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventually, useWorld, type World } from './helpers/world.js';

// axe-core as the mock server's tests load it (a devDependency there; the widget has none of its own).
const AXE_SOURCE = readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@sikaramp/mock-server/package.json')).resolve('axe-core/axe.min.js'),
  'utf8',
);

let world: World;
useWorld((w) => (world = w));


/** axe-core's violations within the element (its shadow tree included), as `rule: targets`. */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const result = await (window as any).axe.run(document.querySelector('ramp-widget'), { resultTypes: ['violations'], iframes: false });
    if (result.passes.length === 0) return ['axe-core checked nothing'];
    return (result.violations as { id: string; nodes: { target: unknown[] }[] }[]).map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
}

describe.each(['en', 'fr'])('<ramp-widget> under axe-core (lang %s)', (lang) => {
  it('has no violations idle, busy, or with the open dialog', async () => {
    const shop = await world.open({ flow: 'buy', amount: '150' }, { lang });
    await eventually(() => shop.events.map((e) => e.type)).toContain('ramp-ready');
    expect(await violations(shop.page)).toEqual([]);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await shop.page.route('**/session', async (route) => {
      await held;
      await route.continue();
    });
    await shop.page.locator('ramp-widget').locator('[part=button]').click();
    await eventually(() => shop.page.locator('ramp-widget').locator('[part=button]').getAttribute('aria-busy')).toBe('true');
    expect(await violations(shop.page)).toEqual([]);

    release();
    await shop.page.getByRole('dialog').waitFor();
    expect(await violations(shop.page)).toEqual([]);
    // axe does look into the shadow root: the close button without a name is flagged.
    await shop.page.locator('ramp-widget').evaluate((el) => {
      const close = el.shadowRoot!.querySelector('[part=close]')!;
      close.removeAttribute('aria-label');
      close.textContent = '';
    });
    expect((await violations(shop.page)).map((v) => v.split(':')[0])).toEqual(['button-name']);
    await shop.page.context().close();
  });

  it('has no violations showing an error and the Continue button', async () => {
    const shop = await world.open({ flow: 'sell', mode: 'popup' }, { lang, autoOpen: true });
    await eventually(() => shop.events.map((e) => e.type)).toContain('ramp-error');
    await shop.page.locator('ramp-widget').locator('[part=continue]').waitFor();
    expect(await violations(shop.page)).toEqual([]);
    await shop.page.context().close();
  });
});

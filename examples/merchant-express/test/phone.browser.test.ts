/**
 * The demo shop's page on a phone, in headless Chromium: at 320, 360 and 414 px wide it does
 * not scroll sideways, has one `main` landmark, buttons of at least 44 px, and no axe-core
 * violation. axe-core is the mock server's dev dependency (its phone test uses it too), read
 * from that package rather than added here a second time.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/chromium.ts';
import { startDemo, type Demo } from '../src/demo.ts';
import { tempDatabase } from './helpers.ts';

const AXE_SOURCE = readFileSync(createRequire(new URL('../../../mock-server/package.json', import.meta.url)).resolve('axe-core/axe.min.js'), 'utf8');

let demo: Demo;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  demo = await startDemo({ port: 0, mockPort: 0, databasePath: tempDatabase(), log: () => {}, env: {} });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  context.setDefaultTimeout(30_000);
  page = await context.newPage();
  await page.goto(demo.url);
  await page.locator('ramp-widget[flow=buy]').locator('[part=button]').waitFor();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

describe('the demo shop on a phone', () => {
  it('fits 320, 360 and 414 px with one main landmark, 44 px buttons and no axe-core violation', { timeout: 60_000 }, async () => {
    await page.evaluate(AXE_SOURCE);
    const findings = [];
    for (const width of [320, 360, 414]) {
      await page.setViewportSize({ width, height: 740 });
      const layout = await page.evaluate(() => ({
        documentWidth: document.documentElement.scrollWidth,
        viewportWidth: innerWidth,
        mains: document.querySelectorAll('main, [role=main]').length,
        smallButtons: [...document.querySelectorAll('button')]
          .filter((b) => b.getClientRects().length > 0 && b.getBoundingClientRect().height < 44)
          .map((b) => b.textContent),
      }));
      const violations = await page.evaluate(async () => {
        const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
        return (result.violations as { id: string; nodes: { target: string[] }[] }[]).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      });
      findings.push({ width, ...layout, violations });
    }
    expect(findings).toEqual([320, 360, 414].map((width) => ({ width, documentWidth: width, viewportWidth: width, mains: 1, smallButtons: [], violations: [] })));
  });
});

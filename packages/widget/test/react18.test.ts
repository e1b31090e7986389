/**
 * @sikaramp/widget/react on React 18, which the peer range promises: React 18 sets every prop of a
 * custom element as an attribute and never listens to its events, so the wrapper (@lit/react)
 * does both. The apps are bundled with `react` and `react-dom` mapped to React 18 (the
 * react-18 / react-dom-18 devDependencies); the published wrapper still imports `react`.
 */
import { spawnSync } from 'node:child_process';
import { build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleApp, checkReactApp, checkReactCallbackProp, completeBuy, openApp } from './fixtures/frameworks/page.js';
import { ensureBuilt, PACKAGE_DIR } from './helpers/dist.js';
import { eventually, startWorld, stellarAccountId, type World } from './helpers/world.js';

/** `react`, `react-dom` and their subpaths (the JSX runtime, /client, /server) resolved to React 18. */
const react18: Plugin = {
  name: 'react-18',
  setup(build) {
    build.onResolve({ filter: /^react(-dom)?(\/|$)/ }, ({ path, kind }) =>
      build.resolve(path.replace(/^react(-dom)?/, 'react$1-18'), { kind, resolveDir: PACKAGE_DIR }),
    );
  },
};

/** React 18's server renderer on the shop's page (react18-server.tsx), in plain Node: the HTML, and what it printed on stderr. */
async function renderOnServer(config: Record<string, unknown>): Promise<{ html: string; stderr: string }> {
  ensureBuilt();
  const result = await build({
    entryPoints: [new URL('fixtures/frameworks/react18-server.tsx', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    platform: 'node',
    jsx: 'automatic',
    // Development: React prints its warnings then.
    define: { 'process.env.NODE_ENV': '"development"' },
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    nodePaths: [`${PACKAGE_DIR}/node_modules`],
    plugins: [react18],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  // The bundle on stdin (too long for an argument), the config in $SHOP.
  const run = spawnSync(process.execPath, ['--input-type=module', '-'], { input: code, env: { ...process.env, SHOP: JSON.stringify(config) }, encoding: 'utf8' });
  if (run.status !== 0) throw Error(run.stderr || String(run.error));
  return { html: run.stdout, stderr: run.stderr };
}

let world: World;
let app19: string;
let app: string;
let devApp: string;
beforeAll(async () => {
  [world, app19, app, devApp] = await Promise.all([
    startWorld(),
    // The React 19 test's app, unchanged, on React 18.
    bundleApp('react-app.tsx', { plugins: [react18] }),
    bundleApp('react18-app.tsx', { plugins: [react18] }),
    // React's development build prints hydration mismatches.
    bundleApp('react18-app.tsx', { plugins: [react18], define: { 'process.env.NODE_ENV': '"development"' } }),
  ]);
}, 60_000);
afterAll(async () => {
  await world?.close();
});

describe('@sikaramp/widget/react, rendered by React 18 in Chromium', () => {
  it("runs react.test.ts's app: props as properties, typed callbacks, a re-render, and its ref completes a buy", async () => {
    // The bundles carry React 18 and no React 19: the mapping took.
    for (const bundle of [app19, app, devApp]) expect([bundle.includes('"18.3.1"'), bundle.includes('"19.3.1"')]).toEqual([true, false]);
    await checkReactApp(world, app19);
  });

  it('passes a callback prop (getSession) to the element as a property, not an attribute', () => checkReactCallbackProp(world, app19));

  it('sets flow, mode and amount as properties that a state change updates; a secret key reaches onRampError as the real event', async () => {
    const destination = stellarAccountId();
    const { page, calls, errors } = await openApp(world, app, { destination });
    const names = () => calls.map((call) => call.name);
    const widget = page.locator('ramp-widget');
    await eventually(() => names()).toContain('ready');
    // The real event, its target the element the ref holds.
    expect(calls.find((call) => call.name === 'ready')!.value).toEqual(['ramp-ready', true, expect.stringMatching(/\S/)]);
    expect(await widget.evaluate((el: any) => [el.flow, el.mode, el.amount, el.apiKey])).toEqual(['buy', 'popup', 150, world.publicKey]);
    await page.click('#sell');
    await eventually(() => widget.evaluate((el: any) => [el.flow, el.amount])).toEqual(['sell', 20]);
    // The element acts on its new state: the customer's click opens a sell of 20 in a popup.
    await widget.locator('[part=button]').click();
    await eventually(() => names()).toContain('open');
    expect(calls.find((call) => call.name === 'open')!.value).toMatchObject({ mode: 'popup' });
    expect(world.sessionRequests.find((r) => r.destination === destination)).toMatchObject({ flow: 'sell', amount: 20 });

    // A secret key, as the attribute the app sets: the element refuses it with ramp-error.
    await widget.evaluate((el, key) => el.setAttribute('data-api-key', key), world.secretKey);
    await eventually(() => names()).toContain('error');
    expect(calls.find((call) => call.name === 'error')!.value).toEqual(['ramp-error', 'secret_key']);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('unmounting removes the listeners: an event the removed element dispatches calls no callback', async () => {
    const { page, calls, errors } = await openApp(world, app, { destination: stellarAccountId() });
    const names = () => calls.map((call) => call.name);
    await eventually(() => names()).toContain('ready');
    await page.click('#unmount');
    expect(await page.locator('ramp-widget').count()).toBe(0);
    const before = calls.length;
    // Each event the element has, dispatched on it as the element does.
    await page.evaluate(() => {
      const removed = (window as any).removed as HTMLElement;
      for (const type of ['ramp-ready', 'ramp-open', 'ramp-status', 'ramp-complete', 'ramp-error', 'ramp-close'])
        removed.dispatchEvent(new CustomEvent(type, { detail: { transaction: { status: 'completed' }, config: {} }, bubbles: true, composed: true }));
    });
    await page.waitForTimeout(100);
    expect(calls.slice(before)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('@sikaramp/widget/react, rendered by React 18 on the server', () => {
  it('renderToString renders the element with the attributes it needs before hydration, and hydrateRoot takes it over without a mismatch', async () => {
    const destination = stellarAccountId();
    const config = { apiKey: world.publicKey, apiBase: world.mock.url, destination };
    const { html, stderr } = await renderOnServer(config);
    expect(stderr).toBe('');
    // The key, the class and the language: what the page has before any script runs.
    expect(html).toBe(`<ramp-widget data-api-key="${world.publicKey}" lang="fr" class="ramp">Sell USDC</ramp-widget><button id="sell">Sell</button><button id="unmount">Remove</button>`);

    const { page, calls, errors } = await openApp(world, devApp, { destination, html });
    const names = () => calls.map((call) => call.name);
    await eventually(() => names()).toContain('ready');
    expect(await page.locator('ramp-widget').evaluate((el: any) => [el.apiKey, el.apiBase, el.amount, el.flow, el.mode])).toEqual([
      world.publicKey,
      world.mock.url,
      150,
      'buy',
      'popup',
    ]);
    await page.click('#sell');
    await eventually(() => page.locator('ramp-widget').evaluate((el: any) => el.flow)).toBe('sell');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleApp, completeBuy, openApp } from './fixtures/frameworks/page.js';
import { eventually, startWorld, stellarAccountId, type World } from './helpers/world.js';

let world: World;
let app: string;
beforeAll(async () => {
  [world, app] = await Promise.all([startWorld(), bundleApp('react-app.tsx')]);
}, 60_000);
afterAll(async () => {
  await world?.close();
});


describe('@sikaramp/widget/react, rendered by React 19 in Chromium', () => {
  it('sets props as properties, calls the typed onRamp… callbacks, follows a re-render, and its ref opens the flow', async () => {
    const destination = stellarAccountId();
    const { page, calls, errors } = await openApp(world, app, { destination });
    const names = () => calls.map((call) => call.name);
    const value = (name: string) => calls.find((call) => call.name === name)?.value;
    const widget = page.locator('ramp-widget');

    // onRampReady got the config the element read with the key React gave it as a property.
    await eventually(() => names()).toContain('ready');
    expect(value('ready')).toMatch(/\S/);
    expect(await widget.evaluate((el: any) => [el.apiKey, el.amount, el.pollInterval, el.destination, el.className])).toEqual([
      world.publicKey,
      150,
      200,
      destination,
      'ramp',
    ]);
    // The children are the open button's label (slotted).
    await eventually(() => page.getByRole('button', { name: 'Buy USDC with MoMo' }).count()).toBe(1);

    // A re-render with new props updates the same element.
    const element = await widget.elementHandle();
    await page.click('#more');
    await eventually(() => widget.evaluate((el: any) => [el.amount, el.getAttribute('lang')])).toEqual([200, 'fr']);
    expect(await element!.evaluate((el) => el.isConnected)).toBe(true);

    // ref.current.open(), driven to completion against the mock.
    await page.click('#buy');
    await eventually(() => names()).toContain('open');
    const { id, mode } = value('open');
    expect(mode).toBe('iframe');
    expect(world.sessionRequests.find((r) => r.destination === destination)).toMatchObject({ flow: 'buy', amount: 200, lang: 'fr' });
    await completeBuy(world, page, id);
    await eventually(() => names()).toContain('resolved');
    expect(value('complete')).toMatchObject({ id, status: 'completed', amount_in: '200.00' });
    expect(value('resolved')).toEqual(value('complete'));
    expect(calls.filter((call) => call.name === 'status').map((call) => call.value)).toContain('completed');
    expect(names()).not.toContain('error');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('passes a callback prop (getSession) to the element as a property, not an attribute', async () => {
    const destination = stellarAccountId();
    const { page, calls, errors } = await openApp(world, app, { destination, callback: true });
    const names = () => calls.map((call) => call.name);
    await eventually(() => names()).toContain('ready');
    expect(await page.locator('ramp-widget').evaluate((el: any) => [typeof el.getSession, el.hasAttribute('getSession')])).toEqual(['function', false]);
    await page.click('#buy');
    await eventually(() => names()).toContain('open');
    expect(calls.find((call) => call.name === 'getSession')!.value).toMatchObject({ flow: 'buy', amount: 150, destination });
    expect(world.sessionRequests.filter((r) => r.destination === destination)).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

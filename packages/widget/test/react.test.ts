import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleApp, checkReactApp, checkReactCallbackProp } from './fixtures/frameworks/page.js';
import { startWorld, type World } from './helpers/world.js';

let world: World;
let app: string;
beforeAll(async () => {
  [world, app] = await Promise.all([startWorld(), bundleApp('react-app.tsx')]);
}, 60_000);
afterAll(async () => {
  await world?.close();
});

describe('@sikaramp/widget/react, rendered by React 19 in Chromium', () => {
  it('sets props as properties, calls the typed onRamp… callbacks, follows a re-render, and its ref opens the flow', () => checkReactApp(world, app));

  it('passes a callback prop (getSession) to the element as a property, not an attribute', () => checkReactCallbackProp(world, app));
});

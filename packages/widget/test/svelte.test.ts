import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import { compile } from 'svelte/compiler';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { bundleApp, checkSample } from './fixtures/frameworks/page.js';
import { startWorld, type World } from './helpers/world.js';

/** A .svelte file compiled for the browser by Svelte's own compiler, as a shop's build does. */
const svelte: Plugin = {
  name: 'svelte',
  setup(build) {
    build.onLoad({ filter: /\.svelte$/ }, async ({ path }) => {
      const { js, warnings } = compile(await readFile(path, 'utf8'), { filename: path, generate: 'client' });
      if (warnings.length) throw Error(warnings.map((warning) => warning.message).join('\n'));
      return { contents: js.code, loader: 'js' };
    });
  },
};

let world: World;
let app: string;
let legacy: string;
beforeAll(async () => {
  [world, app, legacy] = await Promise.all([
    startWorld(),
    bundleApp('svelte-main.js', { plugins: [svelte] }),
    bundleApp('svelte-legacy-main.js', { plugins: [svelte] }),
  ]);
}, 60_000);
afterAll(async () => {
  await world?.close();
});

describe('the guide\'s Svelte 5 sample, in Chromium', () => {
  it('renders <ramp-widget>, binds {amount} as the property, and onramp-complete receives a real buy\'s completion', async () => {
    await checkSample(world, app);
  });

  it('works the same in Svelte 4\'s syntax: on:ramp-complete', async () => {
    await checkSample(world, legacy);
  });
});

import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Plugin } from 'esbuild';
import { compileScript, parse } from 'vue/compiler-sfc';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { bundleApp, checkSample } from './fixtures/frameworks/page.js';
import { startWorld, type World } from './helpers/world.js';

/**
 * A .vue file compiled as @vitejs/plugin-vue compiles it, with the guide's option:
 * `template.compilerOptions.isCustomElement` naming ramp-widget.
 */
const compilerOptions = { isCustomElement: (tag: string) => tag === 'ramp-widget' };
const vue: Plugin = {
  name: 'vue',
  setup(build) {
    build.onLoad({ filter: /\.vue$/ }, async ({ path }) => {
      // The parse decides already which tags are components: it takes the option too, as the plugin passes it.
      const { descriptor } = parse(await readFile(path, 'utf8'), { filename: path, templateParseOptions: compilerOptions });
      const script = compileScript(descriptor, { id: 'shop', inlineTemplate: true, templateOptions: { compilerOptions } });
      return { contents: script.content, loader: 'js', resolveDir: dirname(path) };
    });
  },
};

let world: World;
let app: string;
beforeAll(async () => {
  // Vue's development build: it warns on the console (which fails the test) about an element it cannot resolve.
  const define = { 'process.env.NODE_ENV': '"development"', __VUE_OPTIONS_API__: 'false', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' };
  [world, app] = await Promise.all([startWorld(), bundleApp('vue-main.js', { plugins: [vue], define })]);
}, 60_000);
afterAll(async () => {
  await world?.close();
});

describe('the guide\'s Vue 3 sample, in Chromium', () => {
  it('renders <ramp-widget>, binds :amount as the property, and @ramp-complete receives a real buy\'s completion', async () => {
    await checkSample(world, app);
  });
});

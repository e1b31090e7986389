/** What each entry pulls into a merchant's bundle: esbuild bundle, minified, then gzip. */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundles a module text (e.g. `export { X } from '@sikaramp/sdk';`): minified and gzip -9 bytes,
 * and the packages it pulls in. `platform` picks the export conditions as esbuild does
 * (`node` gets the webhooks' node:crypto build, `browser` and `neutral` the Web Crypto one).
 */
export async function bundleSize(contents: string, platform: 'neutral' | 'node' | 'browser' = 'neutral') {
  const result = await build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  const packages = new Set(
    Object.keys(result.metafile.inputs)
      .map((i) => i.match(/.*node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1])
      .filter(Boolean),
  );
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length, packages: [...packages].sort() };
}

const VERIFY_ONLY = `export { verifyWebhook, verifyCheckoutWebhook, WebhookVerificationError } from '@sikaramp/sdk/webhooks';`;

export async function benchSize() {
  const rows: string[][] = [];
  const cases = [
    ['@sikaramp/sdk/webhooks, all of it, platform node', `export * from '@sikaramp/sdk/webhooks';`, 'node'],
    ['@sikaramp/sdk/webhooks, all of it, platform browser', `export * from '@sikaramp/sdk/webhooks';`, 'browser'],
    ['@sikaramp/sdk/webhooks, verifiers only, platform node', VERIFY_ONLY, 'node'],
    ['@sikaramp/sdk/webhooks, verifiers only, platform browser', VERIFY_ONLY, 'browser'],
    // For information: the parts an endpoint need not load, each a subpath of its own.
    ['@sikaramp/sdk/webhooks/dedupe, all of it, platform node', `export * from '@sikaramp/sdk/webhooks/dedupe';`, 'node'],
    ['@sikaramp/sdk/webhooks/testing, all of it, platform node', `export * from '@sikaramp/sdk/webhooks/testing';`, 'node'],
    ['@sikaramp/sdk', `export * from '@sikaramp/sdk';`, 'neutral'],
  ] as const;
  for (const [name, contents, platform] of cases) {
    const { min, gzip, packages } = await bundleSize(contents, platform);
    rows.push([name, `${(min / 1024).toFixed(1)} KiB`, `${(gzip / 1024).toFixed(2)} KiB`, packages.join(', ') || '(none)']);
  }
  // The baseline: stripe's smallest webhooks part, its Webhooks module with the node:crypto provider.
  const stripeDir = createRequire(import.meta.url).resolve('stripe').replace(/(\/node_modules\/stripe)\/.*/, '$1');
  const stripe = await bundleSize(
    `export { createWebhooks } from '${stripeDir}/esm/Webhooks.js'; export { NodeCryptoProvider } from '${stripeDir}/esm/crypto/NodeCryptoProvider.js';`,
    'node',
  );
  rows.push(['stripe Webhooks + NodeCryptoProvider (baseline), platform node', `${(stripe.min / 1024).toFixed(1)} KiB`, `${(stripe.gzip / 1024).toFixed(2)} KiB`, stripe.packages.join(', ')]);
  return { rows };
}

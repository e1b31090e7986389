/**
 * What a merchant's bundler keeps of @sikaramp/sdk, installed from its tarball: importing one
 * client must not drag in the Stellar SDK or the anchor code, nor the webhook verifier the HTTP
 * stack. Checked twice: the bundle's text for markers of each, and esbuild's list of the files
 * that contributed to it. The anchor bundle shows that the markers do find what they mark.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumer, type Consumer } from './helpers/consumer.js';

/** Strings that only the named code contains, and that minifying keeps. */
const MARKERS = {
  stellarSdk: ['TransactionEnvelope', 'envelopeTypeTx'],
  anchor: ['Refused to sign the SEP-10 challenge', 'WEB_AUTH_ENDPOINT'],
  checkout: ['Idempotency-Key', 'pass apiKey to CheckoutClient'],
};

interface Bundle {
  text: string;
  /** Files that contributed bytes to the bundle, relative to the project. */
  inputs: string[];
  bytes: number;
  /** The minified bundle's size after gzip -9, as packages/sdk/bench/size.ts measures it. */
  gzip: number;
}

let consumer: Consumer;

beforeAll(async () => {
  // With the anchor's optional peer, as a merchant who uses the anchor installs it.
  consumer = await createConsumer({ packages: ['@sikaramp/sdk'], direct: [{ name: '@stellar/stellar-sdk', from: '@sikaramp/sdk' }] });
}, 60_000);
afterAll(() => consumer?.remove());

/** Bundles `source` as a merchant's minified Node ESM entry would be, or for another platform and export conditions. */
async function bundle(source: string, target: { platform?: 'node' | 'browser' | 'neutral'; conditions?: readonly string[] } = {}): Promise<Bundle> {
  const result = await build({
    stdin: { contents: source, resolveDir: consumer.dir, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: target.platform ?? 'node',
    ...(target.conditions ? { conditions: [...target.conditions] } : {}),
    // Bun and Deno provide node: modules as Node does.
    external: ['node:*'],
    minify: true,
    write: false,
    metafile: true,
    outfile: 'out.js',
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return { text: result.outputFiles[0]!.text, inputs: Object.keys(output.inputs), bytes: output.bytes, gzip: gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length };
}

const containing = (text: string, markers: string[]) => markers.filter((marker) => text.includes(marker));

describe('a bundle that imports only CheckoutClient from @sikaramp/sdk', () => {
  let checkout: Bundle;
  beforeAll(async () => {
    checkout = await bundle("import { CheckoutClient } from '@sikaramp/sdk';\nexport { CheckoutClient };");
  });

  it('contains the checkout client', () => {
    expect(containing(checkout.text, MARKERS.checkout)).toEqual(MARKERS.checkout);
  });

  it('contains neither @stellar/stellar-sdk nor the anchor code', () => {
    expect(containing(checkout.text, [...MARKERS.stellarSdk, ...MARKERS.anchor])).toEqual([]);
    // A Stellar package's own files; the SDK's folder in pnpm's store names its peer (`…_@stellar+stellar-sdk@…`).
    expect(checkout.inputs.filter((input) => /\/node_modules\/@stellar\/|\/\.pnpm\/@stellar\+|\/dist\/anchor\//.test(input))).toEqual([]);
  });
});

describe('a bundle that imports only verifyWebhook from @sikaramp/sdk/webhooks', () => {
  it('contains no ky, zod or @stellar/stellar-sdk', async () => {
    const webhooks = await bundle("import { verifyWebhook } from '@sikaramp/sdk/webhooks';\nexport { verifyWebhook };");
    expect(webhooks.inputs.some((input) => input.includes('/dist/webhooks/'))).toBe(true);
    expect(webhooks.inputs.filter((input) => /\/node_modules\/(ky|zod|@stellar\/)/.test(input))).toEqual([]);
    expect(containing(webhooks.text, [...MARKERS.stellarSdk, ...MARKERS.anchor])).toEqual([]);
  });
});

describe('a bundle that imports the drop-in handlers from @sikaramp/sdk/handlers', () => {
  it('contains no ky, zod, @stellar/stellar-sdk, anchor code or web framework', async () => {
    const handlers = await bundle("export { createRampHandlers, createWebhookHandler } from '@sikaramp/sdk/handlers';");
    expect(handlers.inputs.some((input) => input.includes('/dist/handlers/'))).toBe(true);
    expect(handlers.inputs.filter((input) => /\/node_modules\/(ky|zod|@stellar\/|express|hono|fastify)/.test(input))).toEqual([]);
    expect(containing(handlers.text, [...MARKERS.stellarSdk, ...MARKERS.anchor])).toEqual([]);
  });
});

describe.each([
  ['@sikaramp/sdk/webhooks', 'verifyWebhook', 'node', 'index'],
  ['@sikaramp/sdk/webhooks/testing', 'signWebhook', 'testing-node', 'testing'],
])('%s per runtime', (subpath, name, nodeBuild, webBuild) => {
  const source = `import { ${name} } from '${subpath}';\nexport { ${name} };`;

  it.each([
    ['Node', 'node:crypto', {}],
    ['Bun', 'node:crypto', { platform: 'neutral', conditions: ['bun', 'import'] }],
    ['Deno', 'node:crypto', { platform: 'neutral', conditions: ['deno', 'import'] }],
    ['a browser', 'Web Crypto', { platform: 'browser' }],
    ['Cloudflare Workers', 'Web Crypto', { platform: 'neutral', conditions: ['workerd', 'worker', 'import'] }],
    ['Vercel Edge', 'Web Crypto', { platform: 'neutral', conditions: ['edge-light', 'import'] }],
    ['an unknown runtime', 'Web Crypto', { platform: 'neutral', conditions: ['import'] }],
  ] as const)('%s gets the %s build', async (_runtime, kind, target) => {
    const bundled = await bundle(source, target);
    const has = (build: string) => bundled.inputs.some((input) => input.endsWith(`/dist/webhooks/${build}.js`));
    expect(has(nodeBuild)).toBe(kind === 'node:crypto');
    expect(has(kind === 'node:crypto' ? nodeBuild : webBuild)).toBe(true);
    expect(bundled.text.includes('node:crypto')).toBe(kind === 'node:crypto');
  });
});

describe('the size of @sikaramp/sdk/webhooks in a merchant\'s bundle', () => {
  // Measured plus about 20 bytes, so that growth fails the build; lower them when it shrinks. Issue 17
  // asks for 1,536 bytes; the whole entry measured 1,771 (node) and 1,719 (browser), the verifiers
  // 1,661 and 1,613, when these were set (from 1,908, 1,850, 1,798 and 1,744).
  const ALL = "export * from '@sikaramp/sdk/webhooks';";
  const VERIFIERS = "export { verifyWebhook, verifyCheckoutWebhook, WebhookVerificationError } from '@sikaramp/sdk/webhooks';";
  it.each([
    { what: 'all of it', source: ALL, platform: 'node', budget: 1_790 },
    { what: 'all of it', source: ALL, platform: 'browser', budget: 1_740 },
    { what: 'the verifiers', source: VERIFIERS, platform: 'node', budget: 1_680 },
    { what: 'the verifiers', source: VERIFIERS, platform: 'browser', budget: 1_633 },
  ] as const)('$what, platform $platform, stays within $budget bytes gzipped', async ({ source, platform, budget }) => {
    const bundled = await bundle(source, { platform });
    expect(bundled.gzip).toBeLessThanOrEqual(budget);
  });
});

describe('a bundle that imports SqliteDedupeStore from @sikaramp/sdk/webhooks/sqlite', () => {
  it('contains no ky, zod or @stellar/stellar-sdk, and imports no SQLite library of its own', async () => {
    const sqlite = await bundle("import { SqliteDedupeStore } from '@sikaramp/sdk/webhooks/sqlite';\nexport { SqliteDedupeStore };");
    expect(sqlite.inputs.some((input) => input.includes('/dist/webhooks/sqlite'))).toBe(true);
    expect(sqlite.inputs.filter((input) => /\/node_modules\/(ky|zod|@stellar\/)/.test(input))).toEqual([]);
    expect(sqlite.text).not.toMatch(/node:sqlite|better-sqlite3|bun:sqlite/);
  });
});

describe('a bundle that imports AnchorClient from @sikaramp/sdk/anchor', () => {
  it('contains every marker of the Stellar SDK and of the anchor code', async () => {
    const anchor = await bundle("import { AnchorClient } from '@sikaramp/sdk/anchor';\nexport { AnchorClient };");
    expect(containing(anchor.text, [...MARKERS.stellarSdk, ...MARKERS.anchor])).toEqual([...MARKERS.stellarSdk, ...MARKERS.anchor]);
    expect(anchor.inputs.some((input) => /@stellar[+/]/.test(input))).toBe(true);
  });
});

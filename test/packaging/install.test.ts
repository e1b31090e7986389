/**
 * The published packages as a merchant gets them: packed, installed from the tarballs into a
 * project outside the workspace, every subpath export loaded as ESM and, where offered, as
 * CommonJS, and one real call made through each.
 */
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumer, nodeOnPath, PACKAGES, type Consumer, type Manifest, type PackageName } from './helpers/consumer.js';

/** The subpaths the fixtures load, by format; a new export fails the test below until it is loaded here too. */
const LOADED: Record<PackageName, { esm: string[]; cjs: string[] }> = {
  '@sikaramp/sdk': {
    esm: ['.', './webhooks', './webhooks/dedupe', './webhooks/sqlite', './webhooks/testing', './redis', './anchor', './handlers', './handlers/express', './handlers/hono', './handlers/fastify', './handlers/next', './openapi.json', './package.json'],
    cjs: ['.', './webhooks', './webhooks/dedupe', './webhooks/sqlite', './webhooks/testing', './redis', './anchor', './handlers', './handlers/express', './handlers/hono', './handlers/fastify', './handlers/next', './package.json'],
  },
  '@sikaramp/widget': { esm: ['.', './react', './package.json'], cjs: [] },
  '@sikaramp/mock-server': { esm: ['.', './client', './package.json'], cjs: [] },
};

/** Subpaths with a `require` condition, plus package.json, which `require` always reads, when there are any. */
function cjsSubpaths(manifest: Manifest): string[] {
  const hasRequire = (value: unknown): boolean =>
    !!value && typeof value === 'object' && Object.entries(value).some(([key, inner]) => key === 'require' || hasRequire(inner));
  const offered = Object.keys(manifest.exports).filter((subpath) => hasRequire(manifest.exports[subpath]));
  return offered.length > 0 ? [...offered, './package.json'] : [];
}

let consumer: Consumer;
/** The consumer's folder as Node reports module locations (the temp folder may sit behind a symlink). */
let installed: string;

beforeAll(async () => {
  consumer = await createConsumer({
    direct: [
      { name: '@stellar/stellar-sdk', from: '@sikaramp/sdk' },
      // The React app's own react, an optional peer of @sikaramp/widget/react.
      { name: 'react', from: '@sikaramp/widget' },
      { name: 'react-dom', from: '@sikaramp/widget' },
    ],
  });
  installed = realpathSync(consumer.dir);
}, 60_000);
afterAll(() => consumer?.remove());

describe.each(Object.keys(PACKAGES) as PackageName[])('%s tarball', (name) => {
  it('holds the build and package.json, no sources or tests', () => {
    const { files, manifest } = consumer.tarball(name);
    expect(files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(file))).toEqual([]);
    expect(manifest.name).toBe(name);
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
  });

  it('is loaded here through every subpath it exports, as CommonJS too where it offers it', () => {
    const { manifest } = consumer.tarball(name);
    expect(LOADED[name].esm.toSorted()).toEqual(Object.keys(manifest.exports).toSorted());
    expect(LOADED[name].cjs.toSorted()).toEqual(cjsSubpaths(manifest).toSorted());
  });
});

interface SdkReport {
  name: string;
  resolved: Record<string, string>;
  exports: Record<'.' | './webhooks' | './webhooks/dedupe' | './webhooks/sqlite' | './webhooks/testing' | './anchor', string[]>;
  dedupe: { first: unknown; again: unknown };
  oneErrorHierarchy: boolean;
  webhook: { event: string; signature: string; expected: string; tampered?: { name: string; reason: string; isSikarampError: boolean } };
  checkout: { refused?: { name: string; message: string; isValidationError: boolean }; requests: number };
  sep10: { account: string; sub: string };
  /** `openapi` of @sikaramp/sdk/openapi.json. */
  openapi: string;
}

describe.each([
  ['ESM (import)', 'sdk.mjs', '.js'],
  ['CommonJS (require)', 'sdk.cjs', '.cjs'],
])('@sikaramp/sdk installed from its tarball, %s', (_format, fixture, extension) => {
  let report: SdkReport;
  beforeAll(async () => {
    report = await consumer.run<SdkReport>(fixture);
  }, 30_000);

  it('loads each subpath from the installed build of that format', () => {
    expect(report.name).toBe('@sikaramp/sdk');
    const builds = {
      '@sikaramp/sdk': `/dist/index${extension}`,
      // Node takes the `node` condition: the build on node:crypto's synchronous HMAC.
      '@sikaramp/sdk/webhooks': `/dist/webhooks/node${extension}`,
      '@sikaramp/sdk/webhooks/dedupe': `/dist/webhooks/dedupe${extension}`,
      '@sikaramp/sdk/webhooks/sqlite': `/dist/webhooks/sqlite${extension}`,
      '@sikaramp/sdk/webhooks/testing': `/dist/webhooks/testing-node${extension}`,
      '@sikaramp/sdk/anchor': `/dist/anchor/index${extension}`,
    };
    expect(Object.keys(report.resolved)).toEqual(Object.keys(builds));
    for (const [id, build] of Object.entries(builds)) {
      expect(report.resolved[id]).toContain(installed);
      expect(report.resolved[id]?.endsWith(build)).toBe(true);
    }
    expect(report.exports['.']).toEqual(expect.arrayContaining(['CheckoutClient', 'RampClient', 'WidgetClient', 'MerchantClient', 'ValidationError']));
    expect(report.exports['./webhooks']).toEqual(expect.arrayContaining(['verifyWebhook', 'verifyWebhookDelivery', 'verifyCheckoutWebhook', 'WebhookVerificationError']));
    // Verification only: signing and de-duplication are subpaths of their own.
    expect(report.exports['./webhooks']).not.toContain('signWebhook');
    expect(report.exports['./webhooks']).not.toContain('createDeduplicator');
    expect(report.exports['./webhooks/dedupe'].toSorted()).toEqual(['DEFAULT_DEDUPE_LEASE_SECONDS', 'DEFAULT_DEDUPE_TTL_SECONDS', 'DedupeLeaseError', 'MemoryDedupeStore', 'createDeduplicator', 'webhookEventKey']);
    expect(report.exports['./webhooks/testing'].toSorted()).toEqual(['signCheckoutWebhook', 'signWebhook']);
    expect(report.exports['./anchor']).toEqual(expect.arrayContaining(['AnchorClient', 'validateChallenge', 'ChallengeError']));
    expect(report.exports['./webhooks/sqlite']).toEqual(['SqliteDedupeStore']);
    expect(report.openapi).toBe('3.1.0');
  });

  it('de-duplicates in a node:sqlite database through @sikaramp/sdk/webhooks/sqlite', () => {
    expect(report.dedupe).toEqual({ first: { duplicate: false, result: 'handled' }, again: { duplicate: true, pending: false } });
  });

  it('shares one error hierarchy across its subpaths', () => {
    expect(report.oneErrorHierarchy).toBe(true);
  });

  it('verifies a webhook signed with node:crypto, signs the same way, and refuses an altered body', () => {
    expect(report.webhook.event).toBe('order.completed');
    expect(report.webhook.signature).toBe(report.webhook.expected);
    expect(report.webhook.tampered).toMatchObject({ name: 'WebhookVerificationError', reason: 'no_matching_signature', isSikarampError: true });
  });

  it('refuses an Idempotency-Key over 128 characters with a ValidationError before any request', () => {
    expect(report.checkout.refused).toMatchObject({ name: 'ValidationError', isValidationError: true });
    expect(report.checkout.refused?.message).toContain('idempotencyKey');
    expect(report.checkout.requests).toBe(0);
  });

  it('signs in at the mock anchor with SEP-10, @stellar/stellar-sdk loaded from the install', () => {
    expect(report.sep10.sub).toBe(report.sep10.account);
    expect(report.sep10.account).toMatch(/^G[A-Z2-7]{55}$/);
  });
});

describe('@sikaramp/mock-server installed from its tarball', () => {
  it('builds a backend in-process and answers a request on 127.0.0.1, port 0', async () => {
    const report = await consumer.run<{
      name: string;
      resolved: string;
      handlers: number;
      advancedMs: number;
      toml: { url: string; status: number; text: string };
      client: { advancedMs: number; resolved: string };
    }>('mock-server.mjs');
    expect(report.name).toBe('@sikaramp/mock-server');
    expect(report.resolved).toContain(installed);
    expect(report.resolved.endsWith('/dist/index.js')).toBe(true);
    expect(report.handlers).toBeGreaterThan(0);
    expect(report.advancedMs).toBe(60_000);
    expect(report.toml.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(report.toml.status).toBe(200);
    expect(report.toml.text).toMatch(/^SIGNING_KEY\s*=\s*"G[A-Z2-7]{55}"$/m);
    // The control client, from its own subpath, moves the server's clock over HTTP.
    expect(report.client.resolved.endsWith('/dist/client.js')).toBe(true);
    expect(report.client.advancedMs).toBe(30_000);
  });

  it('runs its sikaramp-mock bin: prints where it listens, serves, and stops on SIGTERM', async () => {
    const bin = join(consumer.dir, 'node_modules', '.bin', 'sikaramp-mock');
    const child = spawn(bin, ['--port', '0', '--clock', 'manual'], { cwd: consumer.dir, env: nodeOnPath() });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk;
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        void exited.then((code) => reject(new Error(`sikaramp-mock exited with ${code} before listening:\n${output}`)));
      });
      const response = await fetch(`${url}/.well-known/stellar.toml`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('SIGNING_KEY');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output).toContain('sikaramp-mock: stopped');
  });
});

describe('@sikaramp/widget installed from its tarball', () => {
  it('imports in Node without a DOM, defines no element there, and gives its constants and element class', async () => {
    const report = await consumer.run<{
      name: string;
      resolved: string;
      window: string;
      defined: boolean;
      exports: string[];
      tagName: string;
      allow: string;
      element: string;
    }>('widget.mjs');
    expect(report.name).toBe('@sikaramp/widget');
    expect(report.resolved).toContain(installed);
    expect(report.window).toBe('undefined');
    expect(report.defined).toBe(false);
    expect(report.exports).toEqual(expect.arrayContaining(['RampWidget', 'TAG_NAME', 'DEFAULT_ALLOW']));
    expect(report.tagName).toBe('ramp-widget');
    expect(report.allow.split(/;\s*/)).toEqual(expect.arrayContaining(['camera', 'payment']));
    expect(report.element).toBe('function');
  });

  it('gives @sikaramp/widget/react, which a server renders to the bare element (its props are set in the browser)', async () => {
    const report = await consumer.run<{ resolved: string; exports: string[]; html: string }>('widget-react.mjs');
    expect(report.resolved).toContain(installed);
    expect(report.resolved).toMatch(/\/dist\/react\.js$/);
    expect(report.exports).toEqual(['RampWidget']);
    expect(report.html).toBe('<ramp-widget lang="fr">Buy USDC</ramp-widget>');
  });
});

describe.each([
  ['ESM (import)', 'sdk-handlers.mjs', '.js'],
  ['CommonJS (require)', 'sdk-handlers.cjs', '.cjs'],
])('@sikaramp/sdk/handlers installed from its tarball, %s', (_format, fixture, extension) => {
  let report: { resolved: Record<string, string>; statuses: number[]; events: string[]; exports: Record<string, string[]> };
  beforeAll(async () => {
    report = await consumer.run<typeof report>(fixture);
  }, 30_000);

  it('loads the handlers and each adapter from the installed build of that format', () => {
    for (const [id, build] of Object.entries({
      '@sikaramp/sdk/handlers': 'index',
      '@sikaramp/sdk/handlers/express': 'express',
      '@sikaramp/sdk/handlers/hono': 'hono',
      '@sikaramp/sdk/handlers/fastify': 'fastify',
      '@sikaramp/sdk/handlers/next': 'next',
    })) {
      expect(report.resolved[id]).toContain(installed);
      expect(report.resolved[id]?.endsWith(`/dist/handlers/${build}${extension}`)).toBe(true);
    }
    expect(report.exports['./handlers']).toEqual(expect.arrayContaining(['createRampHandlers', 'createWebhookHandler', 'MemoryDedupeStore', 'DedupeLeaseError']));
    expect(report.exports['./handlers/express']).toEqual(['toExpress']);
    expect(report.exports['./handlers/hono']).toEqual(['toHono']);
    expect(report.exports['./handlers/fastify']).toEqual(['rawBodies', 'toFastify']);
    expect(report.exports['./handlers/next']).toEqual(['nextRoutes']);
  });

  it('answers a webhook signed with node:crypto 200, its redelivery 200 without handling it again, and an altered body 400', () => {
    expect(report.statuses).toEqual([200, 200, 400]);
    expect(report.events).toEqual(['order.completed']);
  });
});

describe.each([
  ['ESM (import)', 'sdk-redis.mjs', '.js'],
  ['CommonJS (require)', 'sdk-redis.cjs', '.cjs'],
])('@sikaramp/sdk/redis installed from its tarball, %s', (_format, fixture, extension) => {
  it('claims through a script runner of its own, and a failing one gives a RedisStoreError of the one hierarchy', async () => {
    const report = await consumer.run<{
      resolved: string;
      exports: string[];
      claimed: unknown;
      seen: string[];
      error: { name: string; reason: string; isSikarampError: boolean };
    }>(fixture);
    expect(report.resolved).toContain(installed);
    expect(report.resolved.endsWith(`/dist/redis/index${extension}`)).toBe(true);
    expect(report.exports).toEqual(['RedisDedupeStore', 'RedisStoreError', 'RedisTokenCache', 'RedisTransactionOwners', 'fromIoredis', 'fromNodeRedis']);
    expect(report.claimed).toBe(true);
    expect(report.seen).toEqual(['sikaramp:webhook:checkout:evt_1']);
    expect(report.error).toEqual({ name: 'RedisStoreError', reason: 'failed', isSikarampError: true });
  });
});

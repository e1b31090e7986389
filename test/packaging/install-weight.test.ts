/**
 * What a merchant's `npm install` brings: each packed tarball installed with npm into an empty
 * project outside the workspace (from a registry on 127.0.0.1 that serves the workspace's locked
 * packages, see helpers/npm-install.ts), its node_modules weighed against a budget. `pnpm bench:install`
 * prints the same figures from npmjs.org, beside stripe's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, pack, type PackageName, type Tarball } from './helpers/consumer.ts';
import { MB, npmInstall, startLocalRegistry, type NpmProject } from './helpers/npm-install.ts';

/** Bytes of files under node_modules and packages, nested ones included, each install may bring at most. */
const BUDGETS = {
  // Measured: 7.8 MB, 3 packages (@sikaramp/sdk, ky, zod).
  sdk: { bytes: 15 * MB, packages: 3 },
  // 64.3 MB, 47 packages: @stellar/stellar-sdk alone is 51 MB.
  sdkWithStellar: { bytes: 70 * MB, packages: 50 },
  // 77.5 MB, 93 packages: @stellar/stellar-sdk, msw and theirs.
  mockServerWithMsw: { bytes: 85 * MB, packages: 100 },
  // Under 3 MB, 3 to 5 packages: the widget and Lit's rendering packages.
  widget: { bytes: 5 * MB, packages: 8 },
};

const PEER_ERROR = /@sikaramp\/sdk\/anchor needs @stellar\/stellar-sdk, an optional peer dependency that is not installed: run `npm install @stellar\/stellar-sdk`/;

const tarballs = {} as Record<PackageName, Tarball>;
const installs = {} as Record<keyof typeof BUDGETS, NpmProject>;
let packed: string;

beforeAll(async () => {
  const names: PackageName[] = ['@sikaramp/sdk', '@sikaramp/mock-server', '@sikaramp/widget'];
  await Promise.all(names.map(assertBuilt));
  packed = await mkdtemp(join(tmpdir(), 'sikaramp-tarballs-'));
  for (const name of names) tarballs[name] = await pack(name, packed);
  const peer = (name: PackageName, dependency: string) => `${dependency}@${tarballs[name].manifest.peerDependencies?.[dependency]}`;

  const registry = await startLocalRegistry();
  try {
    // One at a time: each is timed, and the machine may have two cores.
    installs.sdk = await npmInstall([tarballs['@sikaramp/sdk'].file], { registry: registry.url });
    installs.sdkWithStellar = await npmInstall([tarballs['@sikaramp/sdk'].file, peer('@sikaramp/sdk', '@stellar/stellar-sdk')], { registry: registry.url });
    installs.mockServerWithMsw = await npmInstall([tarballs['@sikaramp/mock-server'].file, peer('@sikaramp/mock-server', 'msw')], { registry: registry.url });
    installs.widget = await npmInstall([tarballs['@sikaramp/widget'].file], { registry: registry.url });
  } finally {
    await registry.close();
  }
}, 180_000);
afterAll(async () => {
  await Promise.all(Object.values(installs).map((install) => install.remove()));
  if (packed) await rm(packed, { recursive: true, force: true });
});

describe.each(Object.keys(BUDGETS) as (keyof typeof BUDGETS)[])('npm install, %s', (install) => {
  it('stays within its budget of bytes and packages', () => {
    const { weight } = installs[install];
    const { bytes, packages } = BUDGETS[install];
    expect({ bytes: weight.bytes <= bytes, packages: weight.packages.length <= packages }, JSON.stringify({ ...weight, budget: BUDGETS[install] })).toEqual({
      bytes: true,
      packages: true,
    });
  });
});

describe('@sikaramp/sdk without @stellar/stellar-sdk', () => {
  it('brings only the packages its entry points load', () => {
    expect(installs.sdk.weight.packages).toEqual(['@sikaramp/sdk', 'ky', 'zod']);
    expect(installs.sdk.weight.stellarBytes).toBe(0);
  });

  it('declares @stellar/stellar-sdk an optional peer', () => {
    const { manifest } = tarballs['@sikaramp/sdk'];
    expect(manifest.dependencies).not.toHaveProperty('@stellar/stellar-sdk');
    expect(manifest.peerDependencies).toHaveProperty('@stellar/stellar-sdk');
    expect(manifest.peerDependenciesMeta?.['@stellar/stellar-sdk']).toEqual({ optional: true });
  });

  it.each([
    ['esm', "const sdk = await import('@sikaramp/sdk'); const webhooks = await import('@sikaramp/sdk/webhooks'); const handlers = await import('@sikaramp/sdk/handlers');"],
    ['cjs', "const sdk = require('@sikaramp/sdk'); const webhooks = require('@sikaramp/sdk/webhooks'); const handlers = require('@sikaramp/sdk/handlers');"],
  ] as const)('loads its root, webhooks and handlers as %s', async (format, load) => {
    const result = await installs.sdk.run(`${load}\nconsole.log(JSON.stringify([typeof sdk.RampClient, typeof webhooks.verifyWebhook, Object.keys(handlers).length > 0]));`, format);
    expect(result).toEqual({ ok: true, output: '["function","function",true]\n' });
  });

  it.each([
    ['esm', "import('@sikaramp/sdk/anchor').then(() => console.log('loaded'), (error) => console.log(JSON.stringify({ name: error.name, message: error.message })));"],
    ['cjs', "try { require('@sikaramp/sdk/anchor'); console.log('loaded'); } catch (error) { console.log(JSON.stringify({ name: error.name, message: error.message })); }"],
  ] as const)('refuses @sikaramp/sdk/anchor as %s with one error that says what to install', async (format, code) => {
    const result = await installs.sdk.run(code, format);
    expect(result.ok).toBe(true);
    const error = JSON.parse(result.output) as { name: string; message: string };
    expect(error.name).toBe('SikarampError');
    expect(error.message).toMatch(PEER_ERROR);
  });
});

describe('@sikaramp/sdk with @stellar/stellar-sdk installed beside it', () => {
  it.each([
    ['esm', "const { Keypair, AnchorClient } = await import('@sikaramp/sdk/anchor');"],
    ['cjs', "const { Keypair, AnchorClient } = require('@sikaramp/sdk/anchor');"],
  ] as const)('loads @sikaramp/sdk/anchor as %s and makes a keypair with it', async (format, load) => {
    const result = await installs.sdkWithStellar.run(`${load}\nconsole.log(JSON.stringify([typeof AnchorClient, Keypair.random().publicKey()]));`, format);
    expect(result.ok, result.output).toBe(true);
    const [client, account] = JSON.parse(result.output) as [string, string];
    expect(client).toBe('function');
    expect(account).toMatch(/^G[A-Z2-7]{55}$/);
  });
});

describe('@sikaramp/mock-server', () => {
  it('takes msw as a peer, the merchant’s own copy', () => {
    const { manifest } = tarballs['@sikaramp/mock-server'];
    expect(manifest.dependencies).not.toHaveProperty('msw');
    expect(manifest.peerDependencies?.msw).toMatch(/^\^\d/);
    expect(installs.mockServerWithMsw.weight.packages.filter((name) => name === 'msw')).toEqual(['msw']);
  });
});

describe('@sikaramp/widget', () => {
  it('is a browser package: no Node engines field', () => {
    expect(tarballs['@sikaramp/widget'].manifest).not.toHaveProperty('engines');
  });
});

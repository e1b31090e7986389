/**
 * The SDK names itself and its real version on every request: the BUILT package (tsup injects
 * package.json's version), and the source (tests), which says `0.0.0-source`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as source from '../src/index.js';
import { json, startTestServer, type TestServer } from './helpers/http-server.js';

const dist = new URL('../dist/index.js', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer((_req, res) => json(res, 200, { data: { id: 's', reference: 'r', status: 'pending', amount: 1, final_amount: 1, currency: 'GHS' } }));
});
afterAll(() => server.close());

async function userAgentOf(sdk: typeof source): Promise<string | undefined> {
  const before = server.requests.length;
  await new sdk.CheckoutClient({ baseUrl: server.url }).payments.verify('sess_1');
  return server.requests[before]?.headers['user-agent'];
}

describe('User-Agent', () => {
  it('the built package sends sikaramp-sdk/<package.json version> and the Node version', async () => {
    expect(existsSync(dist), 'build first: pnpm --filter @sikaramp/sdk build').toBe(true);
    const built = (await import(dist.href)) as typeof source;
    expect(built.VERSION).toBe(version);
    expect(await userAgentOf(built)).toBe(`sikaramp-sdk/${version} node/${process.versions.node}`);
  });

  it('run from source, the version says so instead of posing as a release', async () => {
    expect(source.VERSION).toBe('0.0.0-source');
    expect(await userAgentOf(source)).toBe(`sikaramp-sdk/0.0.0-source node/${process.versions.node}`);
  });

  it('defaultHeaders may replace it, and no X-Sikaramp-Client is sent where User-Agent can be set', async () => {
    const before = server.requests.length;
    await new source.CheckoutClient({ baseUrl: server.url, defaultHeaders: { 'User-Agent': 'shop/1.2' } }).payments.verify('sess_1');
    expect(server.requests[before]?.headers['user-agent']).toBe('shop/1.2');
    expect(server.requests[before]?.headers['x-sikaramp-client']).toBeUndefined();
  });
});

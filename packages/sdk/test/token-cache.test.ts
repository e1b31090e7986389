/**
 * The token cache under the dashboard and SEP-10 clients: concurrent calls share one renewal
 * (one login over real HTTP on 127.0.0.1), and one caller giving up does not fail the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpCore } from '../src/core/http.js';
import { TokenCache } from '../src/core/token-cache.js';
import { AbortError } from '../src/index.js';
import { json, startTestServer, type TestServer } from './helpers/http-server.js';

let server: TestServer;
let logins = 0;
beforeAll(async () => {
  server = await startTestServer(async (_req, res) => {
    const token = `token-${++logins}`;
    await new Promise((resolve) => setTimeout(resolve, 200));
    json(res, 200, { token });
  });
});
afterAll(() => server.close());

const cache = () => {
  const core = new HttpCore({ baseUrl: server.url, maxRetries: 0 });
  return new TokenCache({
    key: 'login',
    obtain: async (signal) => {
      const { token } = await core.post('login', { schema: z.object({ token: z.string() }), unwrap: false, signal });
      return { token, expiresAt: Date.now() + 3_600_000 };
    },
  });
};

describe('TokenCache', () => {
  it('shares one login between concurrent calls', async () => {
    const before = logins;
    const tokens = cache();
    const [a, b] = await Promise.all([tokens.get(), tokens.get()]);
    expect(a).toBe(b);
    expect(logins - before).toBe(1);
  });

  it('fails only the caller that aborted: the others still get the shared login', async () => {
    const tokens = cache();
    const controller = new AbortController();
    const first = tokens.get(controller.signal);
    const second = tokens.get();
    setTimeout(() => controller.abort(), 50);
    await expect(first).rejects.toBeInstanceOf(AbortError);
    await expect(second).resolves.toMatch(/^token-/);
  });
});

import { Keypair, WebAuth } from '@stellar/stellar-sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockBackend } from '../src/backend.js';
import { call, MODES, type MockEnv } from './helpers/env.js';

describe.each(MODES)('mock core, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 7, clockStart: '2026-01-01T00:00:00Z' });
  });
  afterAll(() => env.close());

  it('reports and advances the manual clock over /_mock/clock', async () => {
    const before = await call(env, 'GET', '/_mock/clock');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ now: '2026-01-01T00:00:00.000Z', kind: 'manual' });
    const after = await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 90 } });
    expect(after.body).toEqual({ now: '2026-01-01T00:01:30.000Z' });
  });

  it('refuses a negative or non-numeric advance with VALIDATION_ERROR', async () => {
    for (const body of [{ seconds: -1 }, { seconds: '10' }, {}]) {
      const res = await call(env, 'POST', '/_mock/clock/advance', { body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const bad = await call(env, 'POST', '/_mock/clock/advance', { rawBody: '{oops', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ code: 'VALIDATION_ERROR', message: 'request body is not valid JSON' });
    expect(bad.body.meta.request_id).toMatch(/^req_/);
  });

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const res = await call(env, 'GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
  });
});

describe('a mock whose origin names the default port', () => {
  it.each([
    ['http://localhost:80', 'http://localhost'],
    ['https://mock.example:443/', 'https://mock.example'],
  ])('writes %s as URL parsing does (%s) and answers the anchor there', async (origin, normalized) => {
    const backend = createMockBackend({ origin, clock: 'manual' });
    const server = setupServer(...backend.handlers);
    server.listen({ onUnhandledFrame: 'error' });
    try {
      expect(backend.urls).toMatchObject({ origin: normalized, anchor: `${normalized}/anchor`, control: `${normalized}/_mock` });
      const toml = await (await fetch(new URL('/.well-known/stellar.toml', origin))).text();
      expect(toml).toContain(`WEB_AUTH_ENDPOINT="${normalized}/anchor/auth"`);
      expect(toml).not.toMatch(/:(80|443)\//);
      expect((await fetch(`${normalized}/anchor/info`)).status).toBe(200);
      const client = Keypair.random();
      const got = await fetch(`${normalized}/anchor/auth?account=${client.publicKey()}`);
      expect(got.status).toBe(200);
      const { transaction, network_passphrase } = (await got.json()) as { transaction: string; network_passphrase: string };
      const host = new URL(normalized).host;
      const { tx } = WebAuth.readChallengeTx(transaction, backend.context.anchorKeypair.publicKey(), network_passphrase, host, host);
      tx.sign(client);
      const token = await fetch(`${normalized}/anchor/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ transaction: tx.toXDR() }) });
      expect(token.status).toBe(200);
    } finally {
      server.close();
      backend.clock.stop();
    }
  });
});

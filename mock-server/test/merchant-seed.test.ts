import { Keypair, type Transaction, TransactionBuilder } from '@stellar/stellar-sdk';
import { describe, expect, it } from 'vitest';
import { signJwt } from '../src/crypto.js';
import { createRandom } from '../src/random.js';
import { call, MODES, type MockEnv } from './helpers/env.js';

/** One merchant's set-up through the public endpoints; returns every id, key and time the mock chose. */
async function setUp(env: MockEnv) {
  const reg = await call(env, 'POST', '/api/v1/merchant/register', {
    body: { name: 'Seed Shop', legal_name: 'Seed Shop Ltd', email: 'seed@example.com', password: 'seeded password' },
  });
  const login = await call(env, 'POST', '/api/v1/merchant/login', { body: { email: 'seed@example.com', password: 'seeded password' } });
  const auth = { authorization: `Bearer ${login.body.data.access_token}` };
  const pk = await call(env, 'POST', '/api/v1/merchant/apikeys', { headers: auth, body: { key_type: 'public', domains: ['https://shop.example.com'] } });
  const sk = await call(env, 'POST', '/api/v1/merchant/apikeys', { headers: auth, body: { key_type: 'secret', domains: [] } });
  const webhook = await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: auth, body: { url: 'https://shop.example.com/hooks' } });
  const headers = { 'x-api-key': sk.body.data.key };
  const customer = await call(env, 'POST', '/api/v1/widget/customer', {
    headers,
    body: { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' },
  });
  const session = await call(env, 'POST', '/api/v1/widget/session', { headers, body: { user_id: customer.body.data.id } });
  const toml = await (await fetch(`${env.origin}/.well-known/stellar.toml`)).text();
  return {
    ids: {
      merchant: reg.body.data.id,
      public_key: pk.body.data.id,
      secret_key: sk.body.data.id,
      customer: customer.body.data.id,
      session: session.body.data.session_id,
    },
    times: { created_at: reg.body.data.created_at, expires_at: session.body.data.expires_at },
    secrets: {
      access_token: login.body.data.access_token as string,
      public_key: pk.body.data.key as string,
      secret_key: sk.body.data.key as string,
      webhook: webhook.body.data.secret as string,
      session_token: session.body.data.session_token as string,
      stellar_public_key: reg.body.data.stellar_public_key as string,
      signing_key: /SIGNING_KEY="(G[A-Z2-7]{55})"/.exec(toml)![1]!,
    },
  };
}

/** What the mock made its secrets with before they left the seeded generator (context.ts, same order). */
function seededSecrets(seed: number) {
  const random = createRandom(seed);
  return { jwtSecret: random.hex(32), anchorKeypair: Keypair.fromRawEd25519Seed(Buffer.from(random.bytes(32))) };
}

describe.each(MODES)('--seed, %s', (_name, start) => {
  async function run(seed: number, clockStart?: string) {
    const env = await start({ seed, ...(clockStart ? { clockStart } : {}) });
    try {
      return await setUp(env);
    } finally {
      await env.close();
    }
  }

  it('gives the same ids for the same calls under the same seed, and fresh secrets every time', async () => {
    const first = await run(42);
    const second = await run(42);
    expect(second.ids).toEqual(first.ids);
    for (const [name, value] of Object.entries(first.secrets)) {
      expect(value, name).toEqual(expect.any(String));
      expect(second.secrets[name as keyof typeof first.secrets], name).not.toBe(value);
    }
    expect(first.secrets.secret_key).toMatch(/^sika_secret_[0-9a-f]{48}$/);
  });

  it('gives the same times too when the clock start is named', async () => {
    const first = await run(42, '2026-01-01T00:00:00Z');
    const second = await run(42, '2026-01-01T00:00:00Z');
    expect(second.times).toEqual(first.times);
    expect(first.times).toEqual({ created_at: '2026-01-01T00:00:00.000000000Z', expires_at: '2026-01-01T00:30:00.000Z' });
  });

  it('gives different ids under another seed', async () => {
    const a = await run(1);
    const b = await run(2);
    expect(b.ids.merchant).not.toBe(a.ids.merchant);
    expect(b.ids.customer).not.toBe(a.ids.customer);
  });

  it('refuses dashboard and SEP-10 tokens forged offline from the seed the docs use', async () => {
    const env = await start({ seed: 1 });
    try {
      const { ids } = await setUp(env);
      const { jwtSecret, anchorKeypair } = seededSecrets(1);
      const now = Math.floor(env.backend.clock.now() / 1000);
      const dashboard = await signJwt({ sub: ids.merchant, aud: 'dashboard', iat: now, exp: now + 3600 }, jwtSecret);
      const profile = await call(env, 'GET', '/api/v1/merchant/profile', { headers: { authorization: `Bearer ${dashboard}` } });
      expect(profile.status).toBe(401);

      const client = Keypair.random();
      const sep10 = await signJwt({ iss: `${env.origin}/anchor/auth`, sub: client.publicKey(), iat: now, exp: now + 900, home_domain: new URL(env.origin).host }, jwtSecret);
      const txs = await call(env, 'GET', '/anchor/transactions?asset_code=USDC', { headers: { authorization: `Bearer ${sep10}` } });
      expect(txs.status).toBe(403);

      // The anchor's SEP-10 signing key is not the seeded one either: a challenge signed with it is not the anchor's.
      const challenge = await call(env, 'GET', `/anchor/auth?account=${client.publicKey()}`);
      const tx = TransactionBuilder.fromXDR(challenge.body.transaction, challenge.body.network_passphrase) as Transaction;
      expect(tx.source).not.toBe(anchorKeypair.publicKey());
    } finally {
      await env.close();
    }
  });
});

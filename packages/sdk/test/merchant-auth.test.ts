import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantClient } from '../src/clients/merchant.js';
import { AuthenticationError, BadRequestError, MemoryTokenStore, ValidationError, type TokenStore } from '../src/index.js';
import { newMerchant, recordingFetch } from './helpers/clients.js';
import { MODES, type MockEnv } from './helpers/mock.js';

const logins = (sent: string[]) => sent.filter((s) => s === 'POST /api/v1/merchant/login').length;

describe.each(MODES)('MerchantClient register and login, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 21 });
  });
  afterAll(() => env.close());

  it('registers a merchant with the documented defaults', async () => {
    const { client, email } = await newMerchant(env);
    const profile = await client.profile.get();
    expect(profile).toMatchObject({ email, status: 'pending', tier: 'starter', fee_base_bps: 100, fee_markup_bps: 0, current_month_volume: 0, is_test_mode: false });
    expect(profile.stellar_public_key).toMatch(/^G[A-Z2-7]{55}$/);
  });

  it('refuses an e-mail that is already registered', async () => {
    const { client, email } = await newMerchant(env);
    const error = await client.auth.register({ name: 'X', legal_name: 'X Ltd', email, password: 'another password' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('refuses a short password before sending anything', async () => {
    const { fetch, sent } = recordingFetch();
    const client = new MerchantClient({ baseUrl: env.origin, fetch });
    const error = await client.auth.register({ name: 'X', legal_name: 'X Ltd', email: 'x@example.com', password: 'short' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual([['password']]);
    expect((error as Error).message).not.toContain('short');
    expect(sent).toEqual([]);
  });

  it('logs in once and reuses the token for every call', async () => {
    const { client, sent } = await newMerchant(env);
    await client.profile.get();
    await client.kyb.status();
    await client.webhook.get();
    expect(logins(sent)).toBe(1);
  });

  it('shares one login between concurrent calls', async () => {
    const { client, sent } = await newMerchant(env);
    await Promise.all([client.profile.get(), client.kyb.status(), client.webhook.get(), client.profile.get()]);
    expect(logins(sent)).toBe(1);
  });

  it('logs in again shortly before the 24 h token expires, not earlier', async () => {
    const { client, sent } = await newMerchant(env);
    await client.profile.get();
    await env.backend.clock.advance(24 * 3600 - 61);
    await client.profile.get();
    expect(logins(sent)).toBe(1);
    await env.backend.clock.advance(2);
    await client.profile.get();
    expect(logins(sent)).toBe(2);
  });

  it('logs in again when the service refuses the cached token', async () => {
    const inner = new MemoryTokenStore();
    const keys: string[] = [];
    const store: TokenStore = { get: (k) => inner.get(k), set: (k, t) => (keys.push(k), inner.set(k, t)), delete: (k) => inner.delete(k) };
    const first = await newMerchant(env, { tokenStore: store });
    await first.client.profile.get();
    expect(keys).toEqual([expect.stringMatching(new RegExp(`^sikaramp:merchant:${env.origin.replace(/[.]/g, '\\.')}:${first.email}:[0-9a-f]{64}$`))]);
    await inner.set(keys[0]!, { token: 'not-a-valid-token', expiresAt: env.backend.clock.now() + 3_600_000 });
    await expect(first.client.profile.get()).resolves.toMatchObject({ email: first.email });
    expect(first.sent.filter((s) => s === 'GET /api/v1/merchant/profile')).toHaveLength(3);
    expect(logins(first.sent)).toBe(2);
  });

  it('shares a token between clients through a token store', async () => {
    const store = new MemoryTokenStore();
    const { email, password } = await newMerchant(env);
    const a = recordingFetch();
    const b = recordingFetch();
    const now = () => env.backend.clock.now();
    await new MerchantClient({ baseUrl: env.origin, email, password, tokenStore: store, fetch: a.fetch, now }).profile.get();
    await new MerchantClient({ baseUrl: env.origin, email, password, tokenStore: store, fetch: b.fetch, now }).profile.get();
    expect([logins(a.sent), logins(b.sent)]).toEqual([1, 0]);
  });

  it('gives a shared store\'s token only to a client with the password that made it', async () => {
    // One store for several merchants (a platform with one Redis): knowing a merchant's e-mail
    // must not be enough to be handed its dashboard token.
    const store = new MemoryTokenStore();
    const keys: string[] = [];
    const shared: TokenStore = { get: (k) => store.get(k), set: (k, t) => (keys.push(k), store.set(k, t)), delete: (k) => store.delete(k) };
    const now = () => env.backend.clock.now();
    const { email, password } = await newMerchant(env);
    await new MerchantClient({ baseUrl: env.origin, email, password, tokenStore: shared, now }).profile.get();
    const intruder = recordingFetch();
    const wrong = new MerchantClient({ baseUrl: env.origin, email, password: 'a guess, not the password', tokenStore: shared, fetch: intruder.fetch, now });
    const error = await wrong.profile.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(intruder.sent).toEqual(['POST /api/v1/merchant/login']);
    // Neither the password nor anything as quick to test as a plain hash of it names the entry.
    for (const key of keys) expect(key).not.toContain(password);
  });

  it('uses an access token it is given, and reports its expiry as AuthenticationError', async () => {
    const { client, email, password } = await newMerchant(env);
    const { access_token } = await client.auth.login({ email, password });
    const byToken = new MerchantClient({ baseUrl: env.origin, accessToken: access_token });
    await expect(byToken.profile.get()).resolves.toMatchObject({ email });
    await env.backend.clock.advance(24 * 3600 + 1);
    const error = await byToken.profile.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect((error as Error).message).not.toContain(access_token);
  });

  it('answers a wrong password with AuthenticationError and keeps the password out of it', async () => {
    const { email } = await newMerchant(env);
    const client = new MerchantClient({ baseUrl: env.origin, email, password: 'wrong password!' });
    const error = await client.profile.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((error as Error).message).not.toContain('wrong password!');
  });

  it('says what is missing when a dashboard call has no credentials', async () => {
    await expect(new MerchantClient({ baseUrl: env.origin }).profile.get()).rejects.toThrow('needs email and password, or an accessToken');
  });
});

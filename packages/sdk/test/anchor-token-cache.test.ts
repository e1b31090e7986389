/**
 * One SEP-10 token store shared by several AnchorClients (one Redis for many processes, one
 * store for many tenants): a client is handed a cached token only if it could have signed for
 * it, and a token is reused only for its own principal (account, or `account:memo`), home domain
 * and anchor. Against two standalone mock anchors over HTTP on 127.0.0.1, with real keypairs.
 */
import { Account, BASE_FEE, Keypair, Memo, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient, ChallengeError, validateChallenge, type AnchorClientOptions, type ChallengeSigner } from '../src/anchor/index.js';
import { ApiError, BadRequestError, MemoryTokenStore, ValidationError, type TokenStore } from '../src/index.js';
import { customerInput } from './helpers/clients.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';

interface Sent {
  method: string;
  url: URL;
  authorization: string | null;
}

/** A fetch that records each request's method, URL and Authorization header, then sends it. */
function wire() {
  const sent: Sent[] = [];
  const record: typeof fetch = (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    sent.push({ method: request.method, url: new URL(request.url), authorization: request.headers.get('authorization') });
    return fetch(input, init);
  };
  /** How many SEP-10 challenges were asked of `env`'s anchor. */
  const challenges = (env: MockEnv) => sent.filter((s) => s.method === 'GET' && s.url.href.startsWith(`${env.origin}/anchor/auth`)).length;
  return { fetch: record, sent, challenges };
}

/** A shared store that also lists the keys written to it. */
function sharedStore() {
  const memory = new MemoryTokenStore();
  const keys = new Set<string>();
  const store: TokenStore = { get: (k) => memory.get(k), set: (k, t) => (keys.add(k), memory.set(k, t)), delete: (k) => memory.delete(k) };
  return { store, keys };
}

/** A wallet's signer function that signs with `key`. */
const signWith =
  (key: Keypair): ChallengeSigner =>
  (xdr, passphrase) => {
    const tx = TransactionBuilder.fromXDR(xdr, passphrase);
    tx.sign(key);
    return tx.toXDR();
  };

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string; iss: string };

let a: MockEnv;
let b: MockEnv;
beforeAll(async () => {
  [a, b] = await Promise.all([startStandalone({ seed: 61 }), startStandalone({ seed: 62 })]);
});
afterAll(() => Promise.all([a.close(), b.close()]));

const client = (env: MockEnv, options: Omit<AnchorClientOptions, 'anchorUrl'>) =>
  new AnchorClient({ anchorUrl: `${env.origin}/anchor`, maxRetries: 0, now: () => env.backend.clock.now(), ...options });

describe('AnchorClients sharing one token store', () => {
  it('reuses the token for a second client with the same Keypair: one challenge for both', async () => {
    const key = Keypair.random();
    const { store } = sharedStore();
    const w = wire();
    const first = await client(a, { signer: Keypair.fromSecret(key.secret()), tokenStore: store, fetch: w.fetch }).authenticate();
    const second = await client(a, { signer: Keypair.fromSecret(key.secret()), tokenStore: store, fetch: w.fetch }).authenticate();
    expect(second).toBe(first);
    expect(w.challenges(a)).toBe(1);
    expect(claims(first).sub).toBe(key.publicKey());
  });

  it("does not hand the account's token to a client naming it with a wrong key: that client signs its own challenge, which the anchor refuses", async () => {
    const owner = Keypair.random();
    const { store } = sharedStore();
    const token = await client(a, { signer: owner, tokenStore: store }).authenticate();
    const intruder = wire();
    const impostor = client(a, { account: owner.publicKey(), signer: signWith(Keypair.random()), tokenCacheKey: 'a guess', tokenStore: store, fetch: intruder.fetch });
    await expect(impostor.authenticate()).rejects.toBeInstanceOf(ApiError);
    await expect(impostor.customers.put(customerInput())).rejects.toBeInstanceOf(ApiError);
    expect(intruder.challenges(a)).toBe(2);
    expect(intruder.sent.map((s) => s.authorization)).not.toContain(`Bearer ${token}`);
  });

  it('does not hand it to a client whose signer refuses to sign: its call fails with the signer’s error', async () => {
    const owner = Keypair.random();
    const { store } = sharedStore();
    await client(a, { signer: owner, tokenStore: store }).authenticate();
    const refused = new Error('the wallet refused to sign');
    const w = wire();
    const wallet = client(a, { account: owner.publicKey(), signer: () => Promise.reject(refused), tokenCacheKey: 'another deployment', tokenStore: store, fetch: w.fetch });
    await expect(wallet.authenticate()).rejects.toBe(refused);
    expect(w.challenges(a)).toBe(1);
  });

  it('with a signer function, shares the token between clients with the same tokenCacheKey, and with no one else', async () => {
    const wallet = Keypair.random();
    const { store } = sharedStore();
    const w = wire();
    const process1 = client(a, { account: wallet.publicKey(), signer: signWith(wallet), tokenCacheKey: 'shop-secret-1', tokenStore: store, fetch: w.fetch });
    const process2 = client(a, { account: wallet.publicKey(), signer: () => Promise.reject(new Error('not asked')), tokenCacheKey: 'shop-secret-1', tokenStore: store, fetch: w.fetch });
    const token = await process1.authenticate();
    await expect(process2.authenticate()).resolves.toBe(token);
    expect(w.challenges(a)).toBe(1);
    // The Keypair of the same account keys its cache by its seed, not by a chosen key: it signs for itself.
    await expect(client(a, { signer: wallet, tokenStore: store, fetch: w.fetch }).authenticate()).resolves.not.toBe(token);
    expect(w.challenges(a)).toBe(2);
  });

  it('caches each memo of a shared account apart: the token of G…:1 is never used for G…:2 or for G…', async () => {
    const omnibus = Keypair.random();
    const { store } = sharedStore();
    const w = wire();
    const as = (memo?: string) => client(a, { signer: omnibus, tokenStore: store, fetch: w.fetch, ...(memo === undefined ? {} : { memo }) });
    const one = await as('1').authenticate();
    const two = await as('2').authenticate();
    const bare = await as().authenticate();
    expect([claims(one).sub, claims(two).sub, claims(bare).sub]).toEqual([`${omnibus.publicKey()}:1`, `${omnibus.publicKey()}:2`, omnibus.publicKey()]);
    expect(w.challenges(a)).toBe(3);
    await expect(as('18446744073709551615').authenticate()).resolves.toSatisfy((t: string) => claims(t).sub === `${omnibus.publicKey()}:18446744073709551615`);
    // The same memo in another client is the same principal: its token is reused.
    await expect(as('2').authenticate()).resolves.toBe(two);
    expect(w.challenges(a)).toBe(4);
  });

  it("never sends one anchor's token to another: a client of anchor B signs in at B, and B's calls carry B's token", async () => {
    const key = Keypair.random();
    const { store } = sharedStore();
    const w = wire();
    const tokenA = await client(a, { signer: key, tokenStore: store, fetch: w.fetch }).authenticate();
    const atB = client(b, { signer: key, tokenStore: store, fetch: w.fetch });
    await atB.customers.put(customerInput());
    const tokenB = await atB.authenticate();
    expect(tokenB).not.toBe(tokenA);
    expect([w.challenges(a), w.challenges(b)]).toEqual([1, 1]);
    expect(claims(tokenA).iss).toContain(new URL(a.origin).host);
    expect(claims(tokenB).iss).toContain(new URL(b.origin).host);
    const toB = w.sent.filter((s) => s.url.origin === b.origin && s.authorization !== null).map((s) => s.authorization);
    expect(toB.length).toBeGreaterThan(0);
    expect(new Set(toB)).toEqual(new Set([`Bearer ${tokenB}`]));
  });

  it('does not reuse a token for another home domain: that client asks its own challenge (this anchor serves one home domain and refuses it)', async () => {
    const key = Keypair.random();
    const { store } = sharedStore();
    const w = wire();
    await client(a, { signer: key, tokenStore: store, fetch: w.fetch }).authenticate();
    const toml = await (await fetch(`${a.origin}/.well-known/stellar.toml`)).text();
    const pinned = { serverSigningKey: /^SIGNING_KEY\s*=\s*"(G[A-Z2-7]{55})"/m.exec(toml)![1]!, networkPassphrase: /^NETWORK_PASSPHRASE\s*=\s*"([^"]+)"/m.exec(toml)![1]! };
    const other = client(a, { signer: key, tokenStore: store, fetch: w.fetch, homeDomain: 'shop.example', ...pinned });
    await expect(other.authenticate()).rejects.toBeInstanceOf(BadRequestError);
    expect(w.challenges(a)).toBe(2);
  });

  it('keys the store by fingerprints: no key holds the seed, its bytes or the tokenCacheKey', async () => {
    const key = Keypair.random();
    const wallet = Keypair.random();
    const { store, keys } = sharedStore();
    await client(a, { signer: key, tokenStore: store }).authenticate();
    await client(a, { signer: key, memo: '7', tokenStore: store }).authenticate();
    await client(a, { account: wallet.publicKey(), signer: signWith(wallet), tokenCacheKey: 'kms-deployment-key', tokenStore: store }).authenticate();
    const secrets = [key.secret(), Buffer.from(key.rawSecretKey()).toString('hex'), Buffer.from(key.rawSecretKey()).toString('base64'), 'kms-deployment-key'];
    expect([...keys]).toHaveLength(3);
    for (const k of keys) {
      expect(k).toMatch(new RegExp(`^sikaramp:anchor:${a.origin}/anchor:G[A-Z2-7]{55}(?::\\d+)?:[0-9a-f]{64}$`));
      for (const secret of secrets) expect(k).not.toContain(secret);
    }
  });
});

describe('AnchorClient token cache options', () => {
  const { store } = sharedStore();
  const wallet = Keypair.random();
  const refused = (options: Omit<AnchorClientOptions, 'anchorUrl'>) => {
    try {
      client(a, options);
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('refuses a signer function with a shared store and no tokenCacheKey, since nothing in the key would prove the signer', () => {
    const error = refused({ account: wallet.publicKey(), signer: signWith(wallet), tokenStore: store });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ issues: [{ path: ['tokenCacheKey'] }] });
    expect(refused({ account: wallet.publicKey(), signer: signWith(wallet), tokenStore: store, tokenCacheKey: '' })).toBeInstanceOf(ValidationError);
    // Its own memory, the default, is read by no other client.
    expect(refused({ account: wallet.publicKey(), signer: signWith(wallet) })).toBeUndefined();
  });

  it('refuses a tokenCacheKey beside a Keypair, a Keypair without its secret, and a memo that is no id memo', () => {
    expect(refused({ signer: wallet, tokenStore: store, tokenCacheKey: 'x' })).toMatchObject({ issues: [{ path: ['tokenCacheKey'] }] });
    expect(refused({ signer: Keypair.fromPublicKey(wallet.publicKey()) })).toMatchObject({ issues: [{ path: ['signer'] }] });
    for (const memo of ['0', '-1', '1.5', 'abc', '', '18446744073709551616', '01']) {
      const error = refused({ signer: wallet, memo });
      expect(error, memo).toBeInstanceOf(ValidationError);
      expect((error as Error).message).not.toContain(wallet.secret());
    }
  });
});

describe('a challenge for a memo', () => {
  const server = Keypair.random();
  const user = Keypair.random();
  const endpoint = 'https://anchor.example/auth';
  /** A SEP-10 challenge for `user`, signed by `server`, with `memo`. */
  const challenge = (memo?: Memo) => {
    const now = Math.floor(Date.now() / 1000);
    const builder = new TransactionBuilder(new Account(server.publicKey(), '-1'), { fee: BASE_FEE, networkPassphrase: Networks.TESTNET, timebounds: { minTime: now, maxTime: now + 300 } })
      .addOperation(Operation.manageData({ name: 'anchor.example auth', value: btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(48)))), source: user.publicKey() }))
      .addOperation(Operation.manageData({ name: 'web_auth_domain', value: 'anchor.example', source: server.publicKey() }));
    if (memo) builder.addMemo(memo);
    const tx = builder.build();
    tx.sign(server);
    return { transaction: tx.toXDR() };
  };
  const expect1 = { serverKey: server.publicKey(), networkPassphrase: Networks.TESTNET, endpoint, account: user.publicKey(), memo: '1', homeDomain: 'anchor.example', now: Date.now() };
  const reason = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return error instanceof ChallengeError ? error.reason : error;
    }
    return undefined;
  };

  it('signs one that carries the id memo asked for, and refuses another memo, a text memo, none, or one not asked for', () => {
    expect(reason(() => validateChallenge(challenge(Memo.id('1')), expect1))).toBeUndefined();
    expect(reason(() => validateChallenge(challenge(Memo.id('2')), expect1))).toBe('memo');
    expect(reason(() => validateChallenge(challenge(Memo.text('1')), expect1))).toBe('memo');
    expect(reason(() => validateChallenge(challenge(), expect1))).toBe('memo');
    expect(reason(() => validateChallenge(challenge(Memo.id('1')), { ...expect1, memo: undefined }))).toBe('memo');
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair, StellarToml, type Transaction, TransactionBuilder, WebAuth, xdr } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { advance } from './helpers/interactive.js';

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());

describe.each(MODES)('SEP-1 and SEP-10 at the anchor, %s', (_name, start) => {
  let env: MockEnv;
  let host: string;
  /** What wallets pass as the web auth domain: WEB_AUTH_ENDPOINT's host name, without the port. */
  let hostname: string;
  // The manual clock starts at the wall clock, which WebAuth.readChallengeTx checks time bounds against.
  beforeAll(async () => {
    env = await start();
    host = new URL(env.origin).host;
    hostname = new URL(env.origin).hostname;
  });
  afterAll(() => env.close());

  const challengeFor = async (account: string) => {
    const res = await call(env, 'GET', `/anchor/auth?account=${account}`);
    expect(res.status).toBe(200);
    return res.body as { transaction: string; network_passphrase: string };
  };
  const post = (transaction: unknown) => call(env, 'POST', '/anchor/auth', { body: { transaction } });
  const sign = (challenge: string, passphrase: string, ...keys: Keypair[]) => {
    const tx = TransactionBuilder.fromXDR(challenge, passphrase);
    for (const key of keys) tx.sign(key);
    return tx.toXDR();
  };

  it('serves stellar.toml at the root of the origin, readable by the SDK resolver', async () => {
    const raw = await fetch(`${env.origin}/.well-known/stellar.toml`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(raw.headers.get('access-control-allow-origin')).toBe('*');
    const toml = await StellarToml.Resolver.resolve(host, { allowHttp: env.origin.startsWith('http:') });
    expect(toml).toMatchObject({
      NETWORK_PASSPHRASE: 'Test SDF Network ; September 2015',
      SIGNING_KEY: env.backend.context.anchorKeypair.publicKey(),
      WEB_AUTH_ENDPOINT: `${env.origin}/anchor/auth`,
      KYC_SERVER: `${env.origin}/anchor`,
      TRANSFER_SERVER_SEP0024: `${env.origin}/anchor`,
    });
    expect(toml.CURRENCIES).toEqual([
      expect.objectContaining({ code: 'USDC', issuer: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5', status: 'test' }),
    ]);
    expect(toml.ACCOUNTS).toHaveLength(1);
    expect(toml.ACCOUNTS![0]).not.toBe(toml.SIGNING_KEY);
  });

  it('authenticates a client written only with the SDK WebAuth helpers and a real keypair', async () => {
    const toml = await StellarToml.Resolver.resolve(host, { allowHttp: env.origin.startsWith('http:') });
    const client = Keypair.random();
    const got = await fetch(`${toml.WEB_AUTH_ENDPOINT}?account=${client.publicKey()}`);
    const { transaction, network_passphrase } = (await got.json()) as { transaction: string; network_passphrase: string };
    expect(network_passphrase).toBe(toml.NETWORK_PASSPHRASE);
    const { tx, clientAccountID, matchedHomeDomain } = WebAuth.readChallengeTx(
      transaction,
      toml.SIGNING_KEY!,
      network_passphrase,
      host,
      new URL(toml.WEB_AUTH_ENDPOINT!).hostname,
    );
    expect(clientAccountID).toBe(client.publicKey());
    expect(matchedHomeDomain).toBe(host);
    expect(tx.sequence).toBe('0');
    tx.sign(client);
    const res = await fetch(toml.WEB_AUTH_ENDPOINT!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transaction: tx.toXDR() }),
    });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    const claims = claimsOf(token);
    expect(claims).toMatchObject({ iss: toml.WEB_AUTH_ENDPOINT, sub: client.publicKey(), home_domain: host });
    expect(claims.exp - claims.iat).toBe(15 * 60);
    expect(claims.jti).toBe(Buffer.from(tx.hash()).toString('hex'));
    const list = await call(env, 'GET', '/anchor/transactions?asset_code=USDC', { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ transactions: [] });
  });

  it('takes the signed challenge as a form too, and carries an id memo into the token', async () => {
    const client = Keypair.random();
    const res = await call(env, 'GET', `/anchor/auth?account=${client.publicKey()}&memo=1234567`);
    const { tx, memo } = WebAuth.readChallengeTx(res.body.transaction, env.backend.context.anchorKeypair.publicKey(), res.body.network_passphrase, host, hostname);
    expect(memo).toBe('1234567');
    tx.sign(client);
    const form = await call(env, 'POST', '/anchor/auth', {
      rawBody: new URLSearchParams({ transaction: tx.toXDR() }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(200);
    expect(claimsOf(form.body.token).sub).toBe(`${client.publicKey()}:1234567`);
  });

  // These run before the tests that move the manual clock: wallets' helpers check time bounds against the wall clock.
  it('names the web auth domain by its host name alone, as wallets compare it, and the home domain with its port', async () => {
    const client = Keypair.random();
    const { transaction, network_passphrase } = await challengeFor(client.publicKey());
    const tx = TransactionBuilder.fromXDR(transaction, network_passphrase) as Transaction;
    const data = Object.fromEntries(tx.operations.map((op: any) => [op.name, Buffer.from(op.value ?? []).toString()]));
    expect(Object.keys(data)).toEqual([`${host} auth`, 'web_auth_domain']);
    expect(data.web_auth_domain).toBe(hostname);
    // On a port (the standalone mock), the host with its port is not what a wallet would accept.
    if (env.mode === 'standalone') {
      expect(host).not.toBe(hostname);
      expect(() => WebAuth.readChallengeTx(transaction, env.backend.context.anchorKeypair.publicKey(), network_passphrase, host, host)).toThrow(/web_auth_domain/);
    }
  });

  describe('client_domain (SEP-10 client attribution)', () => {
    const walletKey = Keypair.random();
    let toml: Server;
    let domain: string;
    /** A wallet's site on 127.0.0.1 serving its stellar.toml; `body` decides what the file says. */
    let body = `SIGNING_KEY="${walletKey.publicKey()}"\n`;
    beforeAll(async () => {
      toml = createServer((req, res) => {
        if (req.url !== '/.well-known/stellar.toml') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
      });
      await new Promise<void>((resolve) => toml.listen(0, '127.0.0.1', resolve));
      domain = `127.0.0.1:${(toml.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => toml.close(resolve)));

    const challengeWithDomain = async (account: string) => {
      const res = await call(env, 'GET', `/anchor/auth?account=${account}&client_domain=${domain}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { transaction: string; network_passphrase: string };
    };

    it('adds a client_domain operation sourced by the domain\'s SIGNING_KEY, and puts client_domain in the token', async () => {
      const client = Keypair.random();
      const { transaction, network_passphrase } = await challengeWithDomain(client.publicKey());
      const { tx } = WebAuth.readChallengeTx(transaction, env.backend.context.anchorKeypair.publicKey(), network_passphrase, host, hostname);
      const op = tx.operations.find((o: any) => o.name === 'client_domain') as any;
      expect(op.source).toBe(walletKey.publicKey());
      expect(Buffer.from(op.value).toString()).toBe(domain);
      const res = await post(sign(transaction, network_passphrase, client, walletKey));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(claimsOf(res.body.token)).toMatchObject({ sub: client.publicKey(), client_domain: domain });
      const list = await call(env, 'GET', '/anchor/transactions?asset_code=USDC', { headers: { authorization: `Bearer ${res.body.token}` } });
      expect(list.status).toBe(200);
    });

    it('refuses the challenge without the domain\'s signature, or with a key more', async () => {
      const client = Keypair.random();
      const { transaction, network_passphrase } = await challengeWithDomain(client.publicKey());
      const alone = await post(sign(transaction, network_passphrase, client));
      expect(alone.status).toBe(400);
      expect(alone.body).toEqual({ error: `invalid challenge: not signed by the SIGNING_KEY of ${domain}` });
      const impostor = await post(sign(transaction, network_passphrase, client, Keypair.random()));
      expect(impostor.body).toEqual({ error: `invalid challenge: not signed by the SIGNING_KEY of ${domain}` });
      const extra = await post(sign(transaction, network_passphrase, client, walletKey, Keypair.random()));
      expect(extra.status).toBe(400);
      expect(extra.body.error).toBe('invalid challenge: signed by keys other than the client account and its client domain');
    });

    it('answers 400 when the domain is malformed, unreachable, or its stellar.toml has no valid SIGNING_KEY', async () => {
      const account = Keypair.random().publicKey();
      const ask = (d: string) => call(env, 'GET', `/anchor/auth?account=${account}&client_domain=${encodeURIComponent(d)}`);
      for (const bad of ['wallet.example/path', 'wallet.example:8443', 'http://wallet.example', `${'a'.repeat(60)}.example`, 'x']) {
        const res = await ask(bad);
        expect(res.status, bad).toBe(400);
        expect(res.body.error).toMatch(/^client_domain: must be a domain name/);
      }
      // Reserved names are refused without a request: no test reaches beyond 127.0.0.1.
      for (const reserved of ['wallet.example', 'wallet.test', 'wallet.invalid']) {
        expect((await ask(reserved)).body).toEqual({ error: `client_domain: ${reserved} is a reserved name that serves no stellar.toml` });
      }
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const unreachable = await ask(`127.0.0.1:${closedPort}`);
      expect(unreachable.status).toBe(400);
      expect(unreachable.body).toEqual({ error: `client_domain: could not read http://127.0.0.1:${closedPort}/.well-known/stellar.toml` });
      for (const text of ['VERSION="2.0.0"\n', 'SIGNING_KEY="GNOTAKEY"\n']) {
        body = text;
        const res = await ask(domain);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: `client_domain: the stellar.toml of ${domain} has no valid SIGNING_KEY` });
      }
      body = `SIGNING_KEY="${walletKey.publicKey()}"\n`;
    });
  });

  it('keeps the token valid for 15 minutes of clock time, then refuses it with 403', async () => {
    const client = Keypair.random();
    const { transaction, network_passphrase } = await challengeFor(client.publicKey());
    const { body } = await post(sign(transaction, network_passphrase, client));
    const use = () => call(env, 'GET', '/anchor/transactions?asset_code=USDC', { headers: { authorization: `Bearer ${body.token}` } });
    await advance(env, 15 * 60 - 1);
    expect((await use()).status).toBe(200);
    await advance(env, 1);
    const late = await use();
    expect(late.status).toBe(403);
    expect(late.body).toEqual({ type: 'authentication_required', error: 'invalid or expired SEP-10 token' });
  });

  it('refuses a challenge without the client signature with 400 and the SEP error body', async () => {
    const client = Keypair.random();
    const { transaction } = await challengeFor(client.publicKey());
    const res = await post(transaction);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid challenge: not signed by the client account' });
  });

  it('refuses a challenge signed by another key, or by the client and another key', async () => {
    const client = Keypair.random();
    const { transaction, network_passphrase } = await challengeFor(client.publicKey());
    const other = await post(sign(transaction, network_passphrase, Keypair.random()));
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: 'invalid challenge: not signed by the client account' });
    const extra = await post(sign(transaction, network_passphrase, client, Keypair.random()));
    expect(extra.status).toBe(400);
    expect(extra.body).toEqual({ error: 'invalid challenge: signed by keys other than the client account and its client domain' });
  });

  it('refuses a tampered challenge: a changed nonce or stretched time bounds break the anchor signature', async () => {
    const client = Keypair.random();
    const { transaction, network_passphrase } = await challengeFor(client.publicKey());
    const tamper = (change: (envelope: xdr.TransactionEnvelope) => void) => {
      const envelope = xdr.TransactionEnvelope.fromXDR(transaction, 'base64');
      change(envelope);
      return sign(envelope.toXDR('base64'), network_passphrase, client);
    };
    // @stellar/stellar-sdk 17 decodes XDR into plain, writable objects.
    const nonce = tamper((e: any) => {
      e.v1.tx.operations[0].body.manageDataOp.dataValue.value = new TextEncoder().encode('A'.repeat(64));
    });
    const bounds = tamper((e: any) => {
      e.v1.tx.cond.timeBounds.maxTime += 86_400n;
    });
    for (const changed of [nonce, bounds]) {
      const res = await post(changed);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid challenge: not signed by the anchor' });
    }
  });

  it('refuses an expired challenge, and a challenge used twice', async () => {
    const client = Keypair.random();
    const first = await challengeFor(client.publicKey());
    const signed = sign(first.transaction, first.network_passphrase, client);
    expect((await post(signed)).status).toBe(200);
    const replay = await post(signed);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: 'invalid challenge: already used; request a new one' });

    const second = await challengeFor(client.publicKey());
    await advance(env, 5 * 60 + 1);
    const late = await post(sign(second.transaction, second.network_passphrase, client));
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ error: 'invalid challenge: expired; request a new one' });
  });

  it('refuses a challenge signed for another network', async () => {
    const client = Keypair.random();
    const { transaction } = await challengeFor(client.publicKey());
    const res = await post(sign(transaction, 'Public Global Stellar Network ; September 2015', client));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^invalid challenge: /);
  });

  it('answers bad requests with 400 and a reason', async () => {
    const cases: [string, string, unknown, string][] = [
      ['GET', '/anchor/auth', undefined, 'account: must be a Stellar account (G… or M…)'],
      ['GET', '/anchor/auth?account=GABC', undefined, 'account: must be a Stellar account (G… or M…)'],
      ['GET', `/anchor/auth?account=${Keypair.random().publicKey()}&memo=abc`, undefined, 'memo: must be an id memo (a positive 64-bit integer)'],
      ['GET', `/anchor/auth?account=${Keypair.random().publicKey()}&home_domain=elsewhere.example`, undefined, `home_domain: this anchor's home domain is ${host}`],
      ['POST', '/anchor/auth', {}, 'transaction: the signed challenge is required'],
      ['POST', '/anchor/auth', { transaction: 'not-a-transaction' }, 'invalid challenge: not a transaction envelope'],
    ];
    for (const [method, path, body, error] of cases) {
      const res = await call(env, method, path, body === undefined ? {} : { body });
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({ error });
    }
  });

  it('refuses anchor endpoints without a SEP-10 token, or with a dashboard-style forgery', async () => {
    const none = await call(env, 'GET', '/anchor/transaction?id=x');
    expect(none.status).toBe(403);
    expect(none.body).toEqual({ type: 'authentication_required', error: 'missing Authorization: Bearer <SEP-10 token>' });
    const forged = await call(env, 'GET', '/anchor/transaction?id=x', { headers: { authorization: 'Bearer a.b.c' } });
    expect(forged.status).toBe(403);
  });
});

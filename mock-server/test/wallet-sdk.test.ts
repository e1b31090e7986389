/**
 * A wallet built on Stellar's own wallet library signs in to the standalone mock, as it would
 * to any anchor: @stellar/typescript-wallet-sdk reads stellar.toml, checks the challenge with
 * @stellar/stellar-sdk's WebAuth.readChallengeTx (web_auth_domain = WEB_AUTH_ENDPOINT's host
 * name without the port), signs it and checks the token's expiry against the wall clock.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DefaultSigner, Keypair, SigningKeypair, Wallet, type WalletSigner } from '@stellar/typescript-wallet-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../src/server.js';

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());

describe.each([
  ['unseeded, real clock', {}],
  ['seeded (--seed 1), manual clock', { seed: 1, clock: 'manual' as const }],
])('@stellar/typescript-wallet-sdk against the mock on a port, %s', (_name, options) => {
  let mock: MockServer;
  let homeDomain: string;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, ...options });
    homeDomain = new URL(mock.url).host;
  });
  afterAll(() => mock.close());

  const anchor = () => Wallet.TestNet().anchor({ homeDomain, allowHttp: true });

  it('signs in with a fresh account and gets a token the anchor accepts', async () => {
    expect(new URL(mock.url).port).not.toBe('');
    const account = SigningKeypair.fromSecret(Keypair.random().secret());
    const auth = await anchor().sep10();
    const token = await auth.authenticate({ accountKp: account });
    expect(token.account).toBe(account.publicKey);
    expect(claimsOf(token.token)).toMatchObject({ sub: account.publicKey, iss: `${mock.url}/anchor/auth`, home_domain: homeDomain });
    const list = await fetch(`${mock.url}/anchor/transactions?asset_code=USDC`, { headers: { authorization: `Bearer ${token.token}` } });
    expect(list.status).toBe(200);
  });

  it('signs in with a memo for a shared account', async () => {
    const account = SigningKeypair.fromSecret(Keypair.random().secret());
    const token = await (await anchor().sep10()).authenticate({ accountKp: account, memoId: '8675309' });
    expect(claimsOf(token.token).sub).toBe(`${account.publicKey}:8675309`);
  });
});

describe('@stellar/typescript-wallet-sdk with a client domain', () => {
  const walletDomainKey = SigningKeypair.fromSecret(Keypair.random().secret());
  let mock: MockServer;
  let site: Server;
  let clientDomain: string;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
    site = createServer((req, res) => {
      if (req.url !== '/.well-known/stellar.toml') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`SIGNING_KEY="${walletDomainKey.publicKey}"\n`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    clientDomain = `127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await mock.close();
    await new Promise((resolve) => site.close(resolve));
  });

  it('has the challenge signed by the wallet domain\'s key, and the token names the client domain', async () => {
    const wallet = Wallet.TestNet();
    let domainSigned = 0;
    // What a wallet's own signing service does (DomainSigner posts it to one): add the SIGNING_KEY's signature.
    const signer: WalletSigner = {
      signWithClientAccount: (params) => DefaultSigner.signWithClientAccount(params),
      signWithDomainAccount: async ({ transactionXDR }) => {
        domainSigned++;
        // The wallet library's own copy of stellar-sdk: its transactions are what it signs next.
        const tx = wallet.stellar().decodeTransaction(transactionXDR) as ReturnType<typeof DefaultSigner.signWithClientAccount>;
        tx.sign(walletDomainKey.keypair);
        return tx;
      },
    };
    const account = SigningKeypair.fromSecret(Keypair.random().secret());
    const auth = await wallet.anchor({ homeDomain: new URL(mock.url).host, allowHttp: true }).sep10();
    const token = await auth.authenticate({ accountKp: account, clientDomain, walletSigner: signer });
    expect(domainSigned).toBe(1);
    expect(claimsOf(token.token)).toMatchObject({ sub: account.publicKey, client_domain: clientDomain });
  });
});

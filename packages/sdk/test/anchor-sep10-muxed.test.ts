/**
 * SEP-10 as the SEP defines it, against the mock anchor over real HTTP on 127.0.0.1: a muxed
 * (`M…`) account signs in with its underlying key and is its own customer at the anchor; a
 * wallet's `client_domain` (its stellar.toml served here on 127.0.0.1) gets its key's signature
 * on the challenge and is named in the token.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Account, Keypair, MuxedAccount, Networks, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient, ChallengeError } from '../src/anchor/index.js';
import { MemoryTokenStore, ValidationError } from '../src/index.js';
import { customerInput, newWidget, recordingFetch } from './helpers/clients.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';

const muxed = (key: Keypair, id: string) => new MuxedAccount(new Account(key.publicKey(), '0'), id).accountId();
const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

let env: MockEnv;
let shop: Awaited<ReturnType<typeof newWidget>>;
let customerId: string;
/** The wallet's site: serves the stellar.toml naming its SIGNING_KEY. */
let wallet: Server;
let walletDomain: string;
const walletKey = Keypair.random();

beforeAll(async () => {
  env = await startStandalone({ seed: 310 });
  shop = await newWidget(env);
  customerId = (await shop.widget.customers.create(customerInput())).id;
  wallet = createServer((req, res) => {
    if (req.url !== '/.well-known/stellar.toml') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`SIGNING_KEY="${walletKey.publicKey()}"\n`);
  });
  await new Promise<void>((resolve) => wallet.listen(0, '127.0.0.1', resolve));
  walletDomain = `127.0.0.1:${(wallet.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => wallet.close(resolve));
  await env.close();
});

const options = () => ({ anchorUrl: `${env.origin}/anchor`, now: () => env.backend.clock.now(), maxRetries: 0 });
const merchantFields = async () => {
  const { session_id, session_token } = await shop.widget.sessions.create({ user_id: customerId });
  return { merchant_id: shop.merchant.id, session_id, session_token, api_key: shop.publicKey, user_id: customerId };
};

describe('a muxed (M…) account', () => {
  it('signs in with its underlying key, gets a token for the M address, and the anchor deposits to it', async () => {
    const key = Keypair.random();
    const account = muxed(key, '9007199254740993');
    const { fetch, sent } = recordingFetch();
    const anchor = new AnchorClient({ ...options(), signer: key, account, fetch });
    expect(claims(await anchor.authenticate())).toMatchObject({ sub: account });
    const started = await anchor.transfers.deposit({ ...(await merchantFields()), amount: 25 });
    await expect(anchor.transfers.get(started.id)).resolves.toMatchObject({ id: started.id, kind: 'deposit', to: account });
    expect(sent.filter((s) => s === 'POST /anchor/auth')).toHaveLength(1);

    // Another user of the same G account is another principal: it neither shares the token nor sees the transaction.
    const store = new MemoryTokenStore();
    const other = new AnchorClient({ ...options(), signer: key, account: muxed(key, '2'), tokenStore: store });
    const same = new AnchorClient({ ...options(), signer: key, account, tokenStore: store });
    expect(claims(await other.authenticate()).sub).toBe(muxed(key, '2'));
    expect(claims(await same.authenticate()).sub).toBe(account);
    await expect(other.transfers.get(started.id)).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('is a SEP-12 customer of its own, as the anchor answers', async () => {
    const key = Keypair.random();
    const a = new AnchorClient({ ...options(), signer: key, account: muxed(key, '7') });
    const b = new AnchorClient({ ...options(), signer: key, account: muxed(key, '8') });
    const { id } = await a.customers.put(customerInput());
    await expect(a.customers.get(id)).resolves.toMatchObject({ id });
    await expect(b.customers.get(id)).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('signs through a signer function with the underlying key', async () => {
    const key = Keypair.random();
    const account = muxed(key, '11');
    const anchor = new AnchorClient({
      ...options(),
      account,
      signer: (xdr, passphrase) => {
        const tx = TransactionBuilder.fromXDR(xdr, passphrase) as Transaction;
        tx.sign(key);
        return tx.toXDR();
      },
    });
    expect(claims(await anchor.authenticate()).sub).toBe(account);
  });

  it('refuses memo with an M account, and an M account of another key, at construction, sending nothing', () => {
    const key = Keypair.random();
    const { fetch, sent } = recordingFetch();
    expect(() => new AnchorClient({ ...options(), signer: key, account: muxed(key, '5'), memo: '42', fetch })).toThrow(ValidationError);
    expect(() => new AnchorClient({ ...options(), signer: key, account: muxed(Keypair.random(), '5'), fetch })).toThrow(/muxed account of it/);
    expect(() => new AnchorClient({ ...options(), signer: key, account: `M${'A'.repeat(68)}`, fetch })).toThrow(ValidationError);
    expect(sent).toEqual([]);
  });
});

describe('client_domain (SEP-10 client attribution)', () => {
  it('asks for it, signs with both keys, and the token names the wallet', async () => {
    const key = Keypair.random();
    const seen: string[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST' && new URL(request.url).pathname === '/anchor/auth') seen.push(((await request.clone().json()) as { transaction: string }).transaction);
      else seen.push(request.url);
      return globalThis.fetch(request);
    };
    const anchor = new AnchorClient({ ...options(), signer: key, clientDomain: walletDomain, clientDomainSigner: walletKey, fetch });
    const token = await anchor.authenticate();
    expect(claims(token)).toMatchObject({ sub: key.publicKey(), client_domain: walletDomain });
    expect(new URL(seen.find((u) => u.includes('/anchor/auth?'))!).searchParams.get('client_domain')).toBe(walletDomain);
    const tx = TransactionBuilder.fromXDR(seen.at(-1)!, Networks.TESTNET) as Transaction;
    const op = tx.operations.find((o) => o.type === 'manageData' && o.name === 'client_domain');
    expect(op?.source).toBe(walletKey.publicKey());
    for (const signer of [key, walletKey]) expect(tx.signatures.some((s) => signer.verify(tx.hash(), s.signature))).toBe(true);
    expect(tx.signatures).toHaveLength(3);
  });

  it("signs through the wallet server's function, with an M account", async () => {
    const key = Keypair.random();
    const account = muxed(key, '77');
    const asked: string[] = [];
    const anchor = new AnchorClient({
      ...options(),
      signer: key,
      account,
      clientDomain: walletDomain,
      clientDomainSigner: async (xdr, passphrase) => {
        asked.push(xdr);
        const tx = TransactionBuilder.fromXDR(xdr, passphrase) as Transaction;
        tx.sign(walletKey);
        return tx.toXDR();
      },
    });
    expect(claims(await anchor.authenticate())).toMatchObject({ sub: account, client_domain: walletDomain });
    expect(asked).toHaveLength(1);
  });

  it('refuses a challenge whose client_domain operation is sourced by another key, before signing', async () => {
    const key = Keypair.random();
    const { fetch, sent } = recordingFetch();
    let signed = 0;
    // The wallet's own key is not the one the anchor put (the toml names walletKey).
    const anchor = new AnchorClient({
      ...options(),
      account: key.publicKey(),
      signer: () => {
        signed++;
        return '';
      },
      clientDomain: walletDomain,
      clientDomainSigner: Keypair.random(),
      fetch,
    });
    const error = await anchor.authenticate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChallengeError);
    expect((error as ChallengeError).reason).toBe('client_domain');
    expect(signed).toBe(0);
    expect(sent.filter((s) => s.startsWith('POST'))).toEqual([]);
  });

  it('refuses a domain signer function that signs with another key than the operation names, posting nothing', async () => {
    const key = Keypair.random();
    const { fetch, sent } = recordingFetch();
    const anchor = new AnchorClient({
      ...options(),
      signer: key,
      clientDomain: walletDomain,
      clientDomainSigner: (xdr, passphrase) => {
        const tx = TransactionBuilder.fromXDR(xdr, passphrase) as Transaction;
        tx.sign(Keypair.random());
        return tx.toXDR();
      },
      fetch,
    });
    await expect(anchor.authenticate()).rejects.toMatchObject({ name: 'ChallengeError', reason: 'signer_output' });
    expect(sent.filter((s) => s.startsWith('POST'))).toEqual([]);
  });

  it('needs clientDomain and clientDomainSigner together, and a domain name', () => {
    const key = Keypair.random();
    expect(() => new AnchorClient({ ...options(), signer: key, clientDomain: walletDomain })).toThrow(ValidationError);
    expect(() => new AnchorClient({ ...options(), signer: key, clientDomainSigner: walletKey })).toThrow(ValidationError);
    expect(() => new AnchorClient({ ...options(), signer: key, clientDomain: 'https://wallet.example/x', clientDomainSigner: walletKey })).toThrow(ValidationError);
  });
});

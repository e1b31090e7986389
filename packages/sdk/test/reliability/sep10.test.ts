/**
 * SEP-10 under concurrency, expiry and hostility. Against the mock anchor: many parallel calls
 * share one authentication, and a token that expires mid-flow (the mock's clock moved past
 * its 15 minutes) is renewed once while the flow goes on. Against a hostile anchor on
 * 127.0.0.1: any challenge with one or more things wrong is refused before the signer sees
 * it, and any well-formed one is signed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Account, Asset, BASE_FEE, Keypair, Memo, MuxedAccount, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient, ChallengeError, type ChallengeRejection } from '../../src/anchor/index.js';
import { customerInput, newWidget } from '../helpers/clients.js';
import { MODES, type MockEnv } from '../helpers/mock.js';

/** A fetch that records `METHOD /path -> status` of every exchange. */
function answeredFetch(): { fetch: typeof fetch; seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      seen.push(`${request.method} ${new URL(request.url).pathname} -> ${response.status}`);
      return response;
    },
  };
}

const count = (seen: string[], what: string) => seen.filter((s) => s.startsWith(`${what} ->`)).length;

describe.each(MODES)('SEP-10 against the mock anchor, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Awaited<ReturnType<typeof newWidget>>;
  let customerId: string;

  beforeAll(async () => {
    env = await start({ seed: 112 });
    shop = await newWidget(env);
    customerId = (await shop.widget.customers.create(customerInput())).id;
  });
  afterAll(() => env.close());

  const newAnchor = () => {
    const { fetch, seen } = answeredFetch();
    const anchor = new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer: Keypair.random(), fetch, now: () => env.backend.clock.now() });
    return { anchor, seen };
  };
  const session = async () => {
    const { session_id, session_token } = await shop.widget.sessions.create({ user_id: customerId });
    return { merchant_id: shop.merchant.id, session_id, session_token, api_key: shop.publicKey, user_id: customerId };
  };

  it('shares one authentication between twenty parallel calls of every kind', async () => {
    const { anchor, seen } = newAnchor();
    const calls = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? anchor.customers.put(customerInput()) : anchor.authenticate()));
    await Promise.all(calls);
    expect(count(seen, 'GET /.well-known/stellar.toml')).toBe(1);
    expect(count(seen, 'GET /anchor/auth')).toBe(1);
    expect(count(seen, 'POST /anchor/auth')).toBe(1);
    expect(seen.filter((s) => s.endsWith('-> 403'))).toEqual([]);
  });

  it('renews a token that expires mid-flow once, and the flow goes on', async () => {
    const { anchor, seen } = newAnchor();
    const started = await anchor.transfers.deposit({ ...(await session()), amount: 50 });
    expect(count(seen, 'POST /anchor/auth')).toBe(1);
    // The customer takes sixteen minutes on the interactive page: the 15-minute token is gone.
    await env.backend.clock.advance(16 * 60);
    await env.backend.control.anchor.completeInteractive(started.id, { provider: 'mtn', phone: '+233201234567' });
    await expect(anchor.transfers.get(started.id)).resolves.toMatchObject({ id: started.id, status: 'pending_user_transfer_start' });
    expect(count(seen, 'POST /anchor/auth')).toBe(2);
    expect(seen.filter((s) => !/-> 20\d$/.test(s))).toEqual([]);
  });

  it('renews an expired token once for twenty parallel calls', async () => {
    const { anchor, seen } = newAnchor();
    const started = await anchor.transfers.deposit({ ...(await session()), amount: 60 });
    await env.backend.clock.advance(15 * 60 + 1);
    const answers = await Promise.all(Array.from({ length: 20 }, () => anchor.transfers.get(started.id)));
    expect(answers.every((tx) => tx.id === started.id)).toBe(true);
    expect(count(seen, 'GET /anchor/auth')).toBe(2);
    expect(count(seen, 'POST /anchor/auth')).toBe(2);
  });

  it('is refused by the mock once its token has expired, as the SDK’s renewal assumes', async () => {
    const { anchor } = newAnchor();
    const token = await anchor.authenticate();
    await env.backend.clock.advance(15 * 60 + 1);
    const res = await fetch(`${env.origin}/anchor/transaction?id=x`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'invalid or expired SEP-10 token' });
  });
});

// A hostile anchor: it serves stellar.toml and whatever challenge the property hands it.

const server = Keypair.random();
const client = Keypair.random();
/** The client's clock, Unix seconds. */
const NOW = 1_767_225_600;

/** Each thing a challenge can have wrong, and the check that must refuse it when it is the only one. */
const REFUSED_BY = {
  extra_operation: 'operations',
  // Signed by the anchor's key all the same: only the source check stands between.
  source: 'server_account',
  signer: 'server_signature',
  second_signature: 'server_signature',
  home_domain: 'home_domain',
  web_auth_domain: 'web_auth_domain',
  no_web_auth_domain: 'web_auth_domain',
  expired: 'time_bounds',
  not_yet_valid: 'time_bounds',
  no_time_bounds: 'time_bounds',
  sequence: 'sequence',
  memo: 'memo',
  nonce: 'nonce',
  network: 'network_passphrase',
} as const satisfies Record<string, ChallengeRejection>;
type Flaw = keyof typeof REFUSED_BY;
const FLAWS = Object.keys(REFUSED_BY) as Flaw[];

interface Knobs {
  /** Seconds after NOW that the challenge starts (at most 60 ahead is accepted). */
  startsIn: number;
  /** Its lifetime, seconds. */
  lifetime: number;
  sequence: bigint;
  nonceBytes: number;
  /** Manage-data operations of the server beside web_auth_domain (allowed). */
  serverData: number;
  otherDomain: string;
  extraOperation: (b: TransactionBuilder) => void;
}

/** A challenge with `flaws`, else as SEP-10 describes it. */
function challenge(host: string, flaws: Set<Flaw>, k: Knobs) {
  const passphrase = flaws.has('network') ? Networks.PUBLIC : Networks.TESTNET;
  const source = flaws.has('source') ? Keypair.random() : server;
  const sequence = flaws.has('sequence') ? k.sequence : -1n;
  // Expired wins over not yet valid: bounds cannot be both.
  const maxTime = flaws.has('expired') ? NOW - 1 - (k.lifetime % 600) : undefined;
  const minTime = maxTime !== undefined ? maxTime - k.lifetime : flaws.has('not_yet_valid') ? NOW + 61 + Math.abs(k.startsIn) : NOW + Math.min(k.startsIn, 60);
  const builder = new TransactionBuilder(new Account(source.publicKey(), String(sequence)), {
    fee: BASE_FEE,
    networkPassphrase: passphrase,
    timebounds: flaws.has('no_time_bounds') ? { minTime: 0, maxTime: 0 } : { minTime, maxTime: maxTime ?? minTime + k.lifetime },
  }).addOperation(
    Operation.manageData({
      name: `${flaws.has('home_domain') ? k.otherDomain : host} auth`,
      value: btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(flaws.has('nonce') ? k.nonceBytes : 48)))),
      source: client.publicKey(),
    }),
  );
  if (!flaws.has('no_web_auth_domain')) {
    const hostname = host.replace(/:\d+$/, '');
    builder.addOperation(Operation.manageData({ name: 'web_auth_domain', value: flaws.has('web_auth_domain') ? k.otherDomain : hostname, source: source.publicKey() }));
  }
  for (let i = 0; i < k.serverData; i++) builder.addOperation(Operation.manageData({ name: `note_${i}`, value: 'x', source: source.publicKey() }));
  if (flaws.has('extra_operation')) k.extraOperation(builder);
  if (flaws.has('memo')) builder.addMemo(Memo.id('7'));
  const tx = builder.build();
  tx.sign(flaws.has('signer') ? Keypair.random() : server);
  if (flaws.has('second_signature')) tx.sign(Keypair.random());
  return { transaction: tx.toXDR(), network_passphrase: passphrase };
}

const otherAccount = () => Keypair.random().publicKey();
const knobs: fc.Arbitrary<Knobs> = fc.record({
  startsIn: fc.integer({ min: -240, max: 60 }),
  lifetime: fc.integer({ min: 300, max: 900 }),
  sequence: fc.bigInt({ min: 0n, max: 2n ** 62n }),
  // Manage-data values hold 64 bytes: base64 of at most 47.
  nonceBytes: fc.integer({ min: 1, max: 47 }),
  serverData: fc.integer({ min: 0, max: 2 }),
  otherDomain: fc.domain().filter((d) => d.length <= 50),
  extraOperation: fc.constantFrom<Knobs['extraOperation']>(
    (b) => b.addOperation(Operation.payment({ destination: otherAccount(), asset: Asset.native(), amount: '100', source: client.publicKey() })),
    (b) => b.addOperation(Operation.setOptions({ signer: { ed25519PublicKey: otherAccount(), weight: 1 }, source: client.publicKey() })),
    (b) => b.addOperation(Operation.manageData({ name: 'second auth', value: 'x', source: client.publicKey() })),
    (b) => b.addOperation(Operation.bumpSequence({ bumpTo: '1', source: server.publicKey() })),
    (b) => b.addOperation(Operation.accountMerge({ destination: otherAccount(), source: client.publicKey() })),
  ),
});

describe('SEP-10 against a hostile anchor', () => {
  let host = '';
  let next: () => { transaction: string; network_passphrase: string } = () => ({ transaction: '', network_passphrase: '' });
  const posted: string[] = [];
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const http = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = new URL(req.url!, 'http://x').pathname;
        res.writeHead(200, { 'content-type': path.endsWith('.toml') ? 'text/plain' : 'application/json' });
        if (path === '/.well-known/stellar.toml') return void res.end(`NETWORK_PASSPHRASE="${Networks.TESTNET}"\nSIGNING_KEY="${server.publicKey()}"\nWEB_AUTH_ENDPOINT="http://${host}/auth"\n`);
        if (req.method === 'GET') return void res.end(JSON.stringify(next()));
        posted.push(Buffer.concat(chunks).toString());
        res.end(JSON.stringify({ token: 'header.eyJleHAiOjQxMDI0NDQ4MDB9.sig' }));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    host = `127.0.0.1:${(http.address() as AddressInfo).port}`;
    stop = () => new Promise((resolve) => (http.closeAllConnections(), http.close(() => resolve())));
  });
  afterAll(() => stop());

  /** Authenticates with a fresh client whose signer records what it was asked to sign. */
  async function authenticate(made: { transaction: string; network_passphrase: string }) {
    next = () => made;
    const signed: string[] = [];
    const anchor = new AnchorClient({
      anchorUrl: `http://${host}`,
      account: client.publicKey(),
      now: () => NOW * 1000,
      maxRetries: 0,
      signer: (xdr, passphrase) => {
        signed.push(xdr);
        const tx = TransactionBuilder.fromXDR(xdr, passphrase);
        tx.sign(client);
        return tx.toXDR();
      },
    });
    const before = posted.length;
    const outcome = await anchor.authenticate().then(
      (token) => token,
      (error: unknown) => error,
    );
    return { outcome, signed, posted: posted.length - before };
  }

  it('refuses any challenge with one or more flaws before signing it, and posts nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(FLAWS, { minLength: 1 }), knobs, async (flaws, k) => {
        const { outcome, signed, posted: sent } = await authenticate(challenge(host, new Set(flaws), k));
        expect(outcome).toBeInstanceOf(ChallengeError);
        expect(signed).toEqual([]);
        expect(sent).toBe(0);
      }),
      { numRuns: 150 },
    );
  });

  it.each(FLAWS)('refuses a challenge whose only flaw is %s, by the check meant for it', async (flaw) => {
    const [k] = fc.sample(knobs, { numRuns: 1, seed: 11 }) as [Knobs];
    const { outcome, signed } = await authenticate(challenge(host, new Set([flaw]), k));
    expect(outcome).toBeInstanceOf(ChallengeError);
    expect((outcome as ChallengeError).reason).toBe(REFUSED_BY[flaw]);
    expect(signed).toEqual([]);
  });

  /** A challenge as SEP-10 describes it for `first` (an M address), with `change` applied before the server signs. */
  function muxedChallenge(first: string, change: (b: TransactionBuilder) => void = () => {}) {
    const builder = new TransactionBuilder(new Account(server.publicKey(), '-1'), { fee: BASE_FEE, networkPassphrase: Networks.TESTNET, timebounds: { minTime: NOW, maxTime: NOW + 300 } })
      .addOperation(Operation.manageData({ name: `${host} auth`, value: btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(48)))), source: first }))
      .addOperation(Operation.manageData({ name: 'web_auth_domain', value: host.replace(/:\d+$/, ''), source: server.publicKey() }));
    change(builder);
    const tx = builder.build();
    tx.sign(server);
    return { transaction: tx.toXDR(), network_passphrase: Networks.TESTNET };
  }
  const muxedOf = (id: string) => new MuxedAccount(new Account(client.publicKey(), '0'), id).accountId();

  /** Authenticates as `account` with a recording signer for the account and one for `clientDomain` (a function, which cannot name its key). */
  async function authenticateAs(account: string, made: { transaction: string; network_passphrase: string }, clientDomain?: string) {
    next = () => made;
    const signed: string[] = [];
    const record = (xdr: string) => (signed.push(xdr), xdr);
    const anchor = new AnchorClient({
      anchorUrl: `http://${host}`,
      account,
      now: () => NOW * 1000,
      maxRetries: 0,
      signer: record,
      ...(clientDomain === undefined ? {} : { clientDomain, clientDomainSigner: record }),
    });
    const before = posted.length;
    const outcome = await anchor.authenticate().catch((error: unknown) => error);
    return { outcome, signed, posted: posted.length - before };
  }

  const walletKey = Keypair.random();
  const clientDomainOp = (source: string, value = 'wallet.example.com') => (b: TransactionBuilder) =>
    b.addOperation(Operation.manageData({ name: 'client_domain', value, source }));
  const hostileMuxed: [string, () => [account: string, challenge: ReturnType<typeof muxedChallenge>, clientDomain?: string], ChallengeRejection][] = [
    ['a challenge for another M address of the same key', () => [muxedOf('1'), muxedChallenge(muxedOf('2'))], 'operations'],
    ['a challenge for the underlying G account of the M address asked for', () => [muxedOf('1'), muxedChallenge(client.publicKey())], 'operations'],
    ['a memo with an M account', () => [muxedOf('1'), muxedChallenge(muxedOf('1'), (b) => b.addMemo(Memo.id('1')))], 'memo'],
    ['a client_domain nobody asked for, of another key', () => [muxedOf('1'), muxedChallenge(muxedOf('1'), clientDomainOp(walletKey.publicKey()))], 'operations'],
    ['no client_domain when one was asked for', () => [muxedOf('1'), muxedChallenge(muxedOf('1')), 'wallet.example.com'], 'client_domain'],
    ['another client_domain than the one asked for', () => [muxedOf('1'), muxedChallenge(muxedOf('1'), clientDomainOp(walletKey.publicKey(), 'evil.example.com')), 'wallet.example.com'], 'client_domain'],
    ['two client_domain operations', () => [muxedOf('1'), muxedChallenge(muxedOf('1'), (b) => (clientDomainOp(walletKey.publicKey())(b), clientDomainOp(walletKey.publicKey())(b))), 'wallet.example.com'], 'client_domain'],
    ['a client_domain sourced by the account’s own key, for a domain signer function', () => [muxedOf('1'), muxedChallenge(muxedOf('1'), clientDomainOp(client.publicKey())), 'wallet.example.com'], 'client_domain'],
    ['a client_domain sourced by the anchor’s key, for a domain signer function', () => [muxedOf('1'), muxedChallenge(muxedOf('1'), clientDomainOp(server.publicKey())), 'wallet.example.com'], 'client_domain'],
  ];

  it.each(hostileMuxed)('refuses %s before signing, and posts nothing', async (_what, make, reason) => {
    const [account, made, clientDomain] = make();
    const { outcome, signed, posted: sent } = await authenticateAs(account, made, clientDomain);
    expect(outcome).toBeInstanceOf(ChallengeError);
    expect((outcome as ChallengeError).reason).toBe(reason);
    expect(signed).toEqual([]);
    expect(sent).toBe(0);
  });

  it('signs a challenge for exactly the M address asked for, with its client_domain, by both keys', async () => {
    next = () => muxedChallenge(muxedOf('1'), clientDomainOp(walletKey.publicKey()));
    const signWith = (key: Keypair) => (xdr: string, passphrase: string) => {
      const tx = TransactionBuilder.fromXDR(xdr, passphrase);
      tx.sign(key);
      return tx.toXDR();
    };
    const anchor = new AnchorClient({
      anchorUrl: `http://${host}`,
      account: muxedOf('1'),
      now: () => NOW * 1000,
      signer: signWith(client),
      clientDomain: 'wallet.example.com',
      clientDomainSigner: signWith(walletKey),
    });
    await expect(anchor.authenticate()).resolves.toBe('header.eyJleHAiOjQxMDI0NDQ4MDB9.sig');
    const sent = TransactionBuilder.fromXDR(JSON.parse(posted.at(-1)!).transaction, Networks.TESTNET);
    for (const key of [server, client, walletKey]) expect(sent.signatures.some((s) => key.verify(sent.hash(), s.signature))).toBe(true);
  });

  it('signs any well-formed challenge, whatever its nonce, time bounds and extra server data', async () => {
    await fc.assert(
      fc.asyncProperty(knobs, async (k) => {
        const { outcome, signed, posted: sent } = await authenticate(challenge(host, new Set(), k));
        expect(outcome).toBe('header.eyJleHAiOjQxMDI0NDQ4MDB9.sig');
        expect(signed).toHaveLength(1);
        expect(sent).toBe(1);
      }),
      { numRuns: 50 },
    );
  });
});

/**
 * SEP-10 against a hostile anchor: a real node:http server on 127.0.0.1 that serves a
 * stellar.toml and hands out challenges built here, some of them crafted to get something
 * else signed. Each must be refused before the signer sees it, and nothing is posted back.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Account, BASE_FEE, Keypair, Memo, Networks, Operation, Asset, TransactionBuilder } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient, ChallengeError, type ChallengeRejection } from '../src/anchor/index.js';

const server = Keypair.random();
const client = Keypair.random();
const NOW = Math.floor(Date.now() / 1000);

interface Variation {
  source?: Keypair;
  sequence?: string;
  homeDomain?: string;
  webAuthDomain?: string | null;
  minTime?: number;
  maxTime?: number;
  extra?: (builder: TransactionBuilder) => void;
  memo?: boolean;
  signers?: Keypair[];
  passphrase?: string;
  nonceBytes?: number;
}

let host = '';
/** The answer of GET /transaction. */
let transactionAnswer: unknown = null;
/** Answers of GET /customer, in order: a status and a body. */
let customerAnswers: [number, unknown][] = [];
let make: () => { transaction: string; network_passphrase?: string } = () => challenge({});
const posted: string[] = [];
/** The query of each GET /auth. */
const challengeQueries: Record<string, string>[] = [];

/** A challenge as SEP-10 describes it, with one thing changed by `v`. */
function challenge(v: Variation) {
  const passphrase = v.passphrase ?? Networks.TESTNET;
  const source = v.source ?? server;
  const builder = new TransactionBuilder(new Account(source.publicKey(), v.sequence ?? '-1'), {
    fee: BASE_FEE,
    networkPassphrase: passphrase,
    timebounds: { minTime: v.minTime ?? NOW, maxTime: v.maxTime ?? NOW + 300 },
  }).addOperation(
    Operation.manageData({
      name: `${v.homeDomain ?? host} auth`,
      value: btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(v.nonceBytes ?? 48)))),
      source: client.publicKey(),
    }),
  );
  // SEP-10's web_auth_domain is WEB_AUTH_ENDPOINT's host name, without the port (as wallet libraries compare it).
  const hostname = host.replace(/:\d+$/, '');
  if (v.webAuthDomain !== null) builder.addOperation(Operation.manageData({ name: 'web_auth_domain', value: v.webAuthDomain ?? hostname, source: source.publicKey() }));
  v.extra?.(builder);
  if (v.memo) builder.addMemo(Memo.id('42'));
  const tx = builder.build();
  for (const signer of v.signers ?? [source]) tx.sign(signer);
  return { transaction: tx.toXDR(), network_passphrase: passphrase };
}

let stop: () => Promise<void>;
beforeAll(async () => {
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/.well-known/stellar.toml') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end(`NETWORK_PASSPHRASE="${Networks.TESTNET}"\nSIGNING_KEY="${server.publicKey()}"\nWEB_AUTH_ENDPOINT="http://${host}/auth"\n`);
      }
      if (url.pathname === '/auth' && req.method === 'GET') {
        challengeQueries.push(Object.fromEntries(url.searchParams));
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify(make()));
      }
      if (url.pathname === '/auth' && req.method === 'POST') {
        posted.push(Buffer.concat(chunks).toString());
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ token: 'header.eyJleHAiOjQxMDI0NDQ4MDB9.sig' }));
      }
      if (url.pathname === '/transaction') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ transaction: transactionAnswer }));
      }
      if (url.pathname === '/customer') {
        const [status, body] = customerAnswers.shift() ?? [500, { error: 'no answer scripted' }];
        res.writeHead(status, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify(body));
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(http.address() as AddressInfo).port}`;
  stop = () => new Promise((resolve) => (http.closeAllConnections(), http.close(() => resolve())));
});
afterAll(() => stop());

function anchorWithSpy() {
  const signed: string[] = [];
  const anchor = new AnchorClient({
    anchorUrl: `http://${host}`,
    account: client.publicKey(),
    signer: (xdr, passphrase) => {
      signed.push(xdr);
      const tx = TransactionBuilder.fromXDR(xdr, passphrase);
      tx.sign(client);
      return tx.toXDR();
    },
    maxRetries: 0,
  });
  return { anchor, signed };
}

describe('SEP-10 challenge validation', () => {
  it('signs a well-formed challenge and posts it back', async () => {
    make = () => challenge({});
    const { anchor, signed } = anchorWithSpy();
    const before = posted.length;
    await expect(anchor.authenticate()).resolves.toBe('header.eyJleHAiOjQxMDI0NDQ4MDB9.sig');
    expect(signed).toHaveLength(1);
    expect(posted.length - before).toBe(1);
    const sent = TransactionBuilder.fromXDR(JSON.parse(posted.at(-1)!).transaction, Networks.TESTNET);
    expect(sent.signatures).toHaveLength(2);
  });

  it("signs a challenge answered without network_passphrase (optional in SEP-10), for stellar.toml's network", async () => {
    make = () => ({ transaction: challenge({}).transaction });
    const { anchor, signed } = anchorWithSpy();
    await expect(anchor.authenticate()).resolves.toBe('header.eyJleHAiOjQxMDI0NDQ4MDB9.sig');
    expect(signed).toHaveLength(1);
  });

  const hostile: [string, () => Variation, ChallengeRejection][] = [
    ['an extra operation that pays from the client account', () => ({ extra: (b) => b.addOperation(Operation.payment({ destination: server.publicKey(), asset: Asset.native(), amount: '100', source: client.publicKey() })) }), 'operations'],
    ['an extra operation of the server that is not manage-data', () => ({ extra: (b) => b.addOperation(Operation.bumpSequence({ bumpTo: '1', source: server.publicKey() })) }), 'operations'],
    ['another signing key than stellar.toml names', () => ({ source: Keypair.random() }), 'server_account'],
    ['the right source but another key’s signature', () => ({ signers: [Keypair.random()] }), 'server_signature'],
    ['a second signature beside the server’s', () => ({ signers: [server, Keypair.random()] }), 'server_signature'],
    ['another home domain', () => ({ homeDomain: 'evil.example' }), 'home_domain'],
    ['another web_auth_domain', () => ({ webAuthDomain: 'evil.example' }), 'web_auth_domain'],
    ['a web_auth_domain with the port, which wallet libraries refuse', () => ({ webAuthDomain: host }), 'web_auth_domain'],
    ['no web_auth_domain', () => ({ webAuthDomain: null }), 'web_auth_domain'],
    ['expired time bounds', () => ({ minTime: NOW - 900, maxTime: NOW - 600 }), 'time_bounds'],
    ['time bounds that start in an hour', () => ({ minTime: NOW + 3600, maxTime: NOW + 3900 }), 'time_bounds'],
    ['a non-zero sequence number', () => ({ sequence: '41' }), 'sequence'],
    ['a memo nobody asked for', () => ({ memo: true }), 'memo'],
    ['a short nonce', () => ({ nonceBytes: 16 }), 'nonce'],
    ['the public network', () => ({ passphrase: Networks.PUBLIC }), 'network_passphrase'],
  ];

  it.each(hostile)('refuses %s before signing, and posts nothing', async (_what, variation, reason) => {
    make = () => challenge(variation());
    const { anchor, signed } = anchorWithSpy();
    const before = posted.length;
    const error = await anchor.authenticate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChallengeError);
    expect((error as ChallengeError).reason).toBe(reason);
    expect(signed).toEqual([]);
    expect(posted.length).toBe(before);
  });

  it('refuses what is not a transaction', async () => {
    make = () => ({ transaction: 'AAAA', network_passphrase: Networks.TESTNET });
    const { anchor, signed } = anchorWithSpy();
    await expect(anchor.authenticate()).rejects.toMatchObject({ reason: 'not_a_transaction' });
    expect(signed).toEqual([]);
  });

  it('refuses a signer that hands back another transaction', async () => {
    make = () => challenge({});
    const before = posted.length;
    const anchor = new AnchorClient({
      anchorUrl: `http://${host}`,
      account: client.publicKey(),
      signer: () => {
        const other = TransactionBuilder.fromXDR(challenge({}).transaction, Networks.TESTNET);
        other.sign(client);
        return other.toXDR();
      },
    });
    await expect(anchor.authenticate()).rejects.toMatchObject({ name: 'ChallengeError', reason: 'signer_output' });
    expect(posted.length).toBe(before);
  });

  it('uses a pinned signing key instead of stellar.toml', async () => {
    make = () => challenge({});
    const pinned = new AnchorClient({
      anchorUrl: `http://${host}`,
      signer: client,
      serverSigningKey: Keypair.random().publicKey(),
      networkPassphrase: Networks.TESTNET,
      webAuthEndpoint: `http://${host}/auth`,
    });
    await expect(pinned.authenticate()).rejects.toMatchObject({ reason: 'server_account' });
  });

  it('authenticates again when the anchor answers 403 authentication_required, and only then', async () => {
    make = () => challenge({});
    const { anchor } = anchorWithSpy();
    const ok = { id: 'c1', status: 'ACCEPTED' };
    customerAnswers = [[403, { type: 'authentication_required' }], [200, ok]];
    const before = posted.length;
    await expect(anchor.customers.get('c1')).resolves.toMatchObject(ok);
    expect(posted.length - before).toBe(2);
    customerAnswers = [[403, { error: 'customer KYC status is PROCESSING, not ACCEPTED' }]];
    await expect(anchor.customers.get('c1')).rejects.toMatchObject({ name: 'PermissionDeniedError', status: 403 });
    expect(posted.length - before).toBe(2);
  });
});

describe('what another SEP-conformant anchor answers', () => {
  it('reads a SEP-24 transaction with the fields and statuses SEP-24 lists, and nulls where it leaves them unset', async () => {
    make = () => challenge({});
    const { anchor } = anchorWithSpy();
    transactionAnswer = {
      id: 't1',
      kind: 'deposit',
      status: 'pending_user',
      status_eta: 3600,
      kyc_verified: true,
      more_info_url: null,
      amount_in: '18.34',
      amount_out: '18.24',
      amount_fee: '0.1',
      fee_details: { total: '0.10', asset: 'iso4217:USD', breakdown: [{ name: 'Service fee', amount: '0.10' }] },
      started_at: '2017-03-20T17:05:32Z',
      user_action_required_by: '2017-03-20T18:05:32Z',
      deposit_memo: '42',
      deposit_memo_type: 'id',
      claimable_balance_id: null,
      message: null,
    };
    const tx = await anchor.transfers.get('t1');
    expect(tx).toMatchObject({ status: 'pending_user', status_eta: 3600, deposit_memo: '42', user_action_required_by: '2017-03-20T18:05:32Z', message: null });
    expect(tx.fee_details?.breakdown).toEqual([{ name: 'Service fee', amount: '0.10' }]);
  });

  it('sends home_domain with the challenge request, and reads a SEP-12 customer whose fields carry no status, or choices', async () => {
    make = () => challenge({});
    const { anchor } = anchorWithSpy();
    customerAnswers = [
      [
        200,
        {
          id: 'c2',
          status: 'NEEDS_INFO',
          fields: { id_type: { type: 'string', description: 'Government issued ID', choices: ['Passport', 'State ID'], optional: true } },
          provided_fields: { first_name: { type: 'string', description: 'The customer’s first name' } },
        },
      ],
    ];
    const customer = await anchor.customers.get('c2');
    expect(customer.fields?.id_type).toMatchObject({ choices: ['Passport', 'State ID'], optional: true });
    expect(customer.provided_fields?.first_name?.status).toBeUndefined();
    expect(challengeQueries.at(-1)).toEqual({ account: client.publicKey(), home_domain: host });
  });
});

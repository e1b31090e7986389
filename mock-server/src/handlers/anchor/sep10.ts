/**
 * SEP-10 web authentication at `{anchor_url}/auth`. The challenge is a real Stellar
 * transaction built with @stellar/stellar-sdk: source the anchor's signing key, sequence 0,
 * time bounds of CHALLENGE_TTL_SECONDS from the mock's clock, a `<home domain> auth`
 * manage-data operation with a 48-byte random nonce sourced by the client account, a
 * `web_auth_domain` operation and, when the wallet names its `client_domain`, a
 * `client_domain` operation sourced by that domain's SIGNING_KEY, signed by the anchor. The
 * signed challenge is exchanged once for a JWT valid TOKEN_TTL_SECONDS of clock time.
 *
 * The mock has no ledger, so every account is treated as SEP-10 treats an account that does
 * not exist: the challenge must carry the signature of the account's own key, and no other.
 */
import {
  Account,
  BASE_FEE,
  FeeBumpTransaction,
  Memo,
  MemoID,
  MemoNone,
  Networks,
  Operation,
  StellarToml,
  StrKey,
  Transaction,
  TransactionBuilder,
  WebAuth,
} from '@stellar/stellar-sdk';
import { http, HttpResponse } from 'msw';
import type { MockContext } from '../../context.js';
import { signJwt, verifyJwt } from '../../crypto.js';
import { bearer } from '../../http/auth.js';
import { badRequest, HttpError } from '../../http/errors.js';
import { route } from '../../http/respond.js';
import { isStellarAccount } from '../../transactions/accounts.js';
import { readFields } from './fields.js';

/** How long a challenge may be signed and sent back, seconds. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;
/** How long a SEP-10 token is valid, seconds (000 section 5). */
export const TOKEN_TTL_SECONDS = 15 * 60;

/** The client a SEP-10 token was issued to. */
export interface Sep10Client {
  /** The authenticated account, `G…` or `M…`. */
  account: string;
  /** The id memo of a shared account, if the challenge had one. */
  memo: string | null;
  /** The token's `sub`: the account, with `:memo` appended when there is one. */
  sub: string;
  /** The wallet's domain, when it signed in with `client_domain` (SEP-10 client attribution). */
  clientDomain: string | null;
}

/** How long the mock waits for a client domain's stellar.toml, ms. */
const CLIENT_DOMAIN_TIMEOUT_MS = 5_000;

export const networkPassphrase = (ctx: MockContext) => (ctx.options.network === 'public' ? Networks.PUBLIC : Networks.TESTNET);
/** The anchor's home domain: the host serving `/.well-known/stellar.toml`. */
export const homeDomain = (ctx: MockContext) => new URL(ctx.urls.anchor).host;
export const webAuthEndpoint = (ctx: MockContext) => `${ctx.urls.anchor}/auth`;
/**
 * The `web_auth_domain` value: the host name of WEB_AUTH_ENDPOINT without a port, which is
 * what wallet libraries (@stellar/typescript-wallet-sdk, @stellar/stellar-sdk's
 * WebAuth.readChallengeTx as they call it) compare it with, so they sign in on any port.
 */
const webAuthDomain = (ctx: MockContext) => new URL(webAuthEndpoint(ctx)).hostname;

/** A client domain: a host name, with a port only for local ones; at most 64 bytes (a manage-data value). */
const CLIENT_DOMAIN = /^(?=.{1,64}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?$/i;
const isLocal = (domain: string) => /^(localhost|127\.0\.0\.1)(:\d+)?$/i.test(domain);
/** Names that never serve a stellar.toml (RFC 2606, RFC 6761): refused without a request. */
const RESERVED_TLD = /\.(example|invalid|test|local)$/i;

/**
 * The SIGNING_KEY of a wallet's domain, from `https://<domain>/.well-known/stellar.toml`
 * (`http://` for localhost and 127.0.0.1, so that tests can serve one). 400 when it cannot be read.
 */
async function clientDomainKey(domain: string): Promise<string> {
  if (!CLIENT_DOMAIN.test(domain) || (!isLocal(domain) && (domain.includes(':') || !domain.includes('.')))) {
    throw badRequest('client_domain: must be a domain name (a port only on localhost or 127.0.0.1), at most 64 characters');
  }
  if (RESERVED_TLD.test(domain)) throw badRequest(`client_domain: ${domain} is a reserved name that serves no stellar.toml`);
  let key: unknown;
  try {
    const toml = await StellarToml.Resolver.resolve(domain, { allowHttp: isLocal(domain), timeout: CLIENT_DOMAIN_TIMEOUT_MS });
    key = toml.SIGNING_KEY;
  } catch {
    throw badRequest(`client_domain: could not read ${isLocal(domain) ? 'http' : 'https'}://${domain}/.well-known/stellar.toml`);
  }
  if (typeof key !== 'string' || !StrKey.isValidEd25519PublicKey(key)) {
    throw badRequest(`client_domain: the stellar.toml of ${domain} has no valid SIGNING_KEY`);
  }
  return key;
}

/** The ed25519 key behind an account (the base account of an `M…` address). */
function signingKeyOf(account: string): string {
  if (account.startsWith('M')) return StrKey.encodeEd25519PublicKey(StrKey.decodeMed25519PublicKey(account).subarray(0, 32));
  return account;
}

/**
 * Builds a challenge for `account` (and an optional id `memo`, and the wallet's client domain
 * with its signing key), signed by the anchor. Returns its XDR.
 */
export function buildChallenge(ctx: MockContext, account: string, memo?: string, client?: { domain: string; key: string }): string {
  const now = Math.floor(ctx.clock.now() / 1000);
  const server = ctx.anchorKeypair;
  const builder = new TransactionBuilder(new Account(server.publicKey(), '-1'), {
    fee: BASE_FEE,
    networkPassphrase: networkPassphrase(ctx),
    timebounds: { minTime: now, maxTime: now + CHALLENGE_TTL_SECONDS },
  })
    .addOperation(
      Operation.manageData({
        name: `${homeDomain(ctx)} auth`,
        value: btoa(String.fromCharCode(...ctx.secrets.bytes(48))),
        source: account,
      }),
    )
    .addOperation(Operation.manageData({ name: 'web_auth_domain', value: webAuthDomain(ctx), source: server.publicKey() }));
  if (client) builder.addOperation(Operation.manageData({ name: 'client_domain', value: client.domain, source: client.key }));
  if (memo) builder.addMemo(Memo.id(memo));
  const tx = builder.build();
  tx.sign(server);
  return tx.toXDR();
}

const invalid = (reason: string) => badRequest(`invalid challenge: ${reason}`);
const utf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
function decodedLength(base64: string): number {
  try {
    return atob(base64).length;
  } catch {
    return -1;
  }
}

/**
 * Verifies a challenge signed by the client and answers a JWT. 400 (SEP error body) when it
 * cannot be parsed, was not issued by this anchor or was changed since, has expired by the
 * mock's clock, lacks the client's signature or carries another, or was already exchanged.
 */
export async function exchangeChallenge(ctx: MockContext, xdr: string): Promise<string> {
  const passphrase = networkPassphrase(ctx);
  let parsed: Transaction | FeeBumpTransaction;
  try {
    parsed = TransactionBuilder.fromXDR(xdr, passphrase);
  } catch {
    throw invalid('not a transaction envelope');
  }
  if (parsed instanceof FeeBumpTransaction) throw invalid('a fee-bump transaction is not a challenge');
  const tx = parsed;
  const server = ctx.anchorKeypair.publicKey();
  if (tx.source !== server) throw invalid("source account is not the anchor's signing key");
  if (tx.sequence !== '0') throw invalid('sequence number must be 0');
  const [first, ...rest] = tx.operations;
  if (!first || first.type !== 'manageData' || !first.source) throw invalid('first operation must be a manage-data operation of the client account');
  if (first.name !== `${homeDomain(ctx)} auth`) throw invalid(`first operation must be named "${homeDomain(ctx)} auth"`);
  if (!first.value || decodedLength(utf8(first.value)) !== 48) throw invalid('nonce must be 48 random bytes, base64');
  // The anchor's signature (checked below) covers these: a client_domain operation here is one the anchor made.
  let clientDomain: { domain: string; key: string } | undefined;
  for (const op of rest) {
    if (op.type === 'manageData' && op.name === 'client_domain' && op.source && !clientDomain) {
      clientDomain = { domain: utf8(op.value ?? new Uint8Array()), key: op.source };
      continue;
    }
    if (op.type !== 'manageData' || op.source !== server) throw invalid('unrecognized operation');
    if (op.name === 'web_auth_domain' && utf8(op.value ?? new Uint8Array()) !== webAuthDomain(ctx)) throw invalid('web_auth_domain does not match');
  }
  const account = first.source;
  let memo: string | null = null;
  if (tx.memo.type !== MemoNone) {
    if (tx.memo.type !== MemoID || account.startsWith('M')) throw invalid('only an id memo, and not with a muxed account');
    memo = String(tx.memo.value);
  }
  const bounds = tx.timeBounds;
  const now = Math.floor(ctx.clock.now() / 1000);
  if (!bounds || Number(bounds.maxTime) === 0) throw invalid('time bounds are required');
  if (now < Number(bounds.minTime)) throw invalid('not valid yet');
  if (now > Number(bounds.maxTime)) throw invalid('expired; request a new one');
  if (!WebAuth.verifyTxSignedBy(tx, server)) throw invalid('not signed by the anchor');
  const client = signingKeyOf(account);
  if (!WebAuth.verifyTxSignedBy(tx, client)) throw invalid('not signed by the client account');
  if (clientDomain && !WebAuth.verifyTxSignedBy(tx, clientDomain.key)) throw invalid(`not signed by the SIGNING_KEY of ${clientDomain.domain}`);
  if (tx.signatures.length !== (clientDomain ? 3 : 2)) throw invalid('signed by keys other than the client account and its client domain');

  const id = Array.from(tx.hash(), (b) => b.toString(16).padStart(2, '0')).join('');
  const used = ctx.store.anchor.usedChallenges;
  for (const [hash, until] of used) if (until < ctx.clock.now()) used.delete(hash);
  if (used.has(id)) throw invalid('already used; request a new one');
  used.set(id, Number(bounds.maxTime) * 1000);

  const sub = memo ? `${account}:${memo}` : account;
  return signJwt(
    {
      iss: webAuthEndpoint(ctx),
      sub,
      iat: now,
      exp: now + TOKEN_TTL_SECONDS,
      jti: id,
      home_domain: homeDomain(ctx),
      ...(clientDomain ? { client_domain: clientDomain.domain } : {}),
    },
    ctx.jwtSecret,
  );
}

/** The client of a SEP-10 token, or undefined when it is not this anchor's or has expired. */
export async function readSep10Token(ctx: MockContext, token: string): Promise<Sep10Client | undefined> {
  const claims = await verifyJwt(token, ctx.jwtSecret, ctx.clock.now());
  if (!claims || claims.iss !== webAuthEndpoint(ctx) || typeof claims.sub !== 'string') return undefined;
  const [account = '', memo] = claims.sub.split(':');
  const clientDomain = typeof claims.client_domain === 'string' ? claims.client_domain : null;
  return { account, memo: memo ?? null, sub: claims.sub, clientDomain };
}

/** The client behind `Authorization: Bearer <SEP-10 token>`; 403 with the SEP error body otherwise. */
export async function requireSep10(ctx: MockContext, request: Request): Promise<Sep10Client> {
  const token = bearer(request);
  if (!token) throw new HttpError(403, 'AUTHENTICATION_REQUIRED', 'missing Authorization: Bearer <SEP-10 token>');
  const client = await readSep10Token(ctx, token);
  if (!client) throw new HttpError(403, 'AUTHENTICATION_REQUIRED', 'invalid or expired SEP-10 token');
  return client;
}

/** `GET /auth?account=&memo=&home_domain=&client_domain=` -> `{transaction, network_passphrase}`; `POST /auth {transaction}` -> `{token}`. */
export function sep10Handlers(ctx: MockContext) {
  const url = webAuthEndpoint(ctx);
  return [
    http.get(
      url,
      route(ctx, 'sep', async ({ request }) => {
        const q = new URL(request.url).searchParams;
        const account = q.get('account') ?? '';
        const memo = q.get('memo') || undefined;
        if (!isStellarAccount(account)) {
          throw badRequest('account: must be a Stellar account (G… or M…)');
        }
        if (memo !== undefined && (!/^[1-9]\d{0,19}$/.test(memo) || BigInt(memo) >= 2n ** 64n)) {
          throw badRequest('memo: must be an id memo (a positive 64-bit integer)');
        }
        if (memo !== undefined && account.startsWith('M')) throw badRequest('memo: not allowed with a muxed account');
        const home = q.get('home_domain');
        if (home && home !== homeDomain(ctx)) throw badRequest(`home_domain: this anchor's home domain is ${homeDomain(ctx)}`);
        const domain = q.get('client_domain');
        const client = domain ? { domain, key: await clientDomainKey(domain) } : undefined;
        return HttpResponse.json({ transaction: buildChallenge(ctx, account, memo, client), network_passphrase: networkPassphrase(ctx) });
      }),
    ),
    http.post(
      url,
      route(ctx, 'sep', async ({ request }) => {
        const { transaction } = await readFields(request);
        if (typeof transaction !== 'string' || transaction === '') throw badRequest('transaction: the signed challenge is required');
        return HttpResponse.json({ token: await exchangeChallenge(ctx, transaction) });
      }),
    ),
  ];
}

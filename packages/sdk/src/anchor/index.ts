/**
 * @sikaramp/sdk/anchor: the Stellar anchor (SEP-10, SEP-12, SEP-24). The only entry that
 * loads @stellar/stellar-sdk, an optional peer dependency: `npm install @stellar/stellar-sdk` to use it.
 *
 * ```ts
 * import { AnchorClient, Keypair } from '@sikaramp/sdk/anchor';
 * const anchor = new AnchorClient({ anchorUrl, signer: Keypair.fromSecret(process.env.STELLAR_SECRET!) });
 * const { url, id } = await anchor.transfers.deposit({ merchant_id, session_id, session_token, api_key, user_id });
 * const { succeeded, value: tx } = await anchor.watchTransaction(id, { onStatus: (t) => console.log(t.status) });
 * // A transaction started through the widget backend: read with a session for its customer.
 * const tx = await anchor.transfers.get(id, { merchant: { merchant_id, session_id, session_token, api_key, user_id } });
 * ```
 */
import { FeeBumpTransaction, Keypair, MemoID, MemoNone, StrKey, TransactionBuilder, type Transaction } from './stellar.js';
import * as z from 'zod';
import { SikarampError, ValidationError } from '../core/errors.js';
import { HttpCore, type Authenticator, type ClientOptions, type RequestOptions } from '../core/http.js';
import { parseInput } from '../core/schema.js';
import type { WaitResult } from '../core/poll.js';
import { jwtExpiry, secretFingerprint, SLOW_FINGERPRINT_ROUNDS, TokenCache, type StoredToken, type TokenStore } from '../core/token-cache.js';
import { AnchorChallengeSchema, AnchorTokenSchema } from '../resources/anchor/sep10.js';
import { AnchorCustomers } from '../resources/anchor/sep12.js';
import { AnchorTransfers, type AnchorTransaction, type WatchTransactionOptions } from '../resources/anchor/sep24.js';
import { AnchorQuotes } from '../resources/anchor/sep38.js';
import { fetchStellarToml } from '../resources/anchor/stellar-toml.js';

/** Lifetime of a SEP-10 token when it does not say, seconds (000 section 8). */
const SEP10_TOKEN_TTL_SECONDS = 15 * 60;
/** How far a challenge's start may lie ahead of this clock, seconds (clock skew). */
const CHALLENGE_CLOCK_SKEW_SECONDS = 60;

/** Signs a validated SEP-10 challenge (a wallet, an HSM, Freighter's signTransaction) and returns the signed XDR. */
export type ChallengeSigner = (challengeXdr: string, networkPassphrase: string) => Promise<string> | string;

export interface AnchorClientOptions extends ClientOptions {
  /** The anchor, `{anchor_url}`: SEP-10 at `/auth` unless stellar.toml says otherwise, SEP-12 and SEP-24 below it. */
  anchorUrl: string;
  /** Signs challenges: a Keypair (kept in memory, server-side), or a function for a wallet or an HSM. */
  signer: Keypair | ChallengeSigner;
  /**
   * The account to authenticate: `G…`, or a muxed `M…` address for one user of a shared account
   * (the token's `sub` is then the M address, a principal of its own, and the signer is the
   * Keypair of its underlying `G…` key). Required with a signer function; default: the Keypair's.
   */
  account?: string;
  /**
   * SEP-10's id memo (a positive 64-bit integer, in decimal) for one user of a shared (omnibus)
   * account: the token is for `account:memo` (its `sub`), a principal of its own at the anchor,
   * and is cached apart from the account's and from other memos'. Not with an `M…` account,
   * which SEP-10 forbids (its id already names the user).
   */
  memo?: string;
  /**
   * SEP-10 client attribution: the wallet's domain, whose stellar.toml SIGNING_KEY must sign the
   * challenge too. The challenge is asked for with `client_domain`, and the anchor's token says
   * which wallet signed in. Requires `clientDomainSigner`.
   */
  clientDomain?: string;
  /**
   * Signs for `clientDomain` (as @stellar/typescript-wallet-sdk's `signWithDomainAccount`): the
   * Keypair of the domain's SIGNING_KEY, which must then be the source of the challenge's
   * `client_domain` operation; or a function (the wallet's server, which holds the key) that
   * returns the challenge with the signature of that operation's source added, checked before
   * anything is sent back.
   */
  clientDomainSigner?: Keypair | ChallengeSigner;
  /** The anchor's home domain, whose stellar.toml names its signing key. Default: the host of anchorUrl. */
  homeDomain?: string;
  /** The anchor's SEP-10 signing key, pinned. Default: SIGNING_KEY of stellar.toml. */
  serverSigningKey?: string;
  /** The SEP-10 endpoint. Default: WEB_AUTH_ENDPOINT of stellar.toml, else `<anchorUrl>/auth`. */
  webAuthEndpoint?: string;
  /** Network passphrase challenges must be for. Default: NETWORK_PASSPHRASE of stellar.toml. */
  networkPassphrase?: string;
  /** SEP-38's `ANCHOR_QUOTE_SERVER` (stellar.toml). Default: `<anchorUrl>/sep38`, where the service serves it. */
  quoteServer?: string;
  /**
   * Where SEP-10 tokens are cached. Default: this client's own memory. A store you pass may be
   * shared (one Redis for many processes, one store for many tenants), so a client is handed a
   * cached token only if it could have signed for it: the store key carries, besides the anchor,
   * the home domain, the auth server and the account (and memo), a one-way fingerprint of the
   * Keypair's secret, or of `tokenCacheKey` with a signer function.
   */
  tokenStore?: TokenStore;
  /**
   * Required with a signer function and a `tokenStore` (there is no secret key to fingerprint):
   * every client with the same anchor, account and `tokenCacheKey` is handed the token one of them
   * signed for, without signing. Treat it as a secret of those allowed to act as the account,
   * e.g. a random value in the environment of one merchant's processes, one per tenant; never a
   * value a tenant picks or another can learn. The store sees only its slow hash (PBKDF2-SHA256,
   * 100,000 rounds). Not with a Keypair, whose secret already keys the cache.
   */
  tokenCacheKey?: string;
  /** The clock for time bounds and token expiry, ms since the epoch. Default `Date.now`; tests pass the mock's clock. */
  now?: () => number;
}

/** Which check a SEP-10 challenge failed; it was not signed. */
export type ChallengeRejection =
  | 'network_passphrase'
  | 'not_a_transaction'
  | 'server_account'
  | 'sequence'
  | 'time_bounds'
  | 'operations'
  | 'home_domain'
  | 'nonce'
  | 'web_auth_domain'
  | 'memo'
  | 'client_domain'
  | 'server_signature'
  | 'signer_output';

/** The anchor sent a challenge that is not what SEP-10 allows; nothing was signed. */
export class ChallengeError extends SikarampError {
  override name = 'ChallengeError';
  readonly reason: ChallengeRejection;
  constructor(reason: ChallengeRejection, message: string) {
    super(`Refused to sign the SEP-10 challenge: ${message}`);
    this.reason = reason;
  }
}

const PublicKeySchema = z.string().regex(/^G[A-Z2-7]{55}$/, 'must be a Stellar public key (G…)');
const AccountSchema = z
  .string()
  .refine((a) => StrKey.isValidEd25519PublicKey(a) || StrKey.isValidMed25519PublicKey(a), 'must be a Stellar account (G…, or muxed M…)');
/** Client domain: a host name (with a port for a local site), at most 64 bytes, as a manage-data value holds. */
const ClientDomainSchema = z
  .string()
  .regex(/^(?=.{1,64}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?$/i, 'must be a domain name, at most 64 characters');
const MemoSchema = z
  .string()
  .refine((memo) => /^[1-9]\d{0,19}$/.test(memo) && BigInt(memo) < 2n ** 64n, 'must be an id memo: a positive 64-bit integer in decimal');

interface Sep10Config {
  serverKey: string;
  endpoint: string;
  networkPassphrase: string;
}

/**
 * The anchor with SEP-10 authentication handled: the challenge is checked before it is signed,
 * the token is cached until a minute before its 15 minutes run out, and concurrent calls share
 * one authentication.
 */
export class AnchorClient {
  /** SEP-12 customers. */
  readonly customers: AnchorCustomers;
  /** SEP-24 interactive deposit and withdraw, and transactions. */
  readonly transfers: AnchorTransfers;
  /** SEP-38 prices and firm quotes, for a guaranteed rate on SEP-24 (`quote_id`). */
  readonly quotes: AnchorQuotes;
  /** The authenticated account. */
  readonly account: string;
  /** SEP-10's id memo of the account's user, when the account is shared. */
  readonly memo: string | undefined;
  /** The wallet's domain the anchor attributes the token to (SEP-10 `client_domain`), if any. */
  readonly clientDomain: string | undefined;
  readonly #options: AnchorClientOptions;
  /** Transport options shared by every core this client makes. */
  readonly #transport: ClientOptions;
  readonly #core: HttpCore;
  /** The token cache, made on first use (its key needs a fingerprint, which WebCrypto computes asynchronously). */
  readonly #tokens: () => Promise<TokenCache>;
  readonly #now: () => number;
  #sep10: Promise<Sep10Config> | undefined;

  constructor(options: AnchorClientOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    const { signer } = options;
    const account = typeof signer === 'function' ? options.account : (options.account ?? signer.publicKey());
    if (account === undefined) throw new SikarampError('AnchorClient needs `account` with a signer function');
    this.account = parseInput(AccountSchema, account, 'account');
    if (typeof signer !== 'function' && signer.publicKey() !== baseKey(this.account)) {
      throw new SikarampError('`account` must be the Keypair’s own public key, or a muxed account of it');
    }
    this.memo = options.memo === undefined ? undefined : parseInput(MemoSchema, options.memo, 'memo');
    if (this.memo !== undefined && this.account.startsWith('M')) {
      throw optionError('memo', 'is not allowed with a muxed (M…) account: SEP-10 forbids it, the account’s id names the user');
    }
    const { clientDomain, clientDomainSigner } = options;
    this.clientDomain = clientDomain === undefined ? undefined : parseInput(ClientDomainSchema, clientDomain, 'clientDomain');
    if ((clientDomain === undefined) !== (clientDomainSigner === undefined)) {
      throw optionError(clientDomain === undefined ? 'clientDomainSigner' : 'clientDomain', 'clientDomain and clientDomainSigner go together');
    }
    if (clientDomainSigner !== undefined && typeof clientDomainSigner !== 'function' && !clientDomainSigner.canSign()) {
      throw optionError('clientDomainSigner', 'a Keypair without its secret key cannot sign');
    }
    const { tokenStore, tokenCacheKey } = options;
    // What the store key fingerprints, so that a shared store serves only a client that can sign:
    // the seed (32 random bytes, which one round hides), or the chosen tokenCacheKey (the slow hash).
    let secret: { label: string; value: string | Uint8Array; rounds: number } | undefined;
    if (typeof signer !== 'function') {
      if (!signer.canSign()) throw optionError('signer', 'a Keypair without its secret key cannot sign');
      if (tokenCacheKey !== undefined) throw optionError('tokenCacheKey', 'is for a signer function: the Keypair’s own secret keys the token cache');
      secret = { label: 'seed', value: signer.rawSecretKey(), rounds: 1 };
    } else if (tokenCacheKey) {
      secret = { label: 'tokenCacheKey', value: tokenCacheKey, rounds: SLOW_FINGERPRINT_ROUNDS };
    } else if (tokenStore !== undefined) {
      throw optionError(
        'tokenCacheKey',
        'is required with a signer function and a tokenStore: without a secret in its key, a shared store would hand this account’s token to any client naming the account',
      );
    }
    const { anchorUrl, maxRetries, timeout, fetch, defaultHeaders, hooks, logger, logLevel } = options;
    this.#transport = { maxRetries, timeout, fetch, defaultHeaders, hooks, logger, logLevel };
    const auth: Authenticator = {
      headers: async (s) => ({ authorization: `Bearer ${await this.authenticate(s)}` }),
      refresh: async (s) => void (await (await this.#tokens()).renew(s)),
      isExpired: isAuthenticationRequired,
    };
    this.#core = new HttpCore({ ...this.#transport, baseUrl: anchorUrl, auth });
    // A token is for one principal (`sub`: the account, an M address being one of its own, or
    // `account:memo`), attributed to one client domain or none, issued by one auth server for one
    // home domain, and sent to this anchor: each of them keys it.
    const principal = this.memo === undefined ? this.account : `${this.account}:${this.memo}`;
    const attribution = this.clientDomain === undefined ? '' : `:client_domain=${this.clientDomain}`;
    const scope = `sikaramp:anchor:${this.#core.baseUrl}:${principal}${attribution}`;
    const issuer = JSON.stringify([this.#homeDomain(), options.webAuthEndpoint ?? null, options.serverSigningKey ?? null, options.networkPassphrase ?? null]);
    // Without a store given, the cache is this client's own memory, which no other client reads.
    const fingerprint = async () =>
      tokenStore === undefined || secret === undefined ? 'own' : secretFingerprint(`${scope}:${issuer}:${secret.label}`, secret.value, secret.rounds);
    let cache: Promise<TokenCache> | undefined;
    this.#tokens = () =>
      (cache ??= fingerprint().then(
        (print) => new TokenCache({ store: tokenStore, key: `${scope}:${print}`, obtain: (s) => this.#signIn(s), now: this.#now }),
        (error: unknown) => {
          cache = undefined;
          throw error;
        },
      ));
    this.customers = new AnchorCustomers(this.#core);
    this.transfers = new AnchorTransfers(this.#core);
    // The quote server takes the anchor's own SEP-10 token.
    this.quotes = new AnchorQuotes(new HttpCore({ ...this.#transport, baseUrl: options.quoteServer ?? `${this.#core.baseUrl}/sep38`, auth }));
  }

  /** A valid SEP-10 token: the cached one, or a fresh authentication (shared by concurrent callers). */
  async authenticate(signal?: AbortSignal): Promise<string> {
    return (await this.#tokens()).get(signal);
  }

  /** The home domain challenges are asked for: `homeDomain`, else the host of anchorUrl. */
  #homeDomain(): string {
    return this.#options.homeDomain ?? new URL(this.#options.anchorUrl).host;
  }

  /**
   * Shortcut for `transfers.watch(id, options)`: reports each status change and resolves on a
   * final one. `options.merchant` reads a merchant's transaction of the session's customer.
   */
  watchTransaction(id: string, options?: WatchTransactionOptions): Promise<WaitResult<AnchorTransaction, AnchorTransaction['status']>> {
    return this.transfers.watch(id, options);
  }

  /** Signing key, endpoint and network: from the options, else from stellar.toml (fetched once). */
  #config(signal?: AbortSignal): Promise<Sep10Config> {
    const o = this.#options;
    this.#sep10 ??= (async () => {
      const pinned = o.serverSigningKey !== undefined && o.networkPassphrase !== undefined;
      const anchor = new URL(o.anchorUrl);
      const toml = pinned
        ? {}
        : await fetchStellarToml(
            new HttpCore({ ...this.#transport, baseUrl: `${anchor.protocol}//${o.homeDomain ?? anchor.host}` }),
            { signal },
          );
      const serverKey = o.serverSigningKey ?? toml.SIGNING_KEY;
      const networkPassphrase = o.networkPassphrase ?? toml.NETWORK_PASSPHRASE;
      if (!serverKey || !networkPassphrase) {
        throw new SikarampError('The anchor’s stellar.toml names no SIGNING_KEY or NETWORK_PASSPHRASE; pass serverSigningKey and networkPassphrase');
      }
      return {
        serverKey: parseInput(PublicKeySchema, serverKey, 'serverSigningKey'),
        networkPassphrase,
        endpoint: o.webAuthEndpoint ?? toml.WEB_AUTH_ENDPOINT ?? `${this.#core.baseUrl}/auth`,
      };
    })().catch((error: unknown) => {
      this.#sep10 = undefined;
      throw error;
    });
    return this.#sep10;
  }

  async #signIn(signal?: AbortSignal): Promise<StoredToken> {
    const config = await this.#config(signal);
    const auth = new HttpCore({ ...this.#transport, baseUrl: config.endpoint });
    const homeDomain = this.#homeDomain();
    // SEP-10's `home_domain`: an auth server for several home domains signs challenges for the one named.
    const query = {
      account: this.account,
      home_domain: homeDomain,
      ...(this.memo === undefined ? {} : { memo: this.memo }),
      ...(this.clientDomain === undefined ? {} : { client_domain: this.clientDomain }),
    };
    const challenge = await auth.get('', { signal, unwrap: false, query, schema: AnchorChallengeSchema });
    const domainSigner = this.#options.clientDomainSigner;
    const clientDomain =
      this.clientDomain === undefined
        ? undefined
        : { domain: this.clientDomain, key: typeof domainSigner === 'function' ? undefined : domainSigner?.publicKey() };
    const tx = validateChallenge(challenge, { ...config, account: this.account, memo: this.memo, homeDomain, clientDomain, now: this.#now() });
    // The client domain signs first, as a wallet's server signs the challenge it is shown; then the account.
    const attributed = domainSigner === undefined ? tx : await this.#signForDomain(tx, domainSigner, config.networkPassphrase);
    const signed = await this.#sign(attributed, config.networkPassphrase);
    const { token } = await auth.post('', { signal, unwrap: false, body: { transaction: signed }, schema: AnchorTokenSchema });
    return { token, expiresAt: jwtExpiry(token) ?? this.#now() + SEP10_TOKEN_TTL_SECONDS * 1000 };
  }

  /** The challenge signed for the client domain: by its Keypair, or by the function, whose output must carry the signature of the `client_domain` operation's source. */
  async #signForDomain(tx: Transaction, signer: Keypair | ChallengeSigner, networkPassphrase: string): Promise<Transaction> {
    if (typeof signer !== 'function') {
      tx.sign(signer);
      return tx;
    }
    const back = TransactionBuilder.fromXDR(await signedBy(signer, tx, networkPassphrase), networkPassphrase) as Transaction;
    const source = clientDomainOp(back)!.source!;
    if (!back.signatures.some((s) => Keypair.fromPublicKey(source).verify(back.hash(), s.signature))) {
      throw new ChallengeError('signer_output', 'the client domain signer did not sign with the key of the client_domain operation');
    }
    return back;
  }

  async #sign(tx: Transaction, networkPassphrase: string): Promise<string> {
    const { signer } = this.#options;
    if (typeof signer !== 'function') {
      tx.sign(signer);
      return tx.toXDR();
    }
    return signedBy(signer, tx, networkPassphrase);
  }
}

/** Runs a signer function on the checked challenge; it must hand back that very challenge, only with signatures added. */
async function signedBy(signer: ChallengeSigner, tx: Transaction, networkPassphrase: string): Promise<string> {
  const signed = await signer(tx.toXDR(), networkPassphrase);
  let back: Transaction | FeeBumpTransaction;
  try {
    back = TransactionBuilder.fromXDR(signed, networkPassphrase);
  } catch {
    throw new ChallengeError('signer_output', 'the signer returned something that is not a transaction');
  }
  if (back instanceof FeeBumpTransaction || !equalBytes(back.hash(), tx.hash())) {
    throw new ChallengeError('signer_output', 'the signer returned another transaction than the challenge');
  }
  return signed;
}

export interface ChallengeExpectations {
  serverKey: string;
  networkPassphrase: string;
  /** The SEP-10 endpoint; its host name (without a port, as wallet libraries compare it) is the expected `web_auth_domain`. */
  endpoint: string;
  /** The client account, `G…` or `M…`: the exact source of the first operation. */
  account: string;
  /** The id memo asked for, if any: the challenge must carry exactly it. */
  memo?: string | undefined;
  homeDomain: string;
  /**
   * The client domain asked for, if any: the challenge must carry one `client_domain` operation
   * with this value, sourced by `key` when it is known (the client domain signer's key), else by
   * some `G…` key other than the anchor's and the account's.
   */
  clientDomain?: { domain: string; key?: string | undefined } | undefined;
  /** ms since the epoch. */
  now: number;
}

/**
 * Checks a SEP-10 challenge before anything is signed, so that a hostile or broken server
 * cannot get anything else signed: the network, the anchor's signing key as source and
 * signer, sequence 0, live time bounds, a first `<home domain> auth` operation of the client
 * account (exactly the `M…` address asked for, if muxed) with a 48-byte nonce, a matching
 * `web_auth_domain`, the `client_domain` asked for (and none other's), no other kind of
 * operation, and no memo but the id memo asked for.
 */
export function validateChallenge(challenge: { transaction: string; network_passphrase?: string }, expect: ChallengeExpectations): Transaction {
  if (challenge.network_passphrase !== undefined && challenge.network_passphrase !== expect.networkPassphrase) {
    throw new ChallengeError('network_passphrase', 'it is for another Stellar network');
  }
  let parsed: Transaction | FeeBumpTransaction;
  try {
    parsed = TransactionBuilder.fromXDR(challenge.transaction, expect.networkPassphrase);
  } catch {
    throw new ChallengeError('not_a_transaction', 'it is not a transaction envelope');
  }
  if (parsed instanceof FeeBumpTransaction) throw new ChallengeError('not_a_transaction', 'it is a fee-bump transaction');
  const tx = parsed;
  if (tx.source !== expect.serverKey) throw new ChallengeError('server_account', 'its source is not the anchor’s signing key');
  if (tx.sequence !== '0') throw new ChallengeError('sequence', 'its sequence number is not 0');

  const now = Math.floor(expect.now / 1000);
  const bounds = tx.timeBounds;
  if (!bounds || Number(bounds.maxTime) === 0) throw new ChallengeError('time_bounds', 'it has no time bounds');
  if (now > Number(bounds.maxTime)) throw new ChallengeError('time_bounds', 'it has expired');
  if (now + CHALLENGE_CLOCK_SKEW_SECONDS < Number(bounds.minTime)) throw new ChallengeError('time_bounds', 'it is not valid yet');

  if (expect.memo === undefined) {
    if (tx.memo.type !== MemoNone) throw new ChallengeError('memo', 'it carries a memo that was not asked for');
  } else if (tx.memo.type !== MemoID || String(tx.memo.value) !== expect.memo) {
    throw new ChallengeError('memo', 'its memo is not the id memo asked for');
  }

  const [first, ...rest] = tx.operations;
  if (!first || first.type !== 'manageData' || first.source !== expect.account) {
    throw new ChallengeError('operations', 'its first operation is not a manage-data operation of this account');
  }
  if (first.name !== `${expect.homeDomain} auth`) throw new ChallengeError('home_domain', `its first operation is not named "${expect.homeDomain} auth"`);
  const nonce = first.value ? new TextDecoder().decode(first.value) : '';
  if (nonce.length !== 64 || base64Length(nonce) !== 48) throw new ChallengeError('nonce', 'its nonce is not 48 random bytes in base64');

  // SEP-10 names a domain, and @stellar/typescript-wallet-sdk compares it with the host name alone: a port is not part of it.
  const webAuthDomain = new URL(expect.endpoint).hostname;
  let sawWebAuthDomain = false;
  const asked = expect.clientDomain;
  for (const op of rest) {
    // The client_domain operation asked for is the one sourced by the client domain's key (checked below).
    if (asked && isClientDomainOp(op)) continue;
    // Every further operation must be the server's own manage-data: nothing that acts for the client.
    if (op.type !== 'manageData' || op.source !== expect.serverKey) {
      throw new ChallengeError('operations', `it has an unexpected ${op.type} operation`);
    }
    if (op.name === 'web_auth_domain') {
      sawWebAuthDomain = true;
      if (new TextDecoder().decode(op.value ?? new Uint8Array()) !== webAuthDomain) {
        throw new ChallengeError('web_auth_domain', `its web_auth_domain is not ${webAuthDomain}`);
      }
    }
  }
  if (!sawWebAuthDomain) throw new ChallengeError('web_auth_domain', 'it has no web_auth_domain operation');
  if (asked) {
    const ops = rest.filter(isClientDomainOp);
    const op = ops[0];
    if (ops.length !== 1 || op?.type !== 'manageData') throw new ChallengeError('client_domain', 'it has not exactly one client_domain operation');
    if (new TextDecoder().decode(op.value ?? new Uint8Array()) !== asked.domain) {
      throw new ChallengeError('client_domain', `its client_domain is not ${asked.domain}`);
    }
    const source = op.source ?? '';
    // A Keypair names the key; with a function, at least never the anchor's or the account's own key, whose signature it would stand for.
    const wrong =
      asked.key !== undefined ? source !== asked.key : !StrKey.isValidEd25519PublicKey(source) || source === expect.serverKey || source === baseKey(expect.account);
    if (wrong) throw new ChallengeError('client_domain', 'its client_domain operation is not sourced by the client domain’s signing key');
  }

  const server = Keypair.fromPublicKey(expect.serverKey);
  const hash = tx.hash();
  if (tx.signatures.length !== 1 || !server.verify(hash, tx.signatures[0]!.signature)) {
    throw new ChallengeError('server_signature', 'it is not signed by the anchor’s signing key alone');
  }
  return tx;
}

/**
 * SEP-12 and SEP-24 answer 403 when the SEP-10 token is missing or expired, with
 * `{type: "authentication_required"}` or an `error` text naming the token; other 403s
 * (a customer not ACCEPTED) are not about the token.
 */
function isAuthenticationRequired(status: number, body: unknown): boolean {
  if (status !== 403 || typeof body !== 'object' || body === null) return false;
  const { type, error } = body as { type?: unknown; error?: unknown };
  return type === 'authentication_required' || (typeof error === 'string' && /\b(?:SEP-10|token|authenticat)/i.test(error));
}

function base64Length(text: string): number {
  try {
    return atob(text).length;
  } catch {
    return -1;
  }
}

/** The `G…` key behind an account: itself, or the ed25519 key of a muxed `M…` address. */
function baseKey(account: string): string {
  return account.startsWith('M') ? StrKey.encodeEd25519PublicKey(StrKey.decodeMed25519PublicKey(account).subarray(0, 32)) : account;
}

/** Whether `op` is a `client_domain` manage-data operation. */
const isClientDomainOp = (op: Transaction['operations'][number]) => op.type === 'manageData' && op.name === 'client_domain';

/** The challenge's `client_domain` operation, if it has one. */
const clientDomainOp = (tx: Transaction) => tx.operations.find(isClientDomainOp);

const optionError = (option: string, message: string) => new ValidationError([{ path: [option], message }], 'AnchorClient options');

const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/**
 * @stellar/stellar-sdk's `Keypair`, re-exported so that a backend can make its `signer`
 * (`Keypair.random()`, `Keypair.fromSecret(seed)`) without importing the Stellar SDK itself.
 */
export { Keypair } from './stellar.js';
export type {
  AnchorTransaction,
  AnchorRefunds,
  AnchorRefundPayment,
  AnchorFeeDetails,
  AnchorFeeDetail,
  AnchorTransactionListParams,
  AnchorTransactionOptions,
  WatchTransactionOptions,
} from '../resources/anchor/sep24.js';
export {
  AnchorTransactionSchema,
  AnchorTransactionListParamsSchema,
  AnchorRefundsSchema,
  AnchorRefundPaymentSchema,
  AnchorFeeDetailsSchema,
  AnchorInteractiveParamsSchema,
  FINAL_TRANSACTION_STATUSES,
  AnchorTransfers,
} from '../resources/anchor/sep24.js';
export type { AnchorInteractiveParams } from '../resources/anchor/sep24.js';
export {
  AnchorCustomers,
  AnchorCustomerPutParamsSchema,
  AnchorCustomerSchema,
  AnchorMerchantFieldsSchema,
  type AnchorCustomer,
  type AnchorCustomerPutParams,
  type AnchorCustomerId,
  type AnchorCustomerDeleted,
  type AnchorCustomerOptions,
  type AnchorMerchantFields,
} from '../resources/anchor/sep12.js';
export { parseTomlTopLevel, type StellarToml } from '../resources/anchor/stellar-toml.js';
export {
  AnchorQuotes,
  QuoteSchema,
  QuotePriceSchema,
  QuotePricesSchema,
  QuoteInfoSchema,
  QuoteFeeSchema,
  QuoteCreateParamsSchema,
  QuotePriceParamsSchema,
  QuotePricesParamsSchema,
  type Quote,
  type QuotePrice,
  type QuotePrices,
  type QuoteInfo,
  type QuoteFee,
  type QuoteCreateParams,
  type QuotePriceParams,
  type QuotePricesParams,
} from '../resources/anchor/sep38.js';
export type { TokenStore, StoredToken } from '../core/token-cache.js';
export type { WaitClock, WaitOptions, WaitResult } from '../core/poll.js';
export type { Resource } from '../core/resource.js';

import { Keypair } from '@stellar/stellar-sdk';
import type { Clock } from './clock.js';
import type { ResolvedOptions, Urls } from './options.js';
import { rawSeed } from './crypto.js';
import { createRandom, type Random } from './random.js';
import { createStore, type Store } from './store.js';
import type { CollectionRecord, OwnerKind, PayoutRecord, StellarPaymentRecord } from './types.js';

export type { OwnerKind } from './types.js';

/**
 * How the shared rails tell an owner what happened. Each surface registers its hooks when
 * its handlers are created; hooks are code, so they live here and not in the store.
 */
export interface Hooks {
  collection: Map<OwnerKind, (record: CollectionRecord) => unknown>;
  payout: Map<OwnerKind, (record: PayoutRecord) => unknown>;
  /** Returns the id of what the inbound payment settled, or undefined if it is not theirs. */
  stellarPayment: Map<OwnerKind, (payment: StellarPaymentRecord) => string | undefined | Promise<string | undefined>>;
  sendConfirmed: Map<OwnerKind, (payment: StellarPaymentRecord) => unknown>;
}

/** What every handler and control call works with. `store` is swapped by `reset()`. */
export interface MockContext {
  options: ResolvedOptions;
  urls: Urls;
  clock: Clock;
  /** Seeded when `seed` is set: ids, references, memos, one-time passwords. */
  random: Random;
  /** Always the platform's CSPRNG: whatever signs or authenticates (keys, secrets, tokens, nonces). */
  secrets: Random;
  store: Store;
  /** Signs merchant access tokens, SEP-10 tokens and interactive tokens. */
  jwtSecret: string;
  /** The anchor's SEP-10 signing key (stellar.toml SIGNING_KEY). */
  anchorKeypair: Keypair;
  hooks: Hooks;
  /** A fresh id for `meta.request_id`. */
  requestId(): string;
}

export function createContext(options: ResolvedOptions): MockContext {
  const random = createRandom(options.seed);
  // Never seeded: a seed is a 32-bit number that anyone reading the docs knows.
  const secrets = createRandom();
  return {
    options,
    urls: options.urls,
    clock: options.clock,
    random,
    secrets,
    store: createStore(),
    jwtSecret: secrets.hex(32),
    anchorKeypair: Keypair.fromRawEd25519Seed(rawSeed(secrets.bytes(32))),
    hooks: { collection: new Map(), payout: new Map(), stellarPayment: new Map(), sendConfirmed: new Map() },
    requestId: () => `req_${random.hex(12)}`,
  };
}

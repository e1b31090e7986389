import { Keypair } from '@stellar/stellar-sdk';
import type { Clock } from './clock.js';
import type { ResolvedOptions, Urls } from './options.js';
import { createRandom, type Random } from './random.js';
import { createStore, type Store } from './store.js';

/** What every handler and control call works with. `store` is swapped by `reset()`. */
export interface MockContext {
  options: ResolvedOptions;
  urls: Urls;
  clock: Clock;
  random: Random;
  store: Store;
  /** Signs merchant access tokens, SEP-10 tokens and interactive tokens. */
  jwtSecret: string;
  /** The anchor's SEP-10 signing key (stellar.toml SIGNING_KEY). */
  anchorKeypair: Keypair;
  /** A fresh id for `meta.request_id`. */
  requestId(): string;
}

export function createContext(options: ResolvedOptions): MockContext {
  const random = createRandom(options.seed);
  return {
    options,
    urls: options.urls,
    clock: options.clock,
    random,
    store: createStore(),
    jwtSecret: random.hex(32),
    anchorKeypair: Keypair.fromRawEd25519Seed(Buffer.from(random.bytes(32))),
    requestId: () => `req_${random.hex(12)}`,
  };
}

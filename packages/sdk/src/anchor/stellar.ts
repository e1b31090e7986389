/**
 * The Stellar primitives the anchor client uses, from @stellar/stellar-sdk: an optional peer
 * dependency that only `@sikaramp/sdk/anchor` needs. Loaded with a dynamic import, so that without
 * it the anchor entry fails with one error that says what to install, rather than Node's resolver
 * error. Its `/base` subpath: keys and transactions, without Horizon, RPC and their HTTP clients.
 * Top-level await is ESM-only: the CommonJS build takes stellar.cjs.ts instead (tsup.config.ts).
 */
import type * as Stellar from '@stellar/stellar-sdk/base';
import { stellarLoadError } from './stellar-missing.js';

const stellar: typeof Stellar = await import('@stellar/stellar-sdk/base').catch((error: unknown) => {
  throw stellarLoadError(error);
});

export const { FeeBumpTransaction, Keypair, MemoID, MemoNone, StrKey, TransactionBuilder } = stellar;
export type FeeBumpTransaction = Stellar.FeeBumpTransaction;
export type Keypair = Stellar.Keypair;
export type Transaction = Stellar.Transaction;

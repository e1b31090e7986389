/** stellar.ts for the CommonJS build, which has no top-level await: the same exports, `require`d. */
import type * as Stellar from '@stellar/stellar-sdk/base';
import { stellarLoadError } from './stellar-missing.js';

let stellar: typeof Stellar;
try {
  stellar = require('@stellar/stellar-sdk/base') as typeof Stellar;
} catch (error) {
  throw stellarLoadError(error);
}

export const { FeeBumpTransaction, Keypair, MemoID, MemoNone, StrKey, TransactionBuilder } = stellar;
export type FeeBumpTransaction = Stellar.FeeBumpTransaction;
export type Keypair = Stellar.Keypair;
export type Transaction = Stellar.Transaction;

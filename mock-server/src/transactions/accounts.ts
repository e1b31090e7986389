/** The anchor's own Stellar account, and what a Stellar account address looks like. */
import { hash, Keypair, StrKey } from '@stellar/stellar-sdk';
import type { MockContext } from '../context.js';

const distributionKeys = new WeakMap<Keypair, Keypair>();

/**
 * The anchor's distribution account: it sends the USDC of deposits and receives the USDC of
 * withdrawals (`withdraw_anchor_account`). Derived from the SEP-10 signing key, which itself
 * holds no funds, as SEP-10 recommends.
 */
export function anchorAccount(ctx: MockContext): string {
  let keys = distributionKeys.get(ctx.anchorKeypair);
  if (!keys) {
    keys = Keypair.fromRawEd25519Seed(hash(new Uint8Array([...ctx.anchorKeypair.rawSecretKey(), ...new TextEncoder().encode('distribution')])));
    distributionKeys.set(ctx.anchorKeypair, keys);
  }
  return keys.publicKey();
}

/** A Stellar account address: `G…` or a muxed `M…`. */
export const isStellarAccount = (value: string) =>
  StrKey.isValidEd25519PublicKey(value) || StrKey.isValidMed25519PublicKey(value);

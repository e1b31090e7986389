/**
 * A backend signs in to the anchor with the `Keypair` of `@sikaramp/sdk/anchor`, with no
 * import of @stellar/stellar-sdk of its own: a key made at start, or one read from a secret
 * seed, reads the transaction it started at the anchor with the merchant fields.
 */
import { Keypair as StellarKeypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient, Keypair } from '../src/anchor/index.js';
import { customerInput, newWidget, recordingFetch } from './helpers/clients.js';
import { MODES, type MockEnv } from './helpers/mock.js';

describe.each(MODES)('AnchorClient with the Keypair of @sikaramp/sdk/anchor, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Awaited<ReturnType<typeof newWidget>>;
  let customerId: string;

  beforeAll(async () => {
    env = await start({ seed: 43 });
    shop = await newWidget(env);
    customerId = (await shop.widget.customers.create(customerInput())).id;
  });
  afterAll(() => env.close());

  const anchorWith = (signer: Keypair) => {
    const { fetch, sent } = recordingFetch();
    return { anchor: new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer, fetch, now: () => env.backend.clock.now() }), sent };
  };

  it('signs in with a key made at start, and reads the buy it started with the merchant fields', async () => {
    const { anchor, sent } = anchorWith(Keypair.random());
    const { session_id, session_token } = await shop.widget.sessions.create({ user_id: customerId });
    const { id } = await anchor.transfers.deposit({ merchant_id: shop.merchant.id, session_id, session_token, api_key: shop.publicKey, user_id: customerId, amount: 100 });
    await expect(anchor.transfers.get(id)).resolves.toMatchObject({ id, kind: 'deposit', status: 'incomplete', to: anchor.account });
    expect(sent.filter((s) => s === 'POST /anchor/auth')).toHaveLength(1);
  });

  it('signs in as the account of a secret seed, kept in the environment', async () => {
    const seed = StellarKeypair.random().secret();
    const signer = Keypair.fromSecret(seed);
    const { anchor } = anchorWith(signer);
    expect(anchor.account).toBe(StellarKeypair.fromSecret(seed).publicKey());
    const token = await anchor.authenticate();
    // The anchor's token names the account that signed the challenge.
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
    expect(claims.sub).toBe(anchor.account);
  });

  it('is @stellar/stellar-sdk’s own Keypair, so a key made with either is accepted', () => {
    expect(Keypair).toBe(StellarKeypair);
    const theirs = StellarKeypair.random();
    expect(anchorWith(theirs).anchor.account).toBe(theirs.publicKey());
  });
});

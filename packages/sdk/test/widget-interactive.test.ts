import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WidgetClient } from '../src/clients/widget.js';
import { BadRequestError, NotFoundError, PermissionDeniedError, ValidationError } from '../src/index.js';
import { customerInput, newWidget, recordingFetch } from './helpers/clients.js';
import { MODES, type MockEnv } from './helpers/mock.js';

describe.each(MODES)('widget.interactive, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Awaited<ReturnType<typeof newWidget>>;
  let customerId: string;
  beforeAll(async () => {
    env = await start({ seed: 33 });
    shop = await newWidget(env);
    customerId = (await shop.widget.customers.create(customerInput())).id;
  });
  afterAll(() => env.close());

  it('starts a buy with the public key from the client and answers the interactive URL', async () => {
    const wallet = Keypair.random().publicKey();
    const tx = await shop.widget.interactive.deposit({ user_id: customerId, fiat_amount: 150, destination_address: wallet });
    expect(tx).toEqual({ type: 'interactive_customer_info_needed', id: expect.any(String), url: expect.stringContaining('/interactive?token=') });
    const record = env.backend.control.anchor.transaction(tx.id);
    expect(record).toMatchObject({ merchant_id: shop.merchant.id, customer_id: customerId, transaction: { kind: 'deposit', status: 'incomplete', to: wallet } });
  });

  it('starts a sell, leaving the amount to the customer when not given', async () => {
    const tx = await shop.widget.interactive.withdraw({ user_id: customerId });
    expect(env.backend.control.anchor.transaction(tx.id).transaction).toMatchObject({ kind: 'withdrawal', status: 'incomplete' });
  });

  it('opens the interactive page in the language asked for, and refuses what is not a language code', async () => {
    const tx = await shop.widget.interactive.withdraw({ user_id: customerId, lang: 'fr' });
    const page = await (await fetch(tx.url)).text();
    expect(page).toContain('<html lang="fr">');
    const error = await shop.widget.interactive.deposit({ user_id: customerId, lang: 'French' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path.join('.'))).toEqual(['lang']);
  });

  it('refuses a customer who is not ACCEPTED with KYC_NOT_APPROVED', async () => {
    const { id } = await shop.widget.customers.create(customerInput('Processing'));
    const error = await shop.widget.interactive.deposit({ user_id: id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ code: 'KYC_NOT_APPROVED' });
  });

  it("refuses another merchant's public key and an unknown customer", async () => {
    const other = await newWidget(env);
    await expect(shop.widget.interactive.deposit({ user_id: customerId, api_key: other.publicKey })).rejects.toBeInstanceOf(BadRequestError);
    await expect(shop.widget.interactive.withdraw({ user_id: 'no-such-customer' })).rejects.toBeInstanceOf(NotFoundError);
  });
});

const secretKey = 'sika_secret_111111111111111111111111111111111111111111111111';
const publicKey = 'sika_public_222222222222222222222222222222222222222222222222';

describe('widget.interactive input', () => {
  const { fetch, sent } = recordingFetch();
  const widget = new WidgetClient({ baseUrl: 'http://127.0.0.1:9', secretKey, publicKey, fetch });

  it('refuses the secret key as api_key, without echoing it', async () => {
    const error = await widget.interactive.deposit({ user_id: 'c1', api_key: secretKey }).then(() => undefined, (e: unknown) => e as ValidationError);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error!.issues.map((i) => i.path.join('.'))).toEqual(['api_key']);
    expect(error!.message).not.toContain(secretKey);
  });

  it('refuses another asset, a negative amount or a bad Stellar address', async () => {
    for (const params of [
      { user_id: 'c1', asset_code: 'XLM' },
      { user_id: 'c1', fiat_amount: -5 },
      { user_id: 'c1', destination_address: 'GABC' },
    ]) {
      await expect(widget.interactive.deposit(params as never)).rejects.toBeInstanceOf(ValidationError);
    }
    await expect(widget.interactive.withdraw({ user_id: 'c1', onchain_amount: 0 })).rejects.toBeInstanceOf(ValidationError);
  });

  it('needs a public key from the call or the client', async () => {
    const bare = new WidgetClient({ baseUrl: 'http://127.0.0.1:9', secretKey, fetch });
    const error = await bare.interactive.withdraw({ user_id: 'c1' }).then(() => undefined, (e: unknown) => e as ValidationError);
    expect(error!.issues.map((i) => i.path.join('.'))).toEqual(['api_key']);
    expect(sent).toEqual([]);
  });
});

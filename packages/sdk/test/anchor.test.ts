import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { AnchorClient } from '../src/anchor/index.js';
import { AuthenticationError, MemoryTokenStore, NotFoundError, PermissionDeniedError, ValidationError, WaitTimeoutError, type TokenStore } from '../src/index.js';
import { customerInput, newWidget, recordingFetch } from './helpers/clients.js';
import { MODES, type MockEnv } from './helpers/mock.js';

const PHONE = '+233201234567';

describe.each(MODES)('AnchorClient against the mock anchor, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Awaited<ReturnType<typeof newWidget>>;
  let customerId: string;

  beforeAll(async () => {
    env = await start({ seed: 41 });
    shop = await newWidget(env);
    customerId = (await shop.widget.customers.create(customerInput())).id;
  });
  afterAll(() => env.close());

  const newAnchor = (signer = Keypair.random()) => {
    const { fetch, sent } = recordingFetch();
    const anchor = new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer, fetch, now: () => env.backend.clock.now() });
    return { anchor, sent };
  };
  /** The five merchant fields of a SEP-24 request, with a fresh widget session. */
  const merchantFields = async () => {
    const { session_id, session_token } = await shop.widget.sessions.create({ user_id: customerId });
    return { merchant_id: shop.merchant.id, session_id, session_token, api_key: shop.publicKey, user_id: customerId };
  };
  const count = (sent: string[], what: string) => sent.filter((s) => s === what).length;

  it('makes one SEP-10 round trip for concurrent calls, and reuses the token', async () => {
    const { anchor, sent } = newAnchor();
    const { id } = await anchor.customers.put(customerInput());
    await Promise.all([anchor.customers.get(id), anchor.customers.get(id), anchor.customers.get(id), anchor.authenticate()]);
    await anchor.customers.get(id);
    expect(count(sent, 'GET /.well-known/stellar.toml')).toBe(1);
    expect(count(sent, 'GET /anchor/auth')).toBe(1);
    expect(count(sent, 'POST /anchor/auth')).toBe(1);
    expect(count(sent, 'GET /anchor/customer')).toBe(4);
  });

  it("names the anchor's home domain in the challenge request (SEP-10 home_domain), and reads a REJECTED customer's message", async () => {
    const urls: string[] = [];
    const anchor = new AnchorClient({
      anchorUrl: `${env.origin}/anchor`,
      signer: Keypair.random(),
      fetch: (input, init) => (urls.push(new Request(input, init).url), fetch(input, init)),
      now: () => env.backend.clock.now(),
    });
    const { id } = await anchor.customers.put(customerInput('Rejected'));
    const challenge = new URL(urls.find((u) => new URL(u).pathname === '/anchor/auth')!);
    expect(challenge.searchParams.get('home_domain')).toBe(new URL(env.origin).host);
    const rejected = await anchor.customers.get(id);
    expectTypeOf(rejected.message).toEqualTypeOf<string | undefined>();
    expect(rejected).toMatchObject({ status: 'REJECTED', message: expect.stringMatching(/rejected/i) });
  });

  it('signs in again when SEP-12 DELETE answers 401 authentication_required (a token the anchor no longer takes)', async () => {
    const signer = Keypair.random();
    const keys = new Set<string>();
    const memory = new MemoryTokenStore();
    const store: TokenStore = { get: (k) => memory.get(k), set: (k, t) => (keys.add(k), memory.set(k, t)), delete: (k) => memory.delete(k) };
    const { fetch, sent } = recordingFetch();
    const anchor = new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer, fetch, tokenStore: store, now: () => env.backend.clock.now() });
    await anchor.customers.put(customerInput());
    // A token this anchor did not issue (another deployment's, or revoked), still unexpired by the client's clock.
    for (const key of keys) await memory.set(key, { token: 'header.eyJleHAiOjQxMDI0NDQ4MDB9.sig', expiresAt: env.backend.clock.now() + 600_000 });
    await expect(anchor.customers.delete(anchor.account)).resolves.toMatchObject({ message: `customer data of ${anchor.account} deleted` });
    expect(count(sent, 'POST /anchor/auth')).toBe(2);
  });

  it('authenticates again a minute before the 15-minute token expires', async () => {
    const { anchor, sent } = newAnchor();
    await anchor.authenticate();
    await env.backend.clock.advance(13 * 60 + 59);
    await anchor.authenticate();
    expect(count(sent, 'POST /anchor/auth')).toBe(1);
    await env.backend.clock.advance(2);
    await anchor.authenticate();
    expect(count(sent, 'POST /anchor/auth')).toBe(2);
  });

  it('authenticates with a signer function, as a wallet would', async () => {
    const wallet = Keypair.random();
    const seen: string[] = [];
    const { fetch } = recordingFetch();
    const anchor = new AnchorClient({
      anchorUrl: `${env.origin}/anchor`,
      account: wallet.publicKey(),
      signer: async (xdr, passphrase) => {
        seen.push(passphrase);
        const { TransactionBuilder } = await import('@stellar/stellar-sdk');
        const tx = TransactionBuilder.fromXDR(xdr, passphrase);
        tx.sign(wallet);
        return tx.toXDR();
      },
      fetch,
      now: () => env.backend.clock.now(),
    });
    await expect(anchor.customers.put(customerInput())).resolves.toEqual({ id: expect.any(String) });
    expect(seen).toEqual(['Test SDF Network ; September 2015']);
  });

  it('creates, reads, completes and deletes a SEP-12 customer, the same record as the widget backend', async () => {
    const { anchor } = newAnchor(Keypair.random());
    const input = customerInput('NeedsInfo');
    const { id } = await anchor.customers.put(input);
    const needs = await anchor.customers.get(id);
    expect(needs.status).toBe('NEEDS_INFO');
    expect(Object.keys(needs.fields ?? {})).toContain('birth_date');
    await anchor.customers.put({ id, birth_date: '1990-01-01', address: '1 Oxford St', city: 'Accra', address_country_code: 'GHA', mobile_number: PHONE });
    await expect(anchor.customers.get(id)).resolves.toMatchObject({ id, status: 'ACCEPTED' });
    await expect(anchor.customers.delete(id)).resolves.toEqual({ message: expect.stringContaining(id) });
    const error = await anchor.customers.get(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: undefined, message: '404: customer not found' });
  });

  it('refuses bad customer fields and bad interactive fields before sending', async () => {
    const { anchor, sent } = newAnchor();
    await expect(anchor.customers.put({ first_name: 'A', last_name: 'B', email_address: 'nope' })).rejects.toBeInstanceOf(ValidationError);
    await expect(anchor.transfers.deposit({ amount: -1 })).rejects.toBeInstanceOf(ValidationError);
    await expect(anchor.transfers.withdraw({ api_key: 'sika_secret_abcdef' })).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toEqual([]);
  });

  it('buys with the merchant fields and watches every status to completed', async () => {
    const { anchor } = newAnchor();
    const wallet = Keypair.random().publicKey();
    const started = await anchor.transfers.deposit({ ...(await merchantFields()), amount: 120, account: wallet });
    expect(started).toMatchObject({ type: 'interactive_customer_info_needed', url: expect.stringContaining('/interactive?token=') });
    await expect(anchor.transfers.get(started.id)).resolves.toMatchObject({ id: started.id, kind: 'deposit', status: 'incomplete', to: wallet });

    const seen: string[] = [];
    const watching = anchor.watchTransaction(started.id, { interval: 0.02, onStatus: (tx) => seen.push(tx.status) });
    const reach = (status: string) => waitUntil(() => seen.at(-1) === status);
    await reach('incomplete');
    await env.backend.control.anchor.completeInteractive(started.id, { provider: 'mtn', phone: PHONE });
    await reach('pending_user_transfer_start');
    await env.backend.control.rails.approvePrompt(started.id);
    await reach('pending_anchor');
    await env.backend.clock.advance(2);
    await reach('pending_stellar');
    await env.backend.clock.advance(5);
    const final = await watching;
    expect(final).toMatchObject({
      succeeded: true,
      status: 'completed',
      value: { status: 'completed', amount_in: '120.00', stellar_transaction_id: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(seen).toEqual(['incomplete', 'pending_user_transfer_start', 'pending_anchor', 'pending_stellar', 'completed']);
  });

  it('ends the watch on error, with its message, when the Mobile Money prompt is declined', async () => {
    const { anchor } = newAnchor();
    const started = await anchor.transfers.deposit({ ...(await merchantFields()), amount: 40, account: Keypair.random().publicKey() });
    await env.backend.control.anchor.completeInteractive(started.id, { provider: 'mtn', phone: PHONE });
    const watching = anchor.watchTransaction(started.id, { interval: 0.02 });
    await env.backend.control.rails.declinePrompt(started.id);
    await expect(watching).resolves.toMatchObject({ succeeded: false, status: 'error', value: { message: expect.any(String) } });
  });

  it('ends the watch on expired when the customer never finishes the form', async () => {
    const { anchor } = newAnchor();
    const started = await anchor.transfers.deposit({ ...(await merchantFields()), amount: 40, account: Keypair.random().publicKey() });
    const seen: string[] = [];
    const watching = anchor.watchTransaction(started.id, { interval: 0.02, onStatus: (tx) => seen.push(tx.status) });
    await waitUntil(() => seen.length === 1);
    // An incomplete transaction expires after 30 minutes.
    await env.backend.clock.advance(30 * 60);
    await expect(watching).resolves.toMatchObject({ succeeded: false, status: 'expired', value: { id: started.id } });
    expect(seen).toEqual(['incomplete', 'expired']);
  });

  it('starts a sell with the withdraw address and memo, and keeps watching across a token renewal', async () => {
    const { anchor, sent } = newAnchor();
    const started = await anchor.transfers.withdraw({ ...(await merchantFields()), amount: '5' });
    await env.backend.control.anchor.completeInteractive(started.id, { provider: 'mtn', phone: PHONE });
    const tx = await anchor.transfers.get(started.id);
    expect(tx).toMatchObject({ kind: 'withdrawal', status: 'pending_user_transfer_start', withdraw_anchor_account: expect.stringMatching(/^G/), withdraw_memo: expect.any(String) });
    const seen: string[] = [];
    const watching = anchor.watchTransaction(started.id, { interval: 0.02, onStatus: (t) => seen.push(t.status) });
    await waitUntil(() => seen.length === 1);
    // Twenty minutes pass: the token in flight expires, and the watch authenticates again.
    await env.backend.clock.advance(20 * 60);
    await env.backend.control.rails.sendStellarPayment({ from: Keypair.random().publicKey(), to: tx.withdraw_anchor_account!, amount: '5', asset_code: 'USDC', memo: tx.withdraw_memo! });
    await waitUntil(() => seen.at(-1) === 'pending_external');
    await env.backend.clock.advance(2);
    await env.backend.clock.advance(5);
    await expect(watching).resolves.toMatchObject({ succeeded: true, status: 'completed' });
    expect(count(sent, 'POST /anchor/auth')).toBe(2);
  });

  it('watches a sell whose payouts all fail to error, with the USDC sent back typed as SEP-24 refunds', async () => {
    const { anchor } = newAnchor();
    const wallet = Keypair.random().publicKey();
    const started = await anchor.transfers.withdraw({ ...(await merchantFields()), amount: '2' });
    await env.backend.control.anchor.completeInteractive(started.id, { provider: 'mtn', phone: PHONE });
    const tx = await anchor.transfers.get(started.id);
    await env.backend.control.rails.sendStellarPayment({ from: wallet, to: tx.withdraw_anchor_account!, amount: '2', asset_code: 'USDC', memo: tx.withdraw_memo! });
    await env.backend.clock.advance(2);
    const paying = await anchor.transfers.get(started.id);
    expect(paying).toMatchObject({ status: 'pending_payout_confirmation', refunded: false });
    expect(paying.refunds).toBeUndefined();

    const watching = anchor.watchTransaction(started.id, { interval: 0.02 });
    // Three attempts, 30 s apart; the third failure sends the USDC back.
    for (const wait of [30, 30, 0]) {
      await env.backend.control.rails.failPayout(started.id, 'wallet limit reached');
      await env.backend.clock.advance(wait);
    }
    const { succeeded, value: failed } = await watching;
    expect(succeeded).toBe(false);
    expect(failed).toMatchObject({ status: 'error', from: wallet, refunded: false });
    const refunds = failed.refunds!;
    expectTypeOf(refunds.amount_refunded).toEqualTypeOf<string>();
    expectTypeOf(refunds.payments[0]!.id_type).toEqualTypeOf<'stellar' | 'external' | (string & {})>();
    expect(refunds).toEqual({
      amount_refunded: '2.00',
      amount_fee: '0.00',
      payments: [{ id: expect.stringMatching(/^[0-9a-f]{64}$/), id_type: 'stellar', amount: '2.00', fee: '0.00' }],
    });

    // Once the payment back is confirmed on the ledger, the refund is complete.
    await env.backend.clock.advance(5);
    const back = await anchor.transfers.get(started.id);
    expectTypeOf(back.refunded).toEqualTypeOf<boolean | undefined>();
    expect(back).toMatchObject({ status: 'error', refunded: true, refunds });
  });

  it('refuses a customer who is not ACCEPTED with the anchor’s 403', async () => {
    const { anchor } = newAnchor();
    // A customer this account made at the anchor may be named alone (no merchant fields).
    const { id } = await anchor.customers.put(customerInput('Processing'));
    const error = await anchor.transfers.deposit({ user_id: id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).toMatch(/^403: customer KYC status is PROCESSING/);
  });

  it("reads, changes and deletes a widget customer at SEP-12 with the merchant fields, and not without them", async () => {
    const { anchor } = newAnchor();
    const { id } = await shop.widget.customers.create(customerInput());
    const stranger = await anchor.customers.get(id).catch((e: unknown) => e);
    expect(stranger).toBeInstanceOf(NotFoundError);
    const session = await shop.widget.sessions.create({ user_id: id });
    const merchant = { merchant_id: shop.merchant.id, session_id: session.session_id, session_token: session.session_token, api_key: shop.publicKey, user_id: id };
    await expect(anchor.customers.get(id, { merchant })).resolves.toEqual(await shop.widget.customers.get(id));
    await expect(anchor.customers.put({ id, city: 'Tema' }, { merchant })).resolves.toEqual({ id });
    await expect(anchor.customers.delete(id, { merchant })).resolves.toEqual({ message: `customer ${id} deleted` });
    await expect(shop.widget.customers.get(id)).rejects.toBeInstanceOf(NotFoundError);
    // Merchant fields are checked before anything is sent.
    const bad = await anchor.customers.get(customerId, { merchant: { ...merchant, api_key: shop.secretKey } }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationError);
  });

  it("creates the merchant's customer at the anchor with the merchant fields; the widget backend uses it", async () => {
    const { anchor } = newAnchor();
    const { id } = await anchor.customers.put(customerInput(), { merchant: await merchantFields() });
    await expect(shop.widget.customers.get(id)).resolves.toMatchObject({ id, status: 'ACCEPTED' });
    await expect(shop.widget.sessions.create({ user_id: id })).resolves.toMatchObject({ merchant_id: shop.merchant.id });
    const started = await shop.widget.interactive.withdraw({ user_id: id });
    expect(started.type).toBe('interactive_customer_info_needed');
  });

  it("deletes the signed-in account's customer data with SEP-12's DELETE /customer/{account}", async () => {
    const { anchor } = newAnchor();
    const { id } = await anchor.customers.put(customerInput());
    await expect(anchor.customers.delete(anchor.account)).resolves.toEqual({ message: `customer data of ${anchor.account} deleted` });
    await expect(anchor.customers.get(id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(anchor.customers.delete(Keypair.random().publicKey())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('types fee_details, from and to, and keeps a transaction from any account but the one that started it', async () => {
    const { anchor } = newAnchor();
    const wallet = Keypair.random().publicKey();
    const started = await anchor.transfers.withdraw({ ...(await merchantFields()), amount: '10', account: wallet });
    await env.backend.control.anchor.completeInteractive(started.id, { provider: 'mtn', phone: PHONE });
    const tx = await anchor.transfers.get(started.id);
    expectTypeOf(tx.fee_details).toEqualTypeOf<
      { total: string; asset: string; breakdown?: { name: string; amount: string; description?: string }[] } | null | undefined
    >();
    expect(tx).toMatchObject({ from: wallet, to: PHONE, amount_fee: tx.fee_details?.total, fee_details: { asset: 'iso4217:GHS' } });
    // SEP-24 names the parts `breakdown`; they sum to the total.
    expect(tx.fee_details!.breakdown!.map((d) => d.name)).toEqual(['Platform fee', 'Stellar network fee']);
    expect(tx.fee_details!.breakdown!.reduce((sum, d) => sum + Math.round(Number(d.amount) * 100), 0)).toBe(Math.round(Number(tx.fee_details!.total) * 100));
    // A withdrawal waiting for its USDC says by when it must arrive.
    expectTypeOf(tx.user_action_required_by).toEqualTypeOf<string | null | undefined>();
    expect(tx.user_action_required_by).toBe(new Date(env.backend.clock.now() + 30 * 60_000).toISOString());
    const other = newAnchor().anchor;
    await expect(other.transfers.get(started.id)).rejects.toBeInstanceOf(NotFoundError);
    const viaWidget = await shop.widget.interactive.deposit({ user_id: customerId });
    await expect(anchor.transfers.get(viaWidget.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("reads, lists and watches a widget-backend transaction with the merchant fields of its customer's session", async () => {
    const wallet = Keypair.random().publicKey();
    const viaWidget = await shop.widget.interactive.deposit({ user_id: customerId, fiat_amount: 60, destination_address: wallet });
    // The merchant's backend: a keypair of its own, and a session it opens for the customer.
    const { anchor, sent } = newAnchor();
    await expect(anchor.transfers.get(viaWidget.id)).rejects.toBeInstanceOf(NotFoundError);
    const merchant = await merchantFields();
    await expect(anchor.transfers.get(viaWidget.id, { merchant })).resolves.toMatchObject({ id: viaWidget.id, kind: 'deposit', status: 'incomplete', to: wallet });
    const [newest] = await anchor.transfers.list({ kind: 'deposit', limit: 1 }, { merchant });
    expect(newest).toMatchObject({ id: viaWidget.id });
    await expect(anchor.transfers.list({ kind: 'deposit' })).resolves.toEqual([]);

    const seen: string[] = [];
    const watching = anchor.watchTransaction(viaWidget.id, { merchant, interval: 0.02, onStatus: (tx) => seen.push(tx.status) });
    await waitUntil(() => seen.at(-1) === 'incomplete');
    await env.backend.control.anchor.completeInteractive(viaWidget.id, { provider: 'mtn', phone: PHONE });
    await env.backend.control.rails.approvePrompt(viaWidget.id);
    await waitUntil(() => seen.at(-1) === 'pending_anchor');
    await env.backend.clock.advance(7);
    await expect(watching).resolves.toMatchObject({ succeeded: true, status: 'completed', value: { id: viaWidget.id } });

    // The session reaches its own customer's transactions only.
    const { id: otherCustomer } = await shop.widget.customers.create(customerInput());
    const theirs = await shop.widget.interactive.deposit({ user_id: otherCustomer });
    await expect(anchor.transfers.get(theirs.id, { merchant })).rejects.toBeInstanceOf(NotFoundError);
    expect((await anchor.transfers.list({}, { merchant })).map((t) => t.id)).not.toContain(theirs.id);

    // Checked before sending: a secret key as api_key, a missing field, a bad limit.
    const before = sent.length;
    await expect(anchor.transfers.get(viaWidget.id, { merchant: { ...merchant, api_key: shop.secretKey } })).rejects.toBeInstanceOf(ValidationError);
    const { user_id: _, ...partial } = merchant;
    // @ts-expect-error all five fields are required
    await expect(anchor.transfers.list({}, { merchant: partial })).rejects.toBeInstanceOf(ValidationError);
    await expect(anchor.transfers.list({ limit: 0 }, { merchant })).rejects.toBeInstanceOf(ValidationError);
    expect(sent.length).toBe(before);

    // An expired session is the anchor's 401.
    await env.backend.clock.advance(30 * 60);
    const late = await anchor.transfers.get(viaWidget.id, { merchant }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(AuthenticationError);
    expect(late).toMatchObject({ status: 401, message: expect.stringContaining('session expired') });
  });

  it('gives up watching after maxDuration', async () => {
    const { anchor } = newAnchor();
    const started = await anchor.transfers.deposit(await merchantFields());
    await expect(anchor.watchTransaction(started.id, { interval: 0.02, maxDuration: 0.1 })).rejects.toBeInstanceOf(WaitTimeoutError);
  });
});

async function waitUntil(condition: () => boolean) {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error('condition not met');
}

/**
 * `widget.orders.create()` against the mock, in-process and over real HTTP on 127.0.0.1: a
 * merchant's server confirms an interactive order with the customer's session, and meets
 * each documented refusal as a typed error. The phone is verified as the interactive page
 * verifies it (its own API), and expiry is reached on the mock's manual clock.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { AnchorClient } from '../src/anchor/index.js';
import { WidgetClient } from '../src/clients/widget.js';
import { AuthenticationError, ConflictError, UnprocessableEntityError, ValidationError, type WidgetOrder } from '../src/index.js';
import { customerInput, newWidget, recordingFetch } from './helpers/clients.js';
import { MODES, type MockEnv } from './helpers/mock.js';

const PHONE = '+233201234567';

describe.each(MODES)('widget.orders, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Awaited<ReturnType<typeof newWidget>>;
  let customerId: string;
  beforeAll(async () => {
    env = await start({ seed: 44, rateLifetimeSeconds: 300 });
    shop = await newWidget(env);
    customerId = (await shop.widget.customers.create(customerInput())).id;
  });
  afterAll(() => env.close());

  /** Verifies the phone by OTP through the interactive page's own API, as the customer does on the page. */
  async function verifyOnPage(url: string, phone = PHONE) {
    const html = await (await fetch(url)).text();
    const config = JSON.parse(html.match(/<script type="application\/json" id="ramp-config">(.*?)<\/script>/s)![1]!);
    const post = (path: string, body: unknown) =>
      fetch(`${config.api}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${config.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('otp', { phone })).status).toBe(200);
    const { code } = (await (await fetch(`${env.origin}/_mock/otp?phone=${encodeURIComponent(phone)}`)).json()) as { code: string };
    expect((await post('verify', { phone, code })).status).toBe(200);
  }

  const buy = async () => {
    const tx = await shop.widget.interactive.deposit({ user_id: customerId, fiat_amount: 120, destination_address: Keypair.random().publicKey() });
    return { tx, session: await shop.widget.sessions.create({ user_id: customerId }) };
  };

  it('confirms the order with the session and an idempotency key it makes itself', async () => {
    const { tx, session } = await buy();
    await verifyOnPage(tx.url);
    const seen: Headers[] = [];
    const widget = new WidgetClient({
      baseUrl: env.origin,
      secretKey: shop.secretKey,
      fetch: (input, init) => {
        seen.push(input instanceof Request ? input.headers : new Headers(init?.headers));
        return fetch(input, init);
      },
    });
    const result = await widget.orders.create({ session, transaction_id: tx.id, provider: 'mtn', phone: PHONE });
    expectTypeOf(result).toEqualTypeOf<WidgetOrder>();
    expect(result.order).toMatchObject({ id: expect.stringMatching(/^ord_/), status: 'pending', fiat_amount: 120, payment_method: 'mobile_money' });
    expect(result.transaction).toMatchObject({ id: tx.id, status: 'pending_user_transfer_start', amount_in: '120.00' });
    expect(seen[0]!.get('x-session-id')).toBe(session.session_id);
    expect(seen[0]!.get('x-session-token')).toBe(session.session_token);
    expect(seen[0]!.get('x-idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    const listed = await shop.merchant.client.orders.list();
    expect(listed.data.map((o) => o.id)).toContain(result.order.id);
  });

  it('meets each refusal as a typed error with its code', async () => {
    const { tx, session } = await buy();
    const unverified = await shop.widget.orders.create({ session, transaction_id: tx.id, provider: 'mtn', phone: '+233209999999' }).catch((e: unknown) => e);
    expect(unverified).toBeInstanceOf(UnprocessableEntityError);
    expect(unverified).toMatchObject({ status: 422, code: 'PHONE_NOT_VERIFIED' });

    await verifyOnPage(tx.url);
    const key = crypto.randomUUID();
    await shop.widget.orders.create({ session, transaction_id: tx.id, provider: 'mtn', phone: PHONE }, { idempotencyKey: key });
    const duplicate = await shop.widget.orders.create({ session, transaction_id: tx.id, provider: 'mtn', phone: PHONE }, { idempotencyKey: key }).catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(ConflictError);
    expect(duplicate).toMatchObject({ status: 409, code: 'DUPLICATE_ORDER' });

    const wrong = await shop.widget.orders.create({ session: { ...session, session_token: 'nope' }, transaction_id: tx.id, provider: 'mtn', phone: PHONE }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(AuthenticationError);
    expect(wrong).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('answers QUOTE_EXPIRED once the SEP-38 quote of the transaction ran out', async () => {
    const anchor = new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer: Keypair.random(), now: () => env.backend.clock.now() });
    const info = await anchor.quotes.info();
    const quote = await anchor.quotes.create({ sell_asset: 'iso4217:GHS', buy_asset: info.assets[0]!.asset, sell_amount: 80, api_key: shop.publicKey });
    const session = await shop.widget.sessions.create({ user_id: customerId });
    const fields = { merchant_id: shop.merchant.id, session_id: session.session_id, session_token: session.session_token, api_key: shop.publicKey, user_id: customerId };
    const tx = await anchor.transfers.deposit({ quote_id: quote.id, ...fields });
    await verifyOnPage(tx.url);
    await env.backend.clock.advance(300);
    const expired = await shop.widget.orders.create({ session, transaction_id: tx.id, provider: 'mtn', phone: PHONE }).catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(UnprocessableEntityError);
    expect(expired).toMatchObject({ code: 'QUOTE_EXPIRED' });
  });

  it('answers 401 once the session is 30 minutes old', async () => {
    const { tx, session } = await buy();
    await verifyOnPage(tx.url);
    await env.backend.clock.advance(30 * 60);
    await expect(shop.widget.orders.create({ session, transaction_id: tx.id, provider: 'mtn', phone: PHONE })).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('widget.orders input', () => {
  const { fetch, sent } = recordingFetch();
  const widget = new WidgetClient({ baseUrl: 'http://127.0.0.1:9', secretKey: 'sika_secret_111111111111111111111111111111111111111111111111', fetch });
  const session = { session_id: 's', session_token: 't' };

  it('refuses bad input with a ValidationError naming the field, sending nothing', async () => {
    const cases: [unknown, string][] = [
      [{ transaction_id: 'tx', provider: 'mtn', phone: PHONE }, 'session'],
      [{ session, transaction_id: 'tx', provider: 'mtn', phone: '0241234567' }, 'phone'],
      [{ session, transaction_id: 'tx', provider: 'mtn', phone: PHONE, amount: -1 }, 'amount'],
      [{ session, transaction_id: '', provider: 'mtn', phone: PHONE }, 'transaction_id'],
      [{ session: { session_id: 's', session_token: 'line\nbreak' }, transaction_id: 'tx', provider: 'mtn', phone: PHONE }, 'session.session_token'],
      [{ session, transaction_id: 'tx', provider: 'mtn', phone: PHONE, reference: 'x' }, ''],
    ];
    for (const [params, path] of cases) {
      const error = await widget.orders.create(params as never).catch((e: unknown) => e);
      expect(error, JSON.stringify(params)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]!.path.join('.')).toBe(path);
    }
    await expect(widget.orders.create({ session, transaction_id: 'tx', provider: 'mtn', phone: PHONE }, { idempotencyKey: ' spaced ' })).rejects.toBeInstanceOf(ValidationError);
    // 000 section 5: the order creation's X-Idempotency-Key is "a unique UUID".
    for (const idempotencyKey of ['order-42', `${crypto.randomUUID()}x`, crypto.randomUUID().replace(/-/g, '')]) {
      const error = await widget.orders.create({ session, transaction_id: 'tx', provider: 'mtn', phone: PHONE }, { idempotencyKey }).catch((e: unknown) => e);
      expect(error, idempotencyKey).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toMatch(/idempotencyKey: must be a UUID/);
    }
    expect(sent).toEqual([]);
  });
});

/**
 * createRampHandlers against the standalone mock over real HTTP: what `<ramp-widget>` sends to
 * `session-url` and `status-url`, and every way a request is refused without creating anything.
 */
import { Keypair } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient } from '../src/anchor/index.js';
import { ApiError } from '../src/core/errors.js';
import { stellarAmount } from '../src/core/schema.js';
import { createRampHandlers } from '../src/handlers/index.js';
import { WidgetClient } from '../src/clients/widget.js';
import { customerInput, newWidget, recordingFetch } from './helpers/clients.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';

const SHOP = 'https://shop.example';

describe('createRampHandlers, standalone mock (127.0.0.1)', () => {
  let env: MockEnv;
  let shop: Awaited<ReturnType<typeof newWidget>>;
  /** Two signed-in customers of the shop, by their login cookie. */
  const users = new Map<string, string>();
  let sent: string[];
  let handlers: ReturnType<typeof createRampHandlers>;

  const wallet = Keypair.random().publicKey();
  const authorize = (request: Request) => users.get(request.headers.get('cookie') ?? '');
  const post = (body: unknown, cookie = 'ama', raw = false) =>
    handlers.session(
      new Request(`${SHOP}/api/ramp/session`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: raw ? (body as string) : JSON.stringify(body) }),
    );
  const status = (id: string, cookie = 'ama') => handlers.status(new Request(`${SHOP}/api/ramp/status?id=${encodeURIComponent(id)}`, { headers: { cookie } }));
  const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

  beforeAll(async () => {
    env = await startStandalone({ seed: 18 });
    shop = await newWidget(env);
    users.set('ama', (await shop.widget.customers.create(customerInput())).id);
    users.set('kofi', (await shop.widget.customers.create(customerInput())).id);
    const recorded = recordingFetch();
    const widget = new WidgetClient({ baseUrl: env.origin, secretKey: shop.secretKey, fetch: recorded.fetch });
    const anchor = new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer: Keypair.random(), fetch: recorded.fetch, now: () => env.backend.clock.now() });
    handlers = createRampHandlers({ widget, anchor, publicKey: shop.publicKey, authorize });
    sent = recorded.sent;
  });
  afterAll(() => env.close());

  it('starts a buy at the anchor for the signed-in customer, as the shop’s transaction, and answers {url, id}', async () => {
    const res = await post({ flow: 'buy', amount: 150, asset: 'USDC', destination: wallet, lang: 'fr' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { url, id } = (await res.json()) as { url: string; id: string };
    expect(new URL(url).searchParams.get('token')).toMatch(/^[0-9a-f]{48}$/);
    expect(env.backend.control.anchor.transaction(id)).toMatchObject({ transaction: { kind: 'deposit', to: wallet } });
    // The merchant fields made it the shop's: once the form is finished it is in the shop's orders.
    await env.backend.control.anchor.completeInteractive(id, { provider: 'mtn', phone: '+233201234567' });
    const transactions: unknown[] = [];
    for await (const order of shop.merchant.client.orders.list()) transactions.push(order.transaction_id);
    expect(transactions).toContain(id);
  });

  it('starts a sell, and answers its status to its customer only', async () => {
    const { id } = (await (await post({ flow: 'sell', amount: 12.5 })).json()) as { id: string };
    const mine = await status(id);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ transaction: { id, kind: 'withdrawal', status: 'incomplete' } });
    const before = sent.length;
    const foreign = await status(id, 'kofi');
    expect(foreign.status).toBe(404);
    expect(await errorOf(foreign)).toEqual({ code: 'not_found', message: 'No such transaction.' });
    expect(sent.length).toBe(before); // the anchor was not asked
  });

  it('answers 404 for a transaction this backend did not start, even one that exists', async () => {
    const other = new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer: Keypair.random(), now: () => env.backend.clock.now() });
    const { session_id, session_token, merchant_id } = await shop.widget.sessions.create({ user_id: users.get('ama')! });
    const elsewhere = await other.transfers.withdraw({ merchant_id, session_id, session_token, api_key: shop.publicKey, user_id: users.get('ama')! });
    expect((await status(elsewhere.id)).status).toBe(404);
    expect((await status('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('answers 405 with Allow for the wrong method, 401 to nobody signed in, 400 for bad JSON: nothing is sent', async () => {
    const before = sent.length;
    const get = await handlers.session(new Request(`${SHOP}/api/ramp/session`, { headers: { cookie: 'ama' } }));
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const put = await handlers.status(new Request(`${SHOP}/api/ramp/status?id=x`, { method: 'POST', body: '{}' }));
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET']);
    expect((await post({ flow: 'sell' }, 'stranger')).status).toBe(401);
    expect((await status('x', '')).status).toBe(401);
    const bad = await post('{"flow": "buy",', 'ama', true);
    expect([bad.status, (await errorOf(bad)).code]).toEqual([400, 'invalid_json']);
    expect((await post('x'.repeat(17 * 1024), 'ama', true)).status).toBe(413);
    // Without a wallet a buy's USDC would go to this backend's own account.
    const noWallet = await post({ flow: 'buy', amount: 150 });
    expect(await errorOf(noWallet)).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('destination') });
    expect(sent.length).toBe(before);
  });

  it('passes the service’s refusal of the customer on with its status: 403 for a customer not approved', async () => {
    const pending = (await shop.widget.customers.create(customerInput('Rejected'))).id;
    users.set('rejected', pending);
    const res = await post({ flow: 'sell' }, 'rejected');
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('kyc_not_approved');
  });

  it('refuses every spoiled session body with 400 and sends nothing (property)', async () => {
    const valid = { flow: 'sell', amount: 10, asset: 'USDC', destination: wallet, lang: 'en' };
    const spoil = fc.oneof(
      // not an object
      fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.array(fc.jsonValue())).map((body) => ({ body })),
      // one field replaced by a bad value
      fc.record({
        key: fc.constantFrom('flow', 'amount', 'asset', 'destination', 'lang'),
        value: fc.oneof(fc.string(), fc.integer({ max: 0 }), fc.double({ min: -1e9, max: 0, noNaN: true }), fc.boolean(), fc.constant({}), fc.constant([])),
      })
        .filter(({ key, value }) => !(key === 'flow' && (value === 'buy' || value === 'sell')) && !(key === 'asset' && value === 'USDC'))
        .filter(({ key, value }) => !(key === 'lang' && typeof value === 'string' && /^[a-z]{2}(-[A-Za-z]{2})?$/.test(value)))
        .map(({ key, value }) => ({ body: { ...valid, [key]: value } })),
    );
    const before = sent.length;
    await fc.assert(
      fc.asyncProperty(spoil, async ({ body }) => {
        const res = await post(body);
        expect(res.status).toBe(400);
        expect((await errorOf(res)).code).toBe('invalid_request');
      }),
      { numRuns: 150 },
    );
    expect(sent.length).toBe(before);
  });

  it('refuses an amount written as stellarAmount refuses it with 400 and its own message, sending nothing', async () => {
    const before = sent.length;
    // 8 places, exponent forms, 16 digits: String() of each fails the rule stellarAmount checks too.
    for (const amount of [0.12345678, 1e-7, 1e21, 1e15]) {
      expect(stellarAmount.safeParse(amount).success, String(amount)).toBe(false);
      const res = await post({ flow: 'sell', amount });
      expect([res.status, await errorOf(res)]).toEqual([400, { code: 'invalid_request', message: 'amount must be a positive number with at most 7 decimal places' }]);
    }
    expect(sent.length).toBe(before);
  });

  it('refuses an amount outside the limits with 400 amount_out_of_range, opening no session and starting nothing', async () => {
    const before = sent.length;
    // The documented minimums; the maximum is the merchant's, which the service holds it to.
    const refused: [string, number, string][] = [
      ['buy', 9.99, 'amount must be at least 10 GHS'],
      ['buy', 0.01, 'amount must be at least 10 GHS'],
      ['sell', 0.5, 'amount must be at least 1 USDC'],
    ];
    for (const [flow, amount, message] of refused) {
      const res = await post({ flow, amount, destination: wallet });
      expect([flow, amount, res.status, await errorOf(res)]).toEqual([flow, amount, 400, { code: 'amount_out_of_range', message }]);
    }
    expect(sent.length).toBe(before);
    // The merchant's own limits, from its onboarding, are held before the service is asked.
    const own = createRampHandlers({ widget: shop.widget, authorize, limits: { sell: { max: 200 } } });
    const sell = (amount: number) =>
      own.session(new Request(`${SHOP}/s`, { method: 'POST', headers: { cookie: 'ama', 'content-type': 'application/json' }, body: JSON.stringify({ flow: 'sell', amount }) }));
    expect(await errorOf(await sell(200.5))).toEqual({ code: 'amount_out_of_range', message: 'amount must be from 1 to 200 USDC' });
    expect((await sell(200)).status).toBe(200);
    for (const limits of [{ buy: { min: 0 } }, { sell: { min: 50, max: 10 } }, { buy: { max: Number.NaN } }, { sell: { min: Infinity } }]) {
      expect(() => createRampHandlers({ widget: shop.widget, authorize, limits })).toThrow(RangeError);
    }
  });

  it('answers any status id it did not start with 400 or 404, without asking the anchor (property)', async () => {
    const before = sent.length;
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.uuid(), fc.stringMatching(/^[\w.:-]{1,120}$/)), async (id) => {
        expect([400, 404]).toContain((await status(id)).status);
      }),
      { numRuns: 150 },
    );
    expect(sent.length).toBe(before);
  });

  it('never puts the secret key in an answer', async () => {
    const answers = await Promise.all([post({ flow: 'sell' }), post({ flow: 'buy' }), post('{', 'ama', true), status('nope')]);
    for (const res of answers) expect(await res.text()).not.toContain(shop.secretKey);
  });

  describe('without an anchor client', () => {
    it('starts the transaction at the widget backend, and reads statuses only with getTransaction', async () => {
      const widget = createRampHandlers({ widget: shop.widget, authorize });
      const res = await widget.session(new Request(`${SHOP}/s`, { method: 'POST', headers: { cookie: 'ama', 'content-type': 'application/json' }, body: JSON.stringify({ flow: 'buy', amount: 50 }) }));
      expect(res.status).toBe(200);
      const { id } = (await res.json()) as { id: string };
      expect(env.backend.control.anchor.transaction(id)).toMatchObject({ transaction: { kind: 'deposit', status: 'incomplete' } });
      const unreadable = await widget.status(new Request(`${SHOP}/t?id=${id}`, { headers: { cookie: 'ama' } }));
      expect([unreadable.status, (await errorOf(unreadable)).code]).toEqual([501, 'status_unavailable']);

      const recorded = createRampHandlers({ widget: shop.widget, authorize, getTransaction: async (tx) => ({ id: tx, status: 'pending_anchor' }) });
      const started = (await (await recorded.session(new Request(`${SHOP}/s`, { method: 'POST', headers: { cookie: 'ama', 'content-type': 'application/json' }, body: '{"flow":"sell"}' }))).json()) as { id: string };
      const read = await recorded.status(new Request(`${SHOP}/t?id=${started.id}`, { headers: { cookie: 'ama' } }));
      expect(await read.json()).toEqual({ transaction: { id: started.id, status: 'pending_anchor' } });
      expect((await recorded.status(new Request(`${SHOP}/t?id=${started.id}`, { headers: { cookie: 'kofi' } }))).status).toBe(404);
    });
  });

  it('answers the service’s refusals of this backend (its key, its merchant fields) 502 with no upstream text, and reports them', async () => {
    const reported: unknown[] = [];
    const onError = (e: unknown) => void reported.push(e);
    const sell = (h: ReturnType<typeof createRampHandlers>) =>
      h.session(new Request(`${SHOP}/s`, { method: 'POST', headers: { cookie: 'ama', 'content-type': 'application/json' }, body: '{"flow":"sell","amount":20}' }));
    const anchor = new AnchorClient({ anchorUrl: `${env.origin}/anchor`, signer: Keypair.random(), now: () => env.backend.clock.now() });
    const wrongKey = new WidgetClient({ baseUrl: env.origin, secretKey: shop.secretKey.replace(/.$/, (c) => (c === '0' ? '1' : '0')) });
    const otherShop = await newWidget(env);
    const cases = [
      // A secret key the service does not know (rotated, or a typo in the environment): 401.
      createRampHandlers({ widget: wrongKey, anchor, publicKey: shop.publicKey, authorize, onError }),
      // Merchant fields that do not agree (another merchant's public key): refused at the anchor.
      createRampHandlers({ widget: shop.widget, anchor, publicKey: otherShop.publicKey, authorize, onError }),
    ];
    for (const handlers of cases) {
      const res = await sell(handlers);
      expect([res.status, await errorOf(res)]).toEqual([502, { code: 'upstream_failed', message: 'The ramp service failed; try again later.' }]);
    }
    expect(reported).toHaveLength(2);
    expect(reported.every((e) => e instanceof ApiError)).toBe(true);
  });

  it('answers 500 without detail when authorize throws, and reports the error', async () => {
    const reported: unknown[] = [];
    const broken = createRampHandlers({
      widget: shop.widget,
      authorize: () => {
        throw new Error('session store down: password=hunter2');
      },
      onError: (e) => reported.push(e),
    });
    const res = await broken.session(new Request(`${SHOP}/s`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"flow":"sell"}' }));
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('hunter2');
    expect(reported).toHaveLength(1);
  });
});

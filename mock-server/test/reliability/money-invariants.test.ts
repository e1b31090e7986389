/**
 * Money invariants under any interleaving of customer, merchant and control actions
 * (fast-check, random action sequences over the public API and `/_mock/`, in-process), for
 * interactive transactions, ramp orders and checkout payments:
 *   - every status change observed is allowed by the transition table in src/machines/*, so
 *     nothing completes twice and a final status never moves;
 *   - the merchant's volume is the sum of what completed;
 *   - each event is one webhook: one event id, one body, byte-identical on every delivery
 *     and retry, correctly signed; and once the endpoint recovers, nothing is lost.
 * (What a ramp order's money adds up to, refunds included, is ramp-money.test.ts.)
 */
import { Keypair } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCustomer } from '../../src/customers.js';
import { issueAccessToken } from '../../src/http/auth.js';
import { checkoutSession } from '../../src/machines/checkout-session.js';
import { RAMP_ORDER_MACHINES } from '../../src/machines/ramp-order.js';
import { depositTransaction, withdrawTransaction } from '../../src/machines/transaction.js';
import { createApiKey, createMerchant } from '../../src/merchants.js';
import type { MerchantRecord, Store } from '../../src/store.js';
import { call, startInProcess, type CallResult, type MockEnv } from '../helpers/env.js';
import { send } from './harness.js';
import { checkoutSignatureValid, orderSignatureValid, startHookEndpoint, type Behaviour, type HookEndpoint } from './hooks.js';

type Table = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Every status the table lets `from` reach, `from` included. */
function reachable(table: Table, from: string): Set<string> {
  const seen = new Set([from]);
  for (const status of seen) for (const next of Object.values(table[status] ?? {})) seen.add(next);
  return seen;
}

/** The statuses observed of each record, checked against its table as they come. */
class Walks {
  readonly seen = new Map<string, string[]>();
  constructor(private readonly tableOf: (id: string) => Table) {}
  observe(id: string, status: string) {
    const walk = this.seen.get(id);
    if (!walk) return void this.seen.set(id, [status]);
    const last = walk.at(-1)!;
    if (last === status) return;
    expect(reachable(this.tableOf(id), last).has(status), `${id}: ${[...walk, status].join(' -> ')} leaves the table`).toBe(true);
    walk.push(status);
  }
}

const cents = (amount: number | string | null) => Math.round(Number(amount ?? 0) * 100);
const WALLET = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 3)).publicKey();
const STRANGER = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 4)).publicKey();
const PHONE = '+233201234567';

/** Whatever the action, the mock answers it as documented: never a 500 (a 502 is the checkout routes' answer to a failing gateway). */
async function act(env: MockEnv, method: string, path: string, init: Parameters<typeof call>[3] = {}): Promise<CallResult> {
  const res = await call(env, method, path, init);
  const allowed = path.startsWith('/api/v1/developer/payments') ? [502] : [];
  if (res.status >= 500) expect(allowed, `${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
  await env.backend.clock.idle();
  return res;
}

interface Base {
  env: MockEnv;
  hooks: HookEndpoint;
  merchant: MerchantRecord;
  secretKey: string;
  /** The store right after set-up: each run starts from a copy of it. */
  pristine: Store;
}

/** One merchant with keys, a webhook URL at `hooks`, and whatever `extra` adds; the clock then holds still. */
async function base(seed: number, extra: (b: Omit<Base, 'pristine'>) => Promise<void> = async () => {}): Promise<Base> {
  const env = await startInProcess({ seed });
  const hooks = await startHookEndpoint();
  const ctx = env.backend.context;
  const merchant = await createMerchant(ctx, { name: 'Ledger Shop', legal_name: 'Ledger Shop Ltd', email: `ledger${seed}@shop.example`, password: 'correct horse battery' });
  const { key: secretKey } = await createApiKey(ctx, merchant, { key_type: 'secret' });
  const { token } = await issueAccessToken(ctx, merchant);
  expect((await call(env, 'PUT', '/api/v1/merchant/webhook', { headers: { authorization: `Bearer ${token}` }, body: { url: hooks.url } })).status).toBe(200);
  await extra({ env, hooks, merchant, secretKey });
  await env.backend.clock.idle();
  env.backend.clock.stop();
  return { env, hooks, merchant, secretKey, pristine: structuredClone(env.backend.store) };
}

/** Starts a run from the set-up's store, with no task left over from the last run, and the endpoint behaving as told. */
async function fresh(b: Base, behaviour: Behaviour) {
  await b.env.backend.clock.idle();
  b.env.backend.clock.stop();
  b.env.backend.context.store = structuredClone(b.pristine);
  b.hooks.hits.length = 0;
  b.hooks.behaviour = behaviour;
}

const dashboard = async (b: Base) => ({ authorization: `Bearer ${(await issueAccessToken(b.env.backend.context, b.merchant)).token}` });

/** The merchant's `current_month_volume` as the dashboard shows it, in pesewas. */
async function volume(b: Base): Promise<number> {
  const res = await act(b.env, 'GET', '/api/v1/merchant/profile', { headers: await dashboard(b) });
  return cents(res.body.data.current_month_volume);
}

async function webhookSecrets(b: Base, known: Set<string>) {
  const res = await act(b.env, 'GET', '/api/v1/merchant/webhook', { headers: await dashboard(b) });
  known.add(res.body.data.secret);
}

interface Delivery {
  id: string;
  kind: string;
  event: string;
  event_id: string;
  endpoint_id: string | null;
  body: string;
  state: string;
  attempts: { status?: number; error?: string }[];
}

const deliveries = async (b: Base): Promise<Delivery[]> => (await act(b.env, 'GET', '/_mock/webhooks')).body.data;

/**
 * Order and ramp payment webhooks: each event is one delivery record (one event id), every
 * request the endpoint got is byte for byte the body of one record, and carries a valid signature.
 */
function expectOneWebhookPerEvent(b: Base, all: Delivery[], keyOf: (body: any) => string, secrets: Set<string>) {
  const byKey = new Map<string, Delivery[]>();
  for (const d of all) byKey.set(keyOf(JSON.parse(d.body)), [...(byKey.get(keyOf(JSON.parse(d.body))) ?? []), d]);
  for (const [key, list] of byKey) expect(list.map((d) => d.event_id), `${key} was sent as ${list.length} events`).toHaveLength(1);
  const bodies = new Set(all.map((d) => d.body));
  for (const hit of b.hooks.hits) {
    expect(bodies.has(hit.body), `a webhook nobody recorded: ${hit.body}`).toBe(true);
    expect(orderSignatureValid(hit, [...secrets]), `bad signature on ${hit.body}`).toBe(true);
  }
}

/**
 * Past every expiry with the endpoint as the run left it (so what expiring sends meets a failing
 * endpoint in many runs); then, once the endpoint answers again and every retry has had its time,
 * each delivery went through or used up its 5 attempts.
 */
async function expectNothingLost(b: Base, secrets: Set<string>) {
  // Past every expiry: 30 min forms, 30 min sells, 2 min prompts.
  await act(b.env, 'POST', '/_mock/clock/advance', { body: { seconds: 3 * 3600 } });
  b.hooks.behaviour = 200;
  // Past the whole retry schedule (~5 h) of anything sent so far: its last attempt finds the endpoint answering.
  await act(b.env, 'POST', '/_mock/clock/advance', { body: { seconds: 18_100 } });
  await webhookSecrets(b, secrets);
  for (const d of await deliveries(b)) {
    if (d.state === 'exhausted') {
      expect(d.attempts, `${d.event} gave up early`).toHaveLength(5);
      continue;
    }
    expect(d.state, `${d.event} ${d.body}`).toBe('delivered');
    expect(b.hooks.hits.some((h) => h.body === d.body), `${d.event} delivered but never received`).toBe(true);
  }
}

/** How the merchant's endpoint starts a run: healthy, failing, or dropping connections. */
const start = fc.constantFrom<Behaviour>(200, 200, 500, 'reset');
const behaviour = fc.record({ do: fc.constant('endpoint' as const), behaviour: fc.constantFrom<Behaviour>(200, 200, 500, 503, 'reset') });

/** What the runs reached, so that a generator gone blind (nothing ever completes, nothing is ever retried) fails the test. */
class Coverage {
  readonly statuses = new Set<string>();
  retried = 0;
  constructor(readonly wanted: readonly string[]) {}
  see(walks: Walks, sent: { attempts: unknown[] }[]) {
    for (const walk of walks.seen.values()) for (const status of walk) this.statuses.add(status);
    this.retried += sent.filter((d) => d.attempts.length > 1).length;
  }
  get complete() {
    return this.retried > 0 && this.wanted.every((s) => this.statuses.has(s));
  }
}

/**
 * Checks `property` on 25 runs, then, while `coverage` still misses something, on up to 25 more at
 * a time with fresh seeds, 100 runs at most. What each run reaches is left to chance, and 25 runs
 * miss one of the rarer outcomes now and then; a generator that cannot reach it misses it in 100
 * runs too. Returns what a coverage failure says: the runs and their seeds (`fc.assert(p, { seed, numRuns: 25 })` replays a round).
 */
async function assertCovering<T>(property: fc.IAsyncProperty<T>, coverage: Coverage): Promise<string> {
  const seeds: number[] = [];
  do {
    const seed = (Date.now() ^ (Math.random() * 0x1_0000_0000)) | 0;
    seeds.push(seed);
    await fc.assert(property, { numRuns: 25, seed });
  } while (!coverage.complete && seeds.length < 4);
  return `not reached in ${seeds.length * 25} runs (seeds ${seeds.join(', ')})`;
}
const advance = (choices: number[]) => fc.record({ do: fc.constant('advance' as const), seconds: fc.constantFrom(...choices) });

describe('interactive transactions: any interleaving keeps the money straight', () => {
  let b: Base;
  let customerId: string;
  let publicKey: string;
  beforeAll(async () => {
    b = await base(41, async ({ env, merchant }) => {
      const ctx = env.backend.context;
      publicKey = (await createApiKey(ctx, merchant, { key_type: 'public' })).key;
      customerId = upsertCustomer(ctx, merchant.id, { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' }).customer.id;
    });
  }, 30_000);
  afterAll(async () => {
    await b.env.close();
    await b.hooks.close();
  });

  const action = fc.oneof(
    { weight: 8, arbitrary: fc.record({ do: fc.constant('progress' as const), i: fc.nat() }) },
    { weight: 3, arbitrary: fc.record({ do: fc.constant('buy' as const), amount: fc.integer({ min: 20, max: 4_000 }) }) },
    { weight: 3, arbitrary: fc.record({ do: fc.constant('sell' as const), amount: fc.integer({ min: 2, max: 250 }) }) },
    { weight: 4, arbitrary: fc.record({ do: fc.constant('form' as const), i: fc.nat() }) },
    { weight: 3, arbitrary: fc.record({ do: fc.constantFrom('approve' as const, 'decline' as const), i: fc.nat() }) },
    { weight: 3, arbitrary: fc.record({ do: fc.constant('usdc' as const), i: fc.nat(), exact: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('failPayout' as const), i: fc.nat() }) },
    { weight: 4, arbitrary: advance([1, 2, 3, 5, 10, 10, 60, 130, 1_900]) },
    { weight: 2, arbitrary: behaviour },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('rotate' as const) }) },
  );

  /** What the customer or the world does next to move `id` along its happy path. */
  const progress = async (id: string) => {
    const { env } = b;
    const { transaction: t, collection_id } = (await act(env, 'GET', `/_mock/transactions/${id}`)).body;
    if (t.status === 'incomplete') return act(env, 'POST', `/_mock/transactions/${id}/complete-interactive`, { body: { provider: 'mtn', phone: PHONE } });
    if (t.status === 'pending_user_transfer_start' && t.kind === 'deposit' && collection_id) return act(env, 'POST', `/_mock/mobile-money/${id}/approve`);
    if (t.status === 'pending_user_transfer_start' && t.kind === 'withdrawal') {
      return act(env, 'POST', '/_mock/stellar/payments', { body: { from: STRANGER, to: t.withdraw_anchor_account, amount: t.amount_in, asset_code: 'USDC', memo: t.withdraw_memo } });
    }
    return act(env, 'POST', '/_mock/clock/advance', { body: { seconds: 3 } });
  };

  it('keeps every status inside its table, counts each completion once, and sends each order webhook as one event', async () => {
    const tables: Record<string, Table> = { deposit: depositTransaction, withdrawal: withdrawTransaction };
    const coverage = new Coverage(['completed', 'expired']);
    const tried = await assertCovering(
      fc.asyncProperty(start, fc.array(action, { minLength: 4, maxLength: 30 }), async (first, actions) => {
        await fresh(b, first);
        const { env } = b;
        const ids: string[] = [];
        const kinds = new Map<string, string>();
        const walks = new Walks((id) => tables[kinds.get(id)!]!);
        const secrets = new Set<string>();
        await webhookSecrets(b, secrets);
        const pick = (i: number) => (ids.length === 0 ? undefined : ids[i % ids.length]);
        const widget = { 'x-api-key': b.secretKey };

        const check = async () => {
          const { data } = (await act(env, 'GET', '/_mock/transactions')).body;
          let completed = 0;
          for (const { transaction: t } of data) {
            walks.observe(t.id, t.status);
            if (t.status === 'completed') completed += cents(t.kind === 'deposit' ? t.amount_in : t.amount_out);
          }
          expect(await volume(b), 'volume is not the sum of completed transactions').toBe(completed);
          const orders = (await deliveries(b)).filter((d) => d.kind === 'order');
          expectOneWebhookPerEvent(b, orders, (body) => body.order_id, secrets);
          // One final event per order, and the one its status calls for.
          const finals: Record<string, string> = { completed: 'order.completed', error: 'order.failed', expired: 'order.expired' };
          for (const { transaction: t, order_id } of data) {
            const sent = orders.filter((d) => JSON.parse(d.body).order_id === order_id).map((d) => d.event);
            expect(sent, `order of ${t.id} (${t.status})`).toEqual(order_id && finals[t.status] ? [finals[t.status]] : []);
          }
        };

        for (const a of actions) {
          const id = 'i' in a ? pick(a.i) : undefined;
          switch (a.do) {
            case 'progress':
              if (id) await progress(id);
              break;
            case 'buy':
            case 'sell': {
              const kind = a.do === 'buy' ? 'deposit' : 'withdraw';
              const body = { asset_code: 'USDC', user_id: customerId, api_key: publicKey, ...(a.do === 'buy' ? { fiat_amount: a.amount, destination_address: WALLET } : { onchain_amount: a.amount }) };
              const res = await act(env, 'POST', `/api/v1/widget/${kind}/interactive`, { headers: widget, body });
              if (res.status === 200) {
                ids.push(res.body.data.id);
                kinds.set(res.body.data.id, a.do === 'buy' ? 'deposit' : 'withdrawal');
              } else expect(res.status).toBe(422);
              break;
            }
            case 'form':
              if (id) await act(env, 'POST', `/_mock/transactions/${id}/complete-interactive`, { body: { provider: 'mtn', phone: PHONE } });
              break;
            case 'approve':
            case 'decline':
              if (id) await act(env, 'POST', `/_mock/mobile-money/${id}/${a.do}`);
              break;
            case 'usdc': {
              if (!id) break;
              const { transaction: t } = (await act(env, 'GET', `/_mock/transactions/${id}`)).body;
              if (t.kind !== 'withdrawal' || !t.withdraw_memo) break;
              const amount = a.exact ? t.amount_in : (Number(t.amount_in) + 1).toFixed(2);
              await act(env, 'POST', '/_mock/stellar/payments', { body: { from: STRANGER, to: t.withdraw_anchor_account, amount, asset_code: 'USDC', memo: t.withdraw_memo } });
              break;
            }
            case 'failPayout':
              if (id) await act(env, 'POST', `/_mock/payouts/${id}/fail`, { body: { reason: 'wallet closed' } });
              break;
            case 'advance':
              await act(env, 'POST', '/_mock/clock/advance', { body: { seconds: a.seconds } });
              break;
            case 'endpoint':
              b.hooks.behaviour = a.behaviour;
              break;
            case 'rotate':
              await act(env, 'POST', '/api/v1/merchant/webhook/rotate', { headers: await dashboard(b) });
              await webhookSecrets(b, secrets);
              break;
          }
          await check();
        }
        await expectNothingLost(b, secrets);
        await check();
        coverage.see(walks, await deliveries(b));
      }),
      coverage,
    );
    expect([...coverage.statuses], tried).toEqual(expect.arrayContaining([...coverage.wanted]));
    expect(coverage.retried, tried).toBeGreaterThan(0);
  }, 90_000);
});

describe('ramp orders: any interleaving keeps the money straight', () => {
  let b: Base;
  const phone = '0241234567';
  beforeAll(async () => {
    b = await base(42, async ({ env, merchant, secretKey }) => {
      env.backend.control.merchants.enableRamp(merchant.id);
      const auth = { authorization: `Bearer ${secretKey}` };
      const kyc = await call(env, 'POST', '/api/v1/ramp/kyc/initiate', { headers: auth, body: { first_name: 'Kwame', last_name: 'Mensah', phone, provider_name: 'mtn' } });
      const code = (await call(env, 'GET', `/_mock/otp?phone=${phone}`)).body.code;
      expect((await call(env, 'POST', '/api/v1/ramp/kyc/verify', { headers: auth, body: { kyc_id: kyc.body.data.kyc_id, otp_code: code } })).status).toBe(200);
    });
  }, 30_000);
  afterAll(async () => {
    await b.env.close();
    await b.hooks.close();
  });

  const action = fc.oneof(
    { weight: 8, arbitrary: fc.record({ do: fc.constant('progress' as const), i: fc.nat() }) },
    { weight: 3, arbitrary: fc.record({ do: fc.constant('order' as const), type: fc.constantFrom('onramp' as const, 'offramp' as const), amount: fc.integer({ min: 20, max: 3_000 }) }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('cancel' as const), i: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('confirm' as const), i: fc.nat(), own: fc.boolean() }) },
    { weight: 3, arbitrary: fc.record({ do: fc.constantFrom('approve' as const, 'decline' as const), i: fc.nat() }) },
    { weight: 3, arbitrary: fc.record({ do: fc.constant('pay' as const), i: fc.nat(), exact: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constantFrom('failSend' as const, 'failPayout' as const, 'failOrder' as const), i: fc.nat() }) },
    { weight: 4, arbitrary: advance([1, 2, 5, 5, 30, 60, 130, 400]) },
    { weight: 2, arbitrary: behaviour },
  );

  /** What the user or the world does next to move the order along its happy path. */
  const progress = async (o: { id: string; reference: string; type: string }) => {
    const { env } = b;
    const view = (await act(env, 'GET', `/_mock/ramp/orders/${o.id}`)).body;
    if (view.status === 'fiat_pending') return act(env, 'POST', `/_mock/mobile-money/${o.reference}/approve`);
    if (view.status === 'crypto_pending' && !view.source_wallet) {
      return act(env, 'POST', `/api/v1/ramp/orders/${o.reference}/confirm`, { headers: { authorization: `Bearer ${b.secretKey}` }, body: { source_wallet: WALLET } });
    }
    if (view.status === 'crypto_pending') {
      return act(env, 'POST', '/_mock/stellar/payments', { body: { from: WALLET, to: view.deposit.stellar_address, amount: String(view.crypto_amount), asset_code: 'USDC', memo: view.deposit.memo } });
    }
    return act(env, 'POST', '/_mock/clock/advance', { body: { seconds: 3 } });
  };

  it('keeps every status inside its table, counts each completion once, and sends each payment webhook as one event', async () => {
    const coverage = new Coverage(['completed', 'expired']);
    const tried = await assertCovering(
      fc.asyncProperty(start, fc.array(action, { minLength: 4, maxLength: 30 }), async (first, actions) => {
        await fresh(b, first);
        const { env } = b;
        const auth = { authorization: `Bearer ${b.secretKey}` };
        const orders: { id: string; reference: string; type: 'onramp' | 'offramp' }[] = [];
        const walks = new Walks((id) => RAMP_ORDER_MACHINES[orders.find((o) => o.id === id)!.type] as unknown as Table);
        const secrets = new Set<string>();
        await webhookSecrets(b, secrets);
        let keys = 0;

        const check = async () => {
          let completed = 0;
          for (const o of orders) {
            const view = (await act(env, 'GET', `/_mock/ramp/orders/${o.id}`)).body;
            walks.observe(o.id, view.status);
            if (view.status === 'completed') completed += cents(view.fiat_amount);
          }
          expect(await volume(b), 'volume is not the sum of completed orders').toBe(completed);
          // One webhook per fiat transaction (a prompt, or one payout attempt), under one reference.
          const payments = (await deliveries(b)).filter((d) => d.kind === 'ramp_payment');
          expectOneWebhookPerEvent(b, payments, (body) => body.data.provider_ref, secrets);
          expectOneWebhookPerEvent(b, payments, (body) => body.data.reference, secrets);
        };

        for (const a of actions) {
          const o = 'i' in a && orders.length > 0 ? orders[a.i % orders.length] : undefined;
          switch (a.do) {
            case 'progress':
              if (o) await progress(o);
              break;
            case 'order': {
              const body = {
                type: a.type,
                fiat_amount: a.amount,
                ...(a.type === 'onramp' ? { destination_wallet: WALLET } : {}),
                payment_method: 'mobile_money',
                user: { first_name: 'Kwame', last_name: 'Mensah', phone, network: 'mtn' },
              };
              const res = await act(env, 'POST', '/api/v1/ramp/orders', { headers: { ...auth, 'x-idempotency-key': `k${++keys}` }, body });
              if (res.status === 201) {
                orders.push({ id: res.body.data.id, reference: res.body.data.reference, type: a.type });
                walks.observe(res.body.data.id, res.body.data.status);
              } else expect(res.status).toBe(422);
              break;
            }
            case 'cancel':
              if (o) await act(env, 'POST', `/api/v1/ramp/orders/${o.reference}/cancel`, { headers: auth });
              break;
            case 'confirm':
              if (o) await act(env, 'POST', `/api/v1/ramp/orders/${o.reference}/confirm`, { headers: auth, body: { source_wallet: a.own ? WALLET : STRANGER } });
              break;
            case 'approve':
            case 'decline':
              if (o) await act(env, 'POST', `/_mock/mobile-money/${o.reference}/${a.do}`);
              break;
            case 'pay': {
              if (o?.type !== 'offramp') break;
              const view = (await act(env, 'GET', `/_mock/ramp/orders/${o.id}`)).body;
              const amount = a.exact ? String(view.crypto_amount) : (view.crypto_amount / 2).toFixed(2);
              await act(env, 'POST', '/_mock/stellar/payments', { body: { from: WALLET, to: view.deposit.stellar_address, amount, asset_code: 'USDC', memo: view.deposit.memo } });
              break;
            }
            case 'failSend':
              if (o) await act(env, 'POST', `/_mock/ramp/orders/${o.id}/send/fail`);
              break;
            case 'failPayout':
              if (o) await act(env, 'POST', `/_mock/payouts/${o.reference}/fail`);
              break;
            case 'failOrder':
              if (o) await act(env, 'POST', `/_mock/ramp/orders/${o.id}/fail`);
              break;
            case 'advance':
              await act(env, 'POST', '/_mock/clock/advance', { body: { seconds: a.seconds } });
              break;
            case 'endpoint':
              b.hooks.behaviour = a.behaviour;
              break;
          }
          await check();
        }
        await expectNothingLost(b, secrets);
        await check();
        coverage.see(walks, await deliveries(b));
      }),
      coverage,
    );
    expect([...coverage.statuses], tried).toEqual(expect.arrayContaining([...coverage.wanted]));
    expect(coverage.retried, tried).toBeGreaterThan(0);
  }, 90_000);
});

describe('checkout payments: any interleaving keeps the money straight', () => {
  let b: Base;
  let key: string;
  /** Endpoint A misbehaves on demand; B always answers 200. */
  let steady: HookEndpoint;
  const secrets: Record<string, string> = {};
  beforeAll(async () => {
    steady = await startHookEndpoint();
    b = await base(43, async ({ env, hooks }) => {
      key = (await call(env, 'POST', '/_mock/checkout/keys', { body: {} })).body.key;
      for (const url of [hooks.url, steady.url]) {
        const res = await call(env, 'POST', '/api/v1/developer/webhooks', { headers: { authorization: `Bearer ${key}` }, body: { url } });
        secrets[url] = res.body.data.secret;
      }
    });
  }, 30_000);
  afterAll(async () => {
    await b.env.close();
    await b.hooks.close();
    await steady.close();
  });

  const action = fc.oneof(
    { weight: 4, arbitrary: fc.record({ do: fc.constant('create' as const), key: fc.constantFrom(undefined, 'k1', 'k2', 'k3'), variant: fc.constantFrom(0, 0, 0, 1) }) },
    { weight: 3, arbitrary: fc.record({ do: fc.constant('settle' as const), i: fc.nat(), status: fc.constantFrom('completed', 'success', 'failed', 'cancelled') }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('page' as const), i: fc.nat(), outcome: fc.constantFrom('succeed', 'fail', 'cancel') }) },
    { weight: 4, arbitrary: fc.record({ do: fc.constant('verify' as const), i: fc.nat(), byReference: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ do: fc.constant('retry' as const), i: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ do: fc.constant('fault' as const), status: fc.constantFrom(502, 429), count: fc.integer({ min: 1, max: 2 }) }) },
    { weight: 2, arbitrary: advance([1, 60, 600, 1_900]) },
    { weight: 2, arbitrary: behaviour },
  );

  it('makes one payment per idempotency key, one event per payment and status, byte-identical on every delivery', async () => {
    const coverage = new Coverage(['completed', 'failed']);
    const tried = await assertCovering(
      fc.asyncProperty(start, fc.array(action, { minLength: 4, maxLength: 30 }), async (first, actions) => {
        await fresh(b, first);
        steady.hits.length = 0;
        const { env } = b;
        const auth = { authorization: `Bearer ${key}` };
        const payments: { session_id: string; reference: string; amount: number }[] = [];
        const byKey = new Map<string, string>();
        /** The status each payment was last verified with: what the service's records must say. */
        const synced = new Map<string, string>();
        /** Every (payment, status) verified: exactly the events there must be. */
        const syncedPairs = new Set<string>();
        const walks = new Walks(() => checkoutSession);
        const pick = (i: number) => (payments.length === 0 ? undefined : payments[i % payments.length]);

        const check = async () => {
          const store = env.backend.store.checkout;
          for (const p of payments) walks.observe(p.session_id, store.sessions.get(p.session_id)!.status);
          expect(store.transactions.size, 'payments created').toBe(payments.length);
          const events = [...store.events.values()];
          const pairs = events.map((e) => `${store.transactions.get(e.transaction_id)!.session_id} ${e.status}`);
          expect(new Set(pairs).size, 'two events for one payment and status').toBe(pairs.length);
          expect(new Set(pairs)).toEqual(syncedPairs);
          // The service's history says what the last verification found, and its paid total adds up.
          const history = (await act(env, 'GET', '/api/v1/developer/transactions?limit=100', { headers: auth })).body.data;
          let paid = 0;
          for (const t of history) {
            expect(t.status, t.session_id).toBe(synced.get(t.session_id) ?? 'pending');
            if (t.status === 'completed' || t.status === 'success') paid += t.final_amount;
          }
          expect(paid).toBe(payments.filter((p) => ['completed', 'success'].includes(synced.get(p.session_id) ?? '')).reduce((s, p) => s + p.amount, 0));
          // Each event id carries one body, the event's, on every delivery to every endpoint, signed with that endpoint's secret.
          const bodyOf = new Map(events.map((e) => [e.id, JSON.stringify(e.payload)]));
          for (const d of (await deliveries(b)).filter((x) => x.kind === 'checkout')) expect(d.body).toBe(bodyOf.get(d.event_id));
          for (const [endpoint, hits] of [[b.hooks, b.hooks.hits], [steady, steady.hits]] as const) {
            for (const hit of hits) {
              const id = String(hit.headers['x-svc-event-id']);
              expect(hit.body, `event ${id}`).toBe(bodyOf.get(id));
              expect(hit.headers['x-svc-event-type']).toBe(JSON.parse(hit.body).type);
              expect(checkoutSignatureValid(hit, secrets[endpoint.url]!)).toBe(true);
            }
          }
          // The endpoint that never fails has every event.
          for (const id of bodyOf.keys()) expect(steady.hits.some((h) => h.headers['x-svc-event-id'] === id), `event ${id} never reached the steady endpoint`).toBe(true);
        };

        for (const a of actions) {
          const p = 'i' in a ? pick(a.i) : undefined;
          switch (a.do) {
            case 'create': {
              const amount = 1_000 * (a.key ? 1 + ['k1', 'k2', 'k3'].indexOf(a.key) : 5) + a.variant;
              const body = { type: 'checkout', amount, currency: 'GHS', recipient: { name: 'Ama', email: 'ama@example.com' }, redirect_url: 'https://shop.example/done' };
              const res = await act(env, 'POST', '/api/v1/developer/payments', { headers: { ...auth, ...(a.key ? { 'idempotency-key': a.key } : {}) }, body });
              expect([200, 201, 409, 502]).toContain(res.status);
              if (res.status === 201) payments.push({ session_id: res.body.data.session_id, reference: res.body.data.reference, amount });
              if (a.key && (res.status === 200 || res.status === 201)) {
                // A key names one payment for its whole life.
                expect(byKey.get(a.key) ?? res.body.data.reference).toBe(res.body.data.reference);
                byKey.set(a.key, res.body.data.reference);
              }
              break;
            }
            case 'settle':
              if (p) await act(env, 'POST', `/_mock/checkout/${p.reference}/complete`, { body: { status: a.status } });
              break;
            case 'page':
              if (p) {
                // The page answers with a redirect to the merchant's site, which is not followed here.
                const res = await send(`${env.origin}/gateway/checkout/${p.session_id}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `outcome=${a.outcome}` });
                expect([303, 404, 409]).toContain(res.status);
                await env.backend.clock.idle();
              }
              break;
            case 'verify': {
              if (!p) break;
              const res = await act(env, 'GET', `/api/v1/developer/payments/${a.byReference ? p.reference : p.session_id}`);
              expect([200, 404, 502]).toContain(res.status);
              if (res.status === 200) {
                synced.set(p.session_id, res.body.data.status);
                if (res.body.data.status !== 'pending') syncedPairs.add(`${p.session_id} ${res.body.data.status}`);
              }
              break;
            }
            case 'retry': {
              const events = [...env.backend.store.checkout.events.keys()];
              if (events.length > 0) expect((await act(env, 'POST', `/api/v1/developer/webhooks/events/${events[a.i % events.length]}/retry`, { headers: auth })).status).toBe(200);
              break;
            }
            case 'fault':
              await act(env, 'POST', '/_mock/checkout/gateway/faults', { body: { status: a.status, count: a.count } });
              break;
            case 'advance':
              await act(env, 'POST', '/_mock/clock/advance', { body: { seconds: a.seconds } });
              break;
            case 'endpoint':
              b.hooks.behaviour = a.behaviour;
              break;
          }
          await check();
        }
        // Nothing lost: once the endpoint answers, one retry of each event reaches it.
        b.hooks.behaviour = 200;
        for (const id of env.backend.store.checkout.events.keys()) {
          expect((await act(env, 'POST', `/api/v1/developer/webhooks/events/${id}/retry`, { headers: auth })).status).toBe(200);
          expect(b.hooks.hits.some((h) => h.headers['x-svc-event-id'] === id), `event ${id} lost`).toBe(true);
        }
        await check();
        coverage.see(walks, await deliveries(b));
      }),
      coverage,
    );
    expect([...coverage.statuses], tried).toEqual(expect.arrayContaining([...coverage.wanted]));
    expect(coverage.retried, tried).toBeGreaterThan(0);
  }, 90_000);
});

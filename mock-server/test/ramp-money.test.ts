/**
 * Money is never lost or doubled. Whatever happens to ramp orders and in whatever order (the
 * user pays on time, late, short or twice; the merchant confirms or cancels; USDC sends and
 * payouts fail; an unrecoverable error strikes; the rate lock runs out), for every order
 *
 *   money in == money delivered + money refunded + money in flight
 *
 * and money is in flight only while the order is still moving or a refund is on its way.
 * A model-based property test (fast-check) over the public ramp API and the `/_mock/` control
 * calls: the model is what the user paid, the rails (`GET /_mock/ramp/orders/{id}`) say where
 * the money went, and the order's `refunds` must account for every refund.
 */
import { Keypair } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { advance, createOrder, getOrder, newPhone, orderBody, rampMerchant, verifyPhone, type RampMerchant } from './ramp-setup.js';

const TERMINAL = ['completed', 'failed', 'expired', 'cancelled', 'fiat_refunded', 'crypto_refunded'];
const MAX_ORDERS = 3;

// Amounts in the money that comes in, in smallest units: pesewas (on-ramp), stroops (off-ramp).
const pesewas = (amount: number | string) => Math.round(Number(amount) * 100);
const stroops = (amount: number | string) => Math.round(Number(amount) * 1e7);

interface ModelOrder {
  id: string;
  reference: string;
  type: 'onramp' | 'offramp';
  fiat_amount: number;
  crypto_amount: number;
  deposit: { stellar_address: string; memo: string } | null;
  /** What the user has paid into the order so far, smallest units. */
  paidIn: number;
}

interface Model {
  orders: ModelOrder[];
}

/** The system under test: one merchant and one verified user per run. */
interface World {
  env: MockEnv;
  m: RampMerchant;
  phone: string;
  /** The user's wallet, and someone else's. */
  wallets: { user: string; stranger: string };
}

type Step = fc.AsyncCommand<Model, World>;

/** A step that acts, then checks the money of every order. */
function step(name: string, check: (model: Model) => boolean, act: (model: Model, world: World) => Promise<void>): Step {
  return {
    check,
    run: async (model, world) => {
      await act(model, world);
      for (const order of model.orders) await expectMoneyKept(world, order);
    },
    toString: () => name,
  };
}

/** Where the order's money is, read from the rails through control. */
async function moneyOf(world: World, order: ModelOrder) {
  const res = await call(world.env, 'GET', `/_mock/ramp/orders/${order.id}`);
  expect(res.status).toBe(200);
  const view = res.body;
  const { collections, payouts, stellar_payments } = view.rails as Record<string, any[]>;
  const unit = order.type === 'onramp' ? pesewas : stroops;
  const total = (records: any[]) => records.reduce((sum, r) => sum + unit(r.amount), 0);
  const outbound = stellar_payments!.filter((p) => p.direction === 'outbound');
  // On-ramp: cedis in by prompt, USDC out to the destination, refunds by payout.
  // Off-ramp: USDC in with the memo, cedis out by payout, refunds in USDC to the sender.
  const [received, deliveries, refunds] =
    order.type === 'onramp'
      ? [collections!.filter((c) => c.status === 'approved'), outbound.filter((p) => p.status === 'confirmed'), payouts!.filter((p) => p.status === 'succeeded')]
      : [stellar_payments!.filter((p) => p.direction === 'inbound'), payouts!.filter((p) => p.status === 'succeeded'), outbound.filter((p) => p.status === 'confirmed')];
  for (const d of deliveries) {
    if (order.type === 'onramp') expect(d).toMatchObject({ to: view.destination_wallet, amount: String(order.crypto_amount) });
    else expect(d.amount).toBe(order.fiat_amount);
  }
  const listed = (status: string) => total(view.refunds.filter((r: any) => r.status === status));
  const moneyIn = total(received);
  const delivered = deliveries.length * (order.type === 'onramp' ? pesewas(order.fiat_amount) : stroops(order.crypto_amount));
  const refunded = total(refunds);
  return {
    view,
    moneyIn,
    deliveries: deliveries.length,
    refunded,
    inFlight: moneyIn - delivered - refunded,
    refundsListed: { completed: listed('completed'), pending: listed('pending') },
  };
}

async function expectMoneyKept(world: World, order: ModelOrder) {
  const money = await moneyOf(world, order);
  const { view } = money;
  const about = `${order.type} ${view.status}: ${JSON.stringify({ ...money, view: { status: view.status, refunds: view.refunds } })}`;
  expect(money.moneyIn, about).toBe(order.paidIn);
  expect(money.deliveries, about).toBe(view.status === 'completed' ? 1 : 0);
  expect(money.refunded, about).toBe(money.refundsListed.completed);
  expect(money.inFlight, about).toBeGreaterThanOrEqual(money.refundsListed.pending);
  // An order that has ended holds no money but the refunds on their way.
  if (TERMINAL.includes(view.status)) expect(money.inFlight, about).toBe(money.refundsListed.pending);
}

/** The `i`th order (modulo), among those of `type` if given: every step finds an order to act on. */
const pick = (model: Model, i: number, type?: ModelOrder['type']) => {
  const candidates = model.orders.filter((o) => !type || o.type === type);
  return candidates[i % Math.max(candidates.length, 1)];
};
const has = (type?: ModelOrder['type']) => (model: Model) => pick(model, 0, type) !== undefined;
const control = (world: World, path: string, body?: unknown) => call(world.env, 'POST', `/_mock${path}`, { body });
const expectStatus = (res: { status: number; body: any }, allowed: number[], what: string) =>
  expect(allowed, `${what}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
const index = fc.nat({ max: MAX_ORDERS - 1 });

const OrderSpec = fc.record({ type: fc.constantFrom<ModelOrder['type']>('onramp', 'offramp'), fiat_amount: fc.constantFrom(20, 55.5, 100, 750) });

async function addOrder(model: Model, world: World, { type, fiat_amount }: { type: ModelOrder['type']; fiat_amount: number }) {
  const res = await createOrder(world.env, world.m, orderBody({ type, fiat_amount, phone: world.phone }));
  expectStatus(res, [201], 'create');
  const { id, reference, crypto_amount, deposit } = res.body.data;
  model.orders.push({ id, reference, type, fiat_amount, crypto_amount, deposit: deposit ?? null, paidIn: 0 });
}

const create = OrderSpec.map((spec) =>
  step(`the merchant creates a ${spec.type} order of ${spec.fiat_amount} GHS`, (model) => model.orders.length < MAX_ORDERS, (model, world) => addOrder(model, world, spec)),
);

const approve = index.map((i) =>
  step(`the user approves the prompt of on-ramp #${i}`, has('onramp'), async (model, world) => {
    const order = pick(model, i, 'onramp')!;
    const res = await control(world, `/mobile-money/${order.id}/approve`);
    expectStatus(res, [200, 404, 409], 'approve');
    // 404 only for an order that ended in quote_locked, before the service sent any prompt.
    if (res.status === 404) expect((await call(world.env, 'GET', `/_mock/ramp/orders/${order.id}`)).body.rails.collections).toEqual([]);
    if (res.status === 200) order.paidIn += pesewas(order.fiat_amount);
  }),
);

const decline = index.map((i) =>
  step(`the user declines the prompt of on-ramp #${i}`, has('onramp'), async (model, world) => {
    expectStatus(await control(world, `/mobile-money/${pick(model, i, 'onramp')!.id}/decline`), [200, 404, 409], 'decline');
  }),
);

async function payDeposit(world: World, order: ModelOrder, from: keyof World['wallets'], amount: string) {
  const res = await control(world, '/stellar/payments', {
    from: world.wallets[from],
    to: order.deposit!.stellar_address,
    amount,
    asset_code: 'USDC',
    memo: order.deposit!.memo,
  });
  expectStatus(res, [201], 'pay');
  // Every USDC with the order's memo is the order's: taken as its payment, or sent back.
  expect(res.body.matched).toEqual({ kind: 'ramp_order', id: order.id });
  order.paidIn += stroops(amount);
}

async function confirmFrom(world: World, order: ModelOrder, from: keyof World['wallets']) {
  const res = await call(world.env, 'POST', `/api/v1/ramp/orders/${order.reference}/confirm`, {
    headers: world.m.auth,
    body: { source_wallet: world.wallets[from] },
  });
  expectStatus(res, [200, 409, 422], 'confirm');
}

const wallet = fc.constantFrom<keyof World['wallets']>('user', 'user', 'stranger');

// Mostly the whole amount from the user's wallet; sometimes half of it, or from someone else's.
const pay = fc.record({ i: index, from: wallet, half: fc.constantFrom(false, false, true) }).map(({ i, from, half }) =>
  step(`the ${from} pays ${half ? 'half' : 'all'} of off-ramp #${i}`, has('offramp'), async (model, world) => {
    const order = pick(model, i, 'offramp')!;
    await payDeposit(world, order, from, half ? (order.crypto_amount / 2).toFixed(7) : String(order.crypto_amount));
  }),
);

const confirm = fc.record({ i: index, from: wallet }).map(({ i, from }) =>
  step(`the merchant confirms off-ramp #${i} from the ${from}`, has('offramp'), (model, world) => confirmFrom(world, pick(model, i, 'offramp')!, from)),
);

// The documented off-ramp flow in one step: the user sends the USDC, the merchant confirms.
const payAndConfirm = index.map((i) =>
  step(`the user pays off-ramp #${i} and the merchant confirms`, has('offramp'), async (model, world) => {
    const order = pick(model, i, 'offramp')!;
    await payDeposit(world, order, 'user', String(order.crypto_amount));
    await confirmFrom(world, order, 'user');
  }),
);

const cancel = index.map((i) =>
  step(`the merchant cancels #${i}`, has(), async (model, world) => {
    const res = await call(world.env, 'POST', `/api/v1/ramp/orders/${pick(model, i)!.reference}/cancel`, { headers: world.m.auth });
    expectStatus(res, [200, 409], 'cancel');
  }),
);

/**
 * The `i`th order (modulo) whose control view matches `underWay`, else the `i`th order: faults
 * strike what is in progress, so that a short run reaches the states where they matter.
 */
async function struck(model: Model, world: World, i: number, underWay: (view: any) => boolean, type?: ModelOrder['type']) {
  const live: ModelOrder[] = [];
  for (const order of model.orders) {
    if (type && order.type !== type) continue;
    if (underWay((await call(world.env, 'GET', `/_mock/ramp/orders/${order.id}`)).body)) live.push(order);
  }
  return live.length > 0 ? live[i % live.length]! : pick(model, i, type)!;
}

const failSend = index.map((i) =>
  step(`the USDC send of an on-ramp order fails (#${i})`, has('onramp'), async (model, world) => {
    const order = await struck(model, world, i, (v) => v.status === 'crypto_sending', 'onramp');
    expectStatus(await control(world, `/ramp/orders/${order.id}/send/fail`), [200, 409], 'send/fail');
  }),
);

const failPayout = index.map((i) =>
  step(`a pending payout fails (#${i})`, has(), async (model, world) => {
    const order = await struck(model, world, i, (v) => v.rails.payouts.some((p: any) => p.status === 'pending'));
    expectStatus(await control(world, `/payouts/${order.id}/fail`, { reason: 'provider down' }), [200, 404, 409], 'payouts/fail');
  }),
);

const failOrder = index.map((i) =>
  step(`an unrecoverable error strikes an order (#${i})`, has(), async (model, world) => {
    const order = await struck(model, world, i, (v) => ['crypto_sending', 'fiat_sending', 'fiat_retry'].includes(v.status));
    expectStatus(await control(world, `/ramp/orders/${order.id}/fail`, { reason: 'unrecoverable' }), [200, 409], 'fail');
  }),
);

// Short steps land between the system's own moves (2 s hand-offs, 5 s sends and payouts);
// long ones reach retries (30 s), prompt time-outs (120 s) and the rate lock (300 s).
const wait = fc.constantFrom(1, 2, 2, 3, 5, 30, 130, 300).map((seconds) =>
  step(`${seconds} s pass`, () => true, (_model, world) => advance(world.env, seconds)),
);

// fc.commands picks among these evenly: an arbitrary listed twice comes up twice as often.
const steps = [create, approve, approve, decline, pay, confirm, payAndConfirm, payAndConfirm, cancel, failSend, failSend, failPayout, failPayout, failOrder, failOrder, wait, wait, wait, wait];

describe.each(MODES)('ramp money is never lost, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 61 });
  });
  afterAll(() => env.close());

  it(
    'for any sequence of payments, confirms, cancels, failures and clock time: money in == delivered + refunded, and nothing is left held',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(OrderSpec, { minLength: 1, maxLength: MAX_ORDERS }), fc.commands(steps, { maxCommands: 20, size: 'max' }), async (orders, commands) => {
          const m = await rampMerchant(env);
          const phone = newPhone();
          await verifyPhone(env, m, phone);
          const world: World = { env, m, phone, wallets: { user: Keypair.random().publicKey(), stranger: Keypair.random().publicKey() } };
          const model: Model = { orders: [] };
          for (const spec of orders) await addOrder(model, world, spec);
          await fc.asyncModelRun(() => ({ model, real: world }), commands);

          // Left alone long enough, every order settles: all refunds land, and money stays
          // only with an off-ramp order whose USDC came in and waits for the merchant's confirm.
          await advance(env, 600);
          await advance(env, 600);
          for (const order of model.orders) {
            const money = await moneyOf(world, order);
            const { view } = money;
            const about = `${order.type} ${view.status}: ${JSON.stringify(view.refunds)}`;
            expect(view.refunds.every((r: any) => r.status === 'completed'), about).toBe(true);
            if (view.status === 'crypto_pending') expect(money.inFlight, about).toBe(stroops(order.crypto_amount));
            else {
              expect(TERMINAL, about).toContain(view.status);
              expect(money.inFlight, about).toBe(0);
            }
            // The merchant sees the same refunds on lookup.
            const looked = await getOrder(env, m, order.reference);
            expect(looked.status).toBe(view.status);
            expect(looked.refunds).toEqual(view.refunds.map(({ rail_id: _rail, ...refund }: any) => refund));
          }
        }),
        { numRuns: 50 },
      );
    },
    180_000,
  );
});

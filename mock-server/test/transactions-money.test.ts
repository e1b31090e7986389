/**
 * The USDC of sells under any sequence of control actions (fast-check): finishing forms,
 * USDC of the right or a wrong amount, failed payouts, the clock. For every withdrawal, once
 * everything has settled, each USDC payment it received either went into its one completed
 * payout or went back to the wallet it came from, never both and never neither; and no
 * transaction completes twice.
 */
import { Keypair } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { createShop, PHONE, startWithdraw, type Shop } from './helpers/interactive.js';
import { startReceiver, type Receiver } from './helpers/receiver.js';

const WALLETS = [1, 2].map((n) => Keypair.fromRawEd25519Seed(Buffer.alloc(32, n)).publicKey());
const FINAL = ['completed', 'expired', 'error'];
/** Stellar's smallest unit, so that sums are exact. */
const stroops = (amount: string | number) => Math.round(Number(amount) * 1e7);
const sum = (amounts: string[]) => amounts.reduce((total, a) => total + stroops(a), 0);

// Weighted so that runs often get as far as payouts and their retries before a long wait
// expires them; a payout that fails is often followed by the wait until its retry (30 s).
const action = fc.oneof(
  { weight: 8, arbitrary: fc.record({ do: fc.constant('form' as const), i: fc.nat() }) },
  {
    weight: 8,
    arbitrary: fc.record({ do: fc.constant('usdc' as const), i: fc.nat(), off: fc.constantFrom(0, 0, 0, -0.5, 0.01, 1), wallet: fc.constantFrom(...WALLETS) }),
  },
  { weight: 12, arbitrary: fc.record({ do: fc.constant('failPayout' as const), i: fc.nat(), wait: fc.constantFrom(0, 30, 30, 31) }) },
  { weight: 6, arbitrary: fc.record({ do: fc.constant('advance' as const), seconds: fc.constantFrom(1, 2, 2, 5, 30) }) },
  { weight: 1, arbitrary: fc.record({ do: fc.constant('advance' as const), seconds: fc.constant(1_800) }) },
);

describe.each(MODES)('the USDC of sells under random control actions, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Shop;
  let receiver: Receiver;

  beforeAll(async () => {
    env = await start({ seed: 71 });
    receiver = await startReceiver();
    shop = await createShop(env);
    const login = await call(env, 'POST', '/api/v1/merchant/login', { body: { email: shop.merchant.email, password: 'correct horse battery' } });
    const hook = await call(env, 'PUT', '/api/v1/merchant/webhook', {
      headers: { authorization: `Bearer ${login.body.data.access_token}` },
      body: { url: receiver.url },
    });
    expect(hook.status).toBe(200);
  });
  afterAll(async () => {
    await env.close();
    await receiver.close();
  });

  const view = async (id: string) => (await call(env, 'GET', `/_mock/transactions/${id}`)).body.transaction;
  const ledger = (id: string) => [...env.backend.store.stellar.payments.values()].filter((p) => p.matched?.kind === 'transaction' && p.matched.id === id);
  const payouts = (id: string) => [...env.backend.store.mobileMoney.payouts.values()].filter((p) => p.owner.id === id);

  /**
   * The money of one withdrawal adds up. While it runs, what went back or into a completed
   * payout never exceeds what came in; once `settled`, every payment in is accounted for once.
   */
  async function checkMoney(id: string, settled: boolean) {
    const tx = await view(id);
    const record = env.backend.store.anchor.transactions.get(id)!;
    const inbound = ledger(id).filter((p) => p.direction === 'inbound');
    const outbound = ledger(id).filter((p) => p.direction === 'outbound');
    // A withdrawal sends USDC only to refund it, each to the wallet of the payment it returns.
    expect(tx.refunds?.payments.map((p: { id: string }) => p.id) ?? []).toEqual(outbound.map((p) => p.hash));
    for (const refund of record.refunds) {
      const back = outbound.find((p) => p.hash === refund.stellar_transaction_id)!;
      const paid = inbound.find((p) => p.hash === refund.refunded_payment)!;
      expect(back).toMatchObject({ to: paid.from, amount: paid.amount });
    }
    const refunded = record.refunds.map((r) => r.refunded_payment);
    expect(new Set(refunded).size, 'a payment refunded twice').toBe(refunded.length);
    const succeeded = payouts(id).filter((p) => p.status === 'succeeded');
    expect(succeeded.length, 'paid out twice').toBeLessThanOrEqual(1);
    const converted = tx.status === 'completed' ? [tx.stellar_transaction_id as string] : [];
    expect(succeeded.length).toBe(converted.length);
    expect(refunded.filter((hash) => converted.includes(hash)), 'refunded and paid out').toEqual([]);

    const amountIn = sum(inbound.map((p) => p.amount));
    const accounted = sum(inbound.filter((p) => refunded.includes(p.hash) || converted.includes(p.hash)).map((p) => p.amount));
    expect(accounted).toBeLessThanOrEqual(amountIn);
    if (!settled) return tx;
    expect(FINAL).toContain(tx.status);
    expect(accounted, `${id} (${tx.status}): USDC in is not USDC refunded + USDC paid out`).toBe(amountIn);
    if (converted.length) expect(stroops(tx.amount_in)).toBe(sum(inbound.filter((p) => converted.includes(p.hash)).map((p) => p.amount)));
    expect(outbound.every((p) => p.status === 'confirmed')).toBe(true);
    expect(tx.refunded).toBe(tx.status !== 'completed' && refunded.length > 0);
    if (tx.status === 'error') expect(payouts(id).map((p) => p.status)).toEqual(['failed', 'failed', 'failed']);
    return tx;
  }

  it('refunds every USDC payment a sell does not pay out, once, and completes a sell at most once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 2, max: 20 }), { minLength: 1, maxLength: 2 }),
        fc.array(action, { minLength: 6, maxLength: 24 }),
        async (amounts, actions) => {
          const volumeBefore = env.backend.store.merchants.get(shop.merchant.id)!.current_month_volume;
          const ids: string[] = [];
          for (const onchain_amount of amounts) ids.push((await startWithdraw(env, shop, { onchain_amount })).id);
          const completedAt = new Map<string, string>();
          const observe = async (id: string) => {
            const tx = await checkMoney(id, false);
            if (tx.status === 'completed') {
              // Completion happens once: once completed, the time it completed never moves.
              expect(completedAt.get(id) ?? tx.completed_at).toBe(tx.completed_at);
              completedAt.set(id, tx.completed_at);
            } else expect(completedAt.has(id), `${id} left completed for ${tx.status}`).toBe(false);
          };

          for (const a of actions) {
            const id = 'i' in a ? ids[a.i % ids.length]! : undefined;
            if (a.do === 'form') {
              const res = await call(env, 'POST', `/_mock/transactions/${id}/complete-interactive`, { body: { provider: 'mtn', phone: PHONE } });
              expect([200, 409]).toContain(res.status);
            } else if (a.do === 'usdc') {
              const tx = await view(id!);
              if (!tx.withdraw_memo) continue;
              const amount = (Number(tx.amount_in) + a.off).toFixed(2);
              const res = await call(env, 'POST', '/_mock/stellar/payments', {
                body: { from: a.wallet, to: tx.withdraw_anchor_account, amount, asset_code: 'USDC', memo: tx.withdraw_memo },
              });
              expect(res.status).toBe(201);
              // USDC with a sell's memo is always the sell's: taken or sent back, never kept unmatched.
              expect(res.body.matched).toEqual({ kind: 'transaction', id });
            } else if (a.do === 'failPayout') {
              const res = await call(env, 'POST', `/_mock/payouts/${id}/fail`, { body: { reason: 'wallet closed' } });
              expect([200, 404, 409]).toContain(res.status);
              if (res.status === 200 && a.wait) await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: a.wait } });
            } else {
              expect((await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: a.seconds } })).status).toBe(200);
            }
            for (const each of ids) await observe(each);
          }

          // Long enough for anything left to expire, retry, pay out or refund.
          await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 2 * 3600 } });
          let completedGhs = 0;
          const deliveries = (await call(env, 'GET', `/_mock/webhooks?merchant_id=${shop.merchant.id}`)).body.data as { event: string; body: string }[];
          for (const id of ids) {
            await observe(id);
            const tx = await checkMoney(id, true);
            if (tx.status === 'completed') completedGhs += stroops(tx.amount_out);
            // A form never finished has no order; any other sell ends with one final order event.
            const orderId = env.backend.store.anchor.transactions.get(id)!.order_id;
            const events = deliveries.filter((d) => orderId && JSON.parse(d.body).order_id === orderId).map((d) => d.event);
            const expected = { completed: 'order.completed', error: 'order.failed', expired: 'order.expired' }[tx.status as 'completed'];
            expect(events).toEqual(orderId ? [expected] : []);
          }
          const volumeAfter = env.backend.store.merchants.get(shop.merchant.id)!.current_month_volume;
          expect(stroops(volumeAfter) - stroops(volumeBefore), 'volume counts each completed sell once').toBe(completedGhs);
        },
      ),
      { numRuns: 25 },
    );
  });
});

/**
 * Each record's history of state changes, with the clock time of each, as the dashboard's
 * snapshot (`GET /_mock/snapshot`, `control.dashboard.snapshot()`) shows it: ramp orders,
 * interactive transactions, checkout sessions, customers, phone KYC and merchants. In-process
 * and over real HTTP, through the control client; nothing of a secret is in the snapshot.
 * Also the page itself at `/_mock/` in both modes, with a CSP that pins its own style and script.
 */
import { createHash } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient, type ControlClient } from '../src/client.js';
import { auth, createPayment } from './helpers/checkout.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { signIn } from './helpers/interactive.js';
import { registerMerchant } from './helpers/merchant.js';
import { newKey, orderBody, sellUntilPayout } from './ramp-setup.js';

const START = Date.parse('2026-03-02T10:00:00.000Z');
const at = (seconds: number) => new Date(START + seconds * 1000).toISOString();
const steps = (history: { from: string | null; to: string; event: string; at: string }[]) => history.map((h) => [h.event, h.to, h.at]);

describe.each(MODES)('the dashboard: record histories in its snapshot, and its page, mock %s', (_mode, start) => {
  let env: MockEnv;
  let control: ControlClient;
  let elapsed = 0;
  const advance = async (seconds: number) => {
    elapsed += seconds;
    await control.clock.advance(seconds);
  };
  beforeAll(async () => {
    env = await start({ clockStart: START });
    control = createControlClient({ baseUrl: env.origin });
  });
  afterAll(() => env.close());

  it("shows a ramp order's every status with the clock time it moved, from its creation to completed", async () => {
    const merchant = await control.fixtures.merchant();
    const phone = await control.fixtures.verifiedPhone(merchant);
    const t0 = elapsed;
    const created = await call(env, 'POST', '/api/v1/ramp/orders', {
      body: orderBody({ phone: phone.phone }),
      headers: { authorization: `Bearer ${merchant.secret_key}`, 'x-idempotency-key': newKey() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await advance(2);
    await advance(10);
    await control.rails.approvePrompt(created.body.data.id);
    await advance(60);

    const order = (await control.dashboard.snapshot()).ramp_orders.find((o) => o.id === created.body.data.id)!;
    expect(order.status).toBe('completed');
    expect(order.history[0]).toEqual({ field: 'status', from: null, to: 'quote_locked', event: 'created', at: created.body.data.created_at ?? at(t0) });
    expect(steps(order.history).slice(1, 3)).toEqual([
      ['collect', 'fiat_pending', at(t0 + 2)],
      ['fiat_collected', 'fiat_confirmed', at(t0 + 12)],
    ]);
    expect(order.history.map((h) => h.to)).toEqual(['quote_locked', 'fiat_pending', 'fiat_confirmed', 'crypto_sending', 'completed']);
    const times = order.history.map((h) => Date.parse(h.at));
    expect(times).toEqual(times.toSorted((a, b) => a - b));
  });

  it("shows an interactive deposit from incomplete to expired when its prompt is let time out (rails.timeOutPrompt)", async () => {
    const token = await signIn(env, Keypair.random());
    const started = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: { authorization: `Bearer ${token}` },
      body: { asset_code: 'USDC', amount: '50' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const t0 = elapsed;
    await advance(30);
    await control.anchor.completeInteractive(started.body.id, { provider: 'mtn', phone: '+233201112233', amount: 50 });
    await advance(15);
    const prompt = await control.rails.timeOutPrompt(started.body.id);
    expect(prompt.status).toBe('timed_out');
    await expect(control.rails.timeOutPrompt(prompt.id)).rejects.toMatchObject({ status: 409, code: 'INVALID_STATE' });

    const snap = await control.dashboard.snapshot();
    const tx = snap.transactions.find((t) => t.id === started.body.id)!;
    expect(tx).toMatchObject({ kind: 'deposit', status: 'expired', amount: 50, currency: 'GHS', phone: '+233201112233' });
    expect(steps(tx.history)).toEqual([
      ['created', 'incomplete', at(t0)],
      ['complete_form', 'pending_user_transfer_start', at(t0 + 30)],
      ['prompt_timed_out', 'expired', at(t0 + 45)],
    ]);
    const inbox = snap.phones.find((p) => p.number === '+233201112233')!;
    expect(inbox.prompts[0]).toMatchObject({ id: prompt.id, status: 'timed_out', amount: 50, owner: started.body.id, settled_at: at(t0 + 45) });
  });

  it("shows an off-ramp payout on the seller's phone, and the order's retry after the payout is failed", async () => {
    const { phone, order } = await sellUntilPayout(env, control, advance);

    const before = (await control.dashboard.snapshot()).phones.find((p) => p.number === phone)!;
    expect(before.payouts).toHaveLength(1);
    const payout = before.payouts[0]!;
    expect(payout).toMatchObject({ provider: 'mtn', amount: order.fiat_amount, status: 'pending', owner: order.reference, settled_at: null, failure_reason: null });
    await control.rails.failPayout(payout.id, 'wallet full');

    const snap = await control.dashboard.snapshot();
    expect(snap.phones.find((p) => p.number === phone)!.payouts.find((p) => p.id === payout.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'wallet full',
      settled_at: at(elapsed),
    });
    const history = snap.ramp_orders.find((o) => o.id === order.id)!.history;
    expect(history.slice(-2).map((h) => [h.event, h.to, h.at])).toEqual([
      ['payout', 'fiat_sending', at(elapsed)],
      ['payout_failed', 'fiat_retry', at(elapsed)],
    ]);
  });

  it('shows a checkout session paid, a customer reviewed and set by the operator, and a merchant approved', async () => {
    const checkout = await control.fixtures.checkout();
    const payment = await createPayment(env, checkout.key);
    const t0 = elapsed;
    await advance(20);
    await control.checkout.complete(payment.reference, 'completed');

    const merchant = await control.fixtures.merchant();
    const created = await call(env, 'POST', '/api/v1/widget/customer', {
      headers: { 'x-api-key': merchant.secret_key },
      body: { first_name: 'Kofi', last_name: 'Processing', email_address: 'kofi.processing@example.com' },
    });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const customerId: string = created.body.data.id;
    await advance(60);
    await control.customers.setStatus(customerId, 'REJECTED');

    const registered = await registerMerchant(env);
    await advance(5);
    await control.merchants.approveKyb(registered.id);

    const snap = await control.dashboard.snapshot();
    const session = snap.checkout_sessions.find((s) => s.reference === payment.reference)!;
    expect(steps(session.history)).toEqual([
      ['created', 'pending', at(t0)],
      ['complete', 'completed', at(t0 + 20)],
    ]);
    const customer = snap.customers.find((c) => c.id === customerId)!;
    expect(customer).toMatchObject({ name: 'Kofi Processing', status: 'REJECTED' });
    expect(steps(customer.history)).toEqual([
      ['created', 'PROCESSING', at(t0 + 20)],
      ['review_done', 'ACCEPTED', at(t0 + 80)],
      ['control', 'REJECTED', at(t0 + 80)],
    ]);
    const approved = snap.merchants.find((m) => m.id === registered.id)!;
    expect(approved).toMatchObject({ status: 'active', kyb_status: 'approved' });
    expect(approved.history.slice(1).map(({ field, from, to, at: when }) => [field, from, to, when])).toEqual([
      ['kyb', 'not_submitted', 'approved', at(t0 + 85)],
      ['status', 'pending', 'active', at(t0 + 85)],
    ]);
    const kyc = snap.phone_kyc[0]!;
    expect(steps(kyc.history).map(([event, to]) => [event, to])).toEqual([
      ['created', 'pending'],
      ['otp_verified', 'verified'],
    ]);
  });

  it('holds no secret the service handed out, only key prefixes; and answers 304 while nothing changed', async () => {
    const merchant = await control.fixtures.merchant({ webhook_url: 'http://127.0.0.1:9/hooks' });
    const checkout = await control.fixtures.checkout({ webhook_url: 'http://127.0.0.1:9/checkout' });
    const customer = await control.fixtures.customer(merchant);
    const session = await call(env, 'POST', '/api/v1/widget/session', { headers: { 'x-api-key': merchant.secret_key }, body: { user_id: customer.id } });
    expect(session.status, JSON.stringify(session.body)).toBeLessThan(300);
    const secrets = [
      merchant.secret_key,
      merchant.public_key,
      merchant.password,
      merchant.access_token,
      merchant.webhook!.secret,
      checkout.key,
      checkout.webhook!.secret,
      session.body.data.session_token,
    ];
    expect(secrets.every((s) => typeof s === 'string' && s.length >= 8)).toBe(true);

    const res = await fetch(`${env.origin}/_mock/snapshot`);
    const text = await res.text();
    for (const secret of secrets) expect(text).not.toContain(secret);
    const snap = JSON.parse(text);
    const keys = snap.keys.filter((k: { owner: string }) => k.owner === merchant.id || k.owner === checkout.organization_id);
    expect(keys).toHaveLength(3);
    for (const full of [merchant.secret_key, merchant.public_key, checkout.key]) {
      expect(keys.some((k: { prefix: string }) => full.startsWith(k.prefix) && k.prefix.length < 24)).toBe(true);
    }

    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await fetch(`${env.origin}/_mock/snapshot`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    await advance(1);
    const moved = await fetch(`${env.origin}/_mock/snapshot`, { headers: { 'if-none-match': etag } });
    expect(moved.status).toBe(200);
    expect((await moved.json()).clock.now).toBe(at(elapsed));
  });

  it('serves the dashboard at /_mock/ and /_mock, its CSP pinning exactly its own style and script', async () => {
    for (const path of ['/_mock/', '/_mock']) {
      const res = await fetch(`${env.origin}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const page = await res.text();
      const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
      const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;
      const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(scripts).toHaveLength(1);
      expect(res.headers.get('content-security-policy')).toBe(
        `default-src 'none'; style-src ${sha(style)}; script-src ${sha(scripts[0]!)}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      );
      const config = JSON.parse(/<script type="application\/json" id="dashboard-config">([\s\S]*?)<\/script>/.exec(page)![1]!);
      expect(config).toMatchObject({ control: `${env.origin}/_mock`, pollMs: 1000, snapshot: { clock: { now: at(elapsed), kind: 'manual' } } });
    }
  });
});

import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { anchorAccount } from '../src/transactions.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { advance, completeForm, createShop, startDeposit, startWithdraw, type Shop } from './helpers/interactive.js';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A real HTTP endpoint on 127.0.0.1 answering each request with the next status of `script` (then the last one). */
async function startReceiver() {
  const received: Received[] = [];
  let script: number[] = [200];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = script.length > 1 ? script.shift()! : script[0]!;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/sikaramp`,
    received,
    answer: (...statuses: number[]) => {
      script = statuses;
    },
    reset: () => {
      received.length = 0;
      script = [200];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Computed here, independently of the mock: lowercase hex HMAC-SHA256 of the raw body. */
const hmac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describe.each(MODES)('order webhooks, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Shop;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let accessToken: string;
  let secret: string;
  const wallet = Keypair.random().publicKey();

  beforeAll(async () => {
    env = await start({ seed: 51 });
    receiver = await startReceiver();
    shop = await createShop(env);
    const login = await call(env, 'POST', '/api/v1/merchant/login', {
      body: { email: shop.merchant.email, password: 'correct horse battery' },
    });
    accessToken = login.body.data.access_token;
    const hook = await call(env, 'PUT', '/api/v1/merchant/webhook', {
      headers: { authorization: `Bearer ${accessToken}` },
      body: { url: receiver.url },
    });
    expect(hook.status).toBe(200);
    secret = hook.body.data.secret;
  });
  afterEach(() => receiver.reset());
  afterAll(async () => {
    await env.close();
    await receiver.close();
  });

  const deliveries = async (event?: string) =>
    (await call(env, 'GET', `/_mock/webhooks?merchant_id=${shop.merchant.id}${event ? `&event=${event}` : ''}`)).body.data as {
      id: string;
      event: string;
      body: string;
      state: string;
      attempts: { at: string; status?: number }[];
      next_attempt_at: string | null;
    }[];

  const buy = async (fiat_amount: number) => {
    const { id } = await startDeposit(env, shop, { fiat_amount, destination_address: wallet });
    await completeForm(env, id);
    await call(env, 'POST', `/_mock/mobile-money/${id}/approve`);
    await advance(env, 10);
    return id;
  };

  it('posts order.completed for a buy with the documented body, signed with the webhook secret', async () => {
    const id = await buy(100);
    const [delivery] = (await deliveries('order.completed')).slice(-1);
    expect(delivery!.state).toBe('delivered');
    expect(receiver.received).toHaveLength(1);
    const { headers, body } = receiver.received[0]!;
    const order = [...env.backend.store.orders.values()].find((o) => o.transaction_id === id)!;
    expect(JSON.parse(body)).toEqual({
      event: 'order.completed',
      order_id: order.id,
      type: 'onramp',
      fiat_amount: '100.00',
      fiat_currency: 'GHS',
      crypto_amount: '6.31',
      crypto_currency: 'USDC',
      destination_address: wallet,
      // The event's time: the chain confirmed 7 s after the form (approval, 2 s to submit, 5 s to confirm).
      timestamp: delivery!.attempts[0]!.at,
    });
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-webhook-signature']).toBe(hmac(secret, body));
    expect(headers['x-webhook-timestamp']).toBe(String(Date.parse(delivery!.attempts[0]!.at) / 1000));
  });

  it('posts order.completed for a sell as offramp, to the anchor address', async () => {
    const { id } = await startWithdraw(env, shop, { onchain_amount: 10 });
    const tx = await completeForm(env, id);
    await call(env, 'POST', '/_mock/stellar/payments', {
      body: { from: wallet, to: tx.withdraw_anchor_account, amount: '10', asset_code: 'USDC', memo: tx.withdraw_memo },
    });
    await advance(env, 10);
    await deliveries();
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      event: 'order.completed',
      type: 'offramp',
      fiat_amount: '151.80',
      crypto_amount: '10.00',
      destination_address: anchorAccount(env.backend.context),
    });
  });

  it('posts order.failed for a declined prompt and order.expired for a sell whose USDC never came', async () => {
    const declined = await startDeposit(env, shop, { fiat_amount: 20, destination_address: wallet });
    await completeForm(env, declined.id);
    await call(env, 'POST', `/_mock/mobile-money/${declined.id}/decline`);
    const sell = await startWithdraw(env, shop, { onchain_amount: 2 });
    await completeForm(env, sell.id);
    await advance(env, 30 * 60);
    await deliveries();
    const bodies = receiver.received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => [b.event, b.type])).toEqual([
      ['order.failed', 'onramp'],
      ['order.expired', 'offramp'],
    ]);
    for (const r of receiver.received) expect(r.headers['x-webhook-signature']).toBe(hmac(secret, r.body));
  });

  it('posts order.expired for a buy whose Mobile Money prompt nobody answered: the payment window timed out', async () => {
    const ignored = await startDeposit(env, shop, { fiat_amount: 30, destination_address: wallet });
    await completeForm(env, ignored.id);
    await advance(env, 119);
    await deliveries();
    expect(receiver.received).toEqual([]);
    await advance(env, 1);
    await deliveries();
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(delivery!.headers['x-webhook-signature']).toBe(hmac(secret, delivery!.body));
    const order = [...env.backend.store.orders.values()].find((o) => o.transaction_id === ignored.id)!;
    expect(JSON.parse(delivery!.body)).toMatchObject({ event: 'order.expired', order_id: order.id, type: 'onramp', fiat_amount: '30.00', destination_address: wallet });
    expect(order.status).toBe('expired');
  });

  it('posts order.failed once for a sell whose payouts all failed, and nothing while it retries or refunds', async () => {
    const { id } = await startWithdraw(env, shop, { onchain_amount: 2 });
    const tx = await completeForm(env, id);
    await call(env, 'POST', '/_mock/stellar/payments', {
      body: { from: wallet, to: tx.withdraw_anchor_account, amount: '2', asset_code: 'USDC', memo: tx.withdraw_memo },
    });
    await advance(env, 2);
    for (const last of [false, false, true]) {
      expect((await call(env, 'POST', `/_mock/payouts/${id}/fail`)).status).toBe(200);
      await deliveries();
      expect(receiver.received).toHaveLength(last ? 1 : 0);
      if (!last) await advance(env, 30);
    }
    // The USDC going back and a late second transfer sent back too add no event.
    await call(env, 'POST', '/_mock/stellar/payments', {
      body: { from: wallet, to: tx.withdraw_anchor_account, amount: '2', asset_code: 'USDC', memo: tx.withdraw_memo },
    });
    await advance(env, 24 * 3600);
    await deliveries();
    expect(receiver.received).toHaveLength(1);
    const { headers, body } = receiver.received[0]!;
    const order = [...env.backend.store.orders.values()].find((o) => o.transaction_id === id)!;
    expect(JSON.parse(body)).toMatchObject({ event: 'order.failed', order_id: order.id, type: 'offramp', crypto_amount: '2.00' });
    expect(headers['x-webhook-signature']).toBe(hmac(secret, body));
  });

  it('sends nothing for a form nobody finished (no order was placed)', async () => {
    await startDeposit(env, shop);
    await advance(env, 30 * 60);
    await deliveries();
    expect(receiver.received).toHaveLength(0);
  });

  it('retries at 10 s, 1 min and 1 h while the endpoint fails, then stops once it recovers', async () => {
    receiver.answer(500, 503, 502, 200);
    await buy(30);
    const delivery = () => deliveries('order.completed').then((all) => all.at(-1)!);
    const started = Date.parse((await delivery()).attempts[0]!.at);
    expect((await delivery()).attempts.map((a) => a.status)).toEqual([500]);
    await advance(env, 6);
    expect(receiver.received).toHaveLength(1);
    await advance(env, 1);
    expect((await delivery()).attempts.map((a) => a.status)).toEqual([500, 503]);
    await advance(env, 60);
    expect((await delivery()).attempts.map((a) => a.status)).toEqual([500, 503, 502]);
    expect((await delivery()).next_attempt_at).toBe(new Date(started + (70 + 3600) * 1000).toISOString());
    await advance(env, 3600);
    const done = await delivery();
    expect(done.state).toBe('delivered');
    expect(done.next_attempt_at).toBeNull();
    expect(done.attempts.map((a) => (Date.parse(a.at) - started) / 1000)).toEqual([0, 10, 70, 3670]);
    expect(done.attempts.map((a) => a.status)).toEqual([500, 503, 502, 200]);
    // Same body every time; each attempt timestamped and signed when it was sent.
    const stamps = receiver.received.map((r) => Number(r.headers['x-webhook-timestamp']));
    expect(stamps.map((s) => s - Math.floor(started / 1000))).toEqual([0, 10, 70, 3670]);
    for (const r of receiver.received) {
      expect(r.body).toBe(done.body);
      expect(r.headers['x-webhook-signature']).toBe(hmac(secret, r.body));
    }
    await advance(env, 24 * 3600);
    expect(receiver.received).toHaveLength(4);
  });

  it('marks a delivery exhausted after 5 failed attempts (0 s, 10 s, 1 min, 1 h, 4 h)', async () => {
    receiver.answer(500);
    await buy(25);
    const started = Date.parse((await deliveries('order.completed')).at(-1)!.attempts[0]!.at);
    // buy() ran the clock 3 s past the first attempt.
    await advance(env, 10 + 60 + 3600 + 14_400 - 3 - 1);
    expect((await deliveries('order.completed')).at(-1)!.attempts).toHaveLength(4);
    await advance(env, 1);
    const exhausted = (await deliveries('order.completed')).at(-1)!;
    expect(exhausted.state).toBe('exhausted');
    expect(exhausted.next_attempt_at).toBeNull();
    expect(exhausted.attempts.map((a) => (Date.parse(a.at) - started) / 1000)).toEqual([0, 10, 70, 3670, 18_070]);
    await advance(env, 7 * 24 * 3600);
    expect(receiver.received).toHaveLength(5);
  });
});

describe.each(MODES)('the merchant order list, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Shop;
  beforeAll(async () => {
    env = await start({ seed: 52 });
    shop = await createShop(env);
  });
  afterAll(() => env.close());

  it('shows interactive orders newest first, paged by cursor across several pages', async () => {
    const wallet = Keypair.random().publicKey();
    const ids: string[] = [];
    for (const amount of [20, 30, 40, 50, 60]) {
      const { id } = await startDeposit(env, shop, { fiat_amount: amount, destination_address: wallet });
      await completeForm(env, id);
      ids.push(id);
    }
    await call(env, 'POST', `/_mock/mobile-money/${ids[4]}/approve`);
    await advance(env, 10);
    const login = await call(env, 'POST', '/api/v1/merchant/login', { body: { email: shop.merchant.email, password: 'correct horse battery' } });
    const auth = { authorization: `Bearer ${login.body.data.access_token}` };

    const pages: { data: Record<string, unknown>[]; next_cursor: string | null; has_more: boolean }[] = [];
    let cursor = '';
    do {
      const res = await call(env, 'GET', `/api/v1/merchant/orders?limit=2&cursor=${cursor}`, { headers: auth });
      expect(res.status).toBe(200);
      pages.push(res.body);
      cursor = res.body.has_more ? res.body.next_cursor : '';
    } while (cursor);

    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    for (const page of pages) expect(page.next_cursor).toBe(page.data.at(-1)!.id);
    const orders = pages.flatMap((p) => p.data);
    expect(orders.map((o) => o.fiat_amount)).toEqual([60, 50, 40, 30, 20]);
    expect(orders.map((o) => o.status)).toEqual(['completed', 'pending', 'pending', 'pending', 'pending']);
    expect(orders[0]).toMatchObject({
      id: expect.stringMatching(/^ord_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      type: 'onramp',
      fiat_currency: 'GHS',
      crypto_currency: 'USDC',
      crypto_amount: 3.78,
      payment_method: 'mobile_money',
      transaction_id: ids[4],
      created_at: expect.any(String),
    });
  });
});

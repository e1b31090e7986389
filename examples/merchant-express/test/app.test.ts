/**
 * The example merchant backend against the standalone mock server, over real HTTP on
 * 127.0.0.1: widget sessions, raw-body webhook verification, checkout (the return page verifies
 * before saying paid, fulfilment only from the signed webhook, once, across a restart), and a
 * server-side on-ramp followed with waitForOrder on the mock's manual clock.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutClient } from '@sikaramp/sdk';
import { PRODUCT } from '../src/routes/checkout.ts';
import { startWorld, type World } from './helpers.ts';

let world: World;
beforeAll(async () => {
  world = await startWorld();
}, 30_000);
afterAll(() => world?.close());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const post = (path: string, body: unknown) =>
  world.shopFetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** An order webhook signed as the service signs it, computed here with node:crypto. */
function signed(body: string, secret = world.config.webhookSecret, timestamp = Math.floor(Date.now() / 1000)) {
  return {
    'content-type': 'application/json',
    'x-webhook-signature': createHmac('sha256', secret).update(body).digest('hex'),
    'x-webhook-timestamp': String(timestamp),
  };
}

const orderEvent = (orderId: string) =>
  // Spacing and key order on purpose: these bytes are not what JSON.stringify would write.
  `{ "order_id": "${orderId}",  "event": "order.completed", "type": "onramp",
     "fiat_amount": "100.00", "fiat_currency": "GHS", "crypto_amount": "6.31", "crypto_currency": "USDC",
     "destination_address": null, "timestamp": "${new Date().toISOString()}" }`;

describe('the page and the widget endpoint', () => {
  it('puts the public key in the page, and no secret', async () => {
    const page = await (await world.shopFetch('/')).text();
    expect(page).toContain(`data-api-key="${world.config.publicKey}"`);
    for (const secret of [world.config.secretKey, world.config.webhookSecret, world.config.checkoutApiKey, world.config.checkoutWebhookSecret]) {
      expect(page).not.toContain(secret);
    }
    const bundle = await world.shopFetch('/widget/ramp-widget.js');
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await bundle.text()).toContain('ramp-widget');
  });

  it('starts an interactive buy and sell for the signed-in customer', async () => {
    const buy = await json(await post('/api/ramp/session', { flow: 'buy', amount: 150, asset: 'USDC', destination: world.config.customer.wallet }));
    expect(buy.status).toBe(200);
    expect(new URL(buy.body.url).origin).toBe(world.mock.url);
    const sell = await json(await post('/api/ramp/session', { flow: 'sell', amount: 20, asset: 'USDC', lang: 'fr' }));
    // The page's language, passed on by the backend: the interactive page opens in it.
    expect(await (await fetch(sell.body.url)).text()).toMatch(/<html lang="fr"/);
    const { transaction: deposit } = await world.control.anchor.transaction(buy.body.id);
    const { transaction: withdrawal } = await world.control.anchor.transaction(sell.body.id);
    expect(deposit).toMatchObject({ kind: 'deposit', status: 'incomplete' });
    expect(withdrawal).toMatchObject({ kind: 'withdrawal', status: 'incomplete' });
  });

  it('answers 400 with the handler’s message for bad input, and starts nothing', async () => {
    const before = (await world.control.anchor.transactions()).length;
    const res = await json(await post('/api/ramp/session', { flow: 'buy', amount: -5, destination: world.config.customer.wallet }));
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'invalid_request', message: expect.stringMatching(/amount/) } } });
    const nowhere = await json(await post('/api/ramp/session', { flow: 'buy', amount: 100 }));
    expect(nowhere).toEqual({
      status: 400,
      body: { error: { code: 'invalid_request', message: 'destination: the Stellar address that receives the USDC is required' } },
    });
    const broken = await json(await world.shopFetch('/api/ramp/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"flow":' }));
    expect(broken).toMatchObject({ status: 400, body: { error: { code: 'invalid_json' } } });
    expect(await world.control.anchor.transactions()).toHaveLength(before);
  });
});

describe('the widget’s status endpoint', () => {
  // A world of its own: these tests move the mock's clock 20 minutes ahead, past the 5 minutes
  // the shop's webhook verification tolerates, which the other suites' webhooks would then fail.
  let own: World;
  beforeAll(async () => {
    own = await startWorld();
  }, 30_000);
  afterAll(() => own?.close());

  const start = async (body: unknown) =>
    (await json(await own.shopFetch('/api/ramp/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))).body;
  const status = async (id: string) => json(await own.shopFetch(`/api/ramp/status?id=${encodeURIComponent(id)}`));

  it('reports a buy’s status from the anchor as it moves, to completed', async () => {
    const body = await start({ flow: 'buy', amount: 100, destination: own.config.customer.wallet });
    const seen: string[] = [];
    const look = async () => {
      const res = await status(body.id);
      expect(res).toMatchObject({ status: 200, body: { transaction: { id: body.id, kind: 'deposit' } } });
      seen.push(res.body.transaction.status);
    };
    await look();
    await own.control.anchor.completeInteractive(body.id, { provider: 'mtn', phone: '+233241234567' });
    await look();
    await own.control.rails.approvePrompt(body.id);
    await look();
    await own.control.clock.advance(2);
    await look();
    await own.control.clock.advance(5);
    await look();
    expect(seen).toEqual(['incomplete', 'pending_user_transfer_start', 'pending_anchor', 'pending_stellar', 'completed']);
  });

  it('shows a sell’s address and memo, and still answers once its 15-minute SEP-10 token has run out', async () => {
    const body = await start({ flow: 'sell', amount: 10 });
    await own.control.anchor.completeInteractive(body.id, { provider: 'mtn', phone: '+233241234567' });
    const waiting = await status(body.id);
    expect(waiting.body.transaction).toMatchObject({
      status: 'pending_user_transfer_start',
      amount_in: '10.00',
      withdraw_anchor_account: expect.stringMatching(/^G[A-Z2-7]{55}$/),
      withdraw_memo: expect.any(String),
    });
    // The customer takes 20 minutes: the backend signs in to the anchor again, on the mock's clock.
    await own.control.clock.advance(20 * 60);
    expect(await status(body.id)).toMatchObject({ status: 200, body: { transaction: { id: body.id, status: 'pending_user_transfer_start' } } });
  });

  it('answers 404 for a transaction this backend did not start, and 400 for no id', async () => {
    const elsewhere = 'b3f1c7d2-0000-4000-8000-000000000000';
    expect(await status(elsewhere)).toEqual({ status: 404, body: { error: { code: 'not_found', message: 'No such transaction.' } } });
    expect(await json(await own.shopFetch('/api/ramp/status'))).toEqual({ status: 400, body: { error: { code: 'invalid_request', message: 'id must be a transaction id.' } } });
  });
});

describe('order webhooks: the raw body', () => {
  it('verifies and logs the signed order webhook the mock sends when a buy completes', async () => {
    const { body } = await json(await post('/api/ramp/session', { flow: 'buy', amount: 100, destination: world.config.customer.wallet }));
    await world.control.anchor.completeInteractive(body.id, { provider: 'mtn', phone: '+233241234567' });
    await world.control.rails.approvePrompt(body.id);
    await world.control.clock.advance(10);
    const deliveries = await world.control.webhooks.list({ event: 'order.completed' });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ kind: 'order', url: `${world.config.publicUrl}/webhooks/sikaramp`, state: 'delivered' });
    expect(world.lines).toContainEqual(expect.stringMatching(/^webhook ✓ order\.completed onramp 100\.00 GHS \/ [\d.]+ USDC \(ord_.+\) — signature verified$/));
  });

  it('accepts the exact bytes it was sent, which a parsed and re-serialised body would not match', async () => {
    const raw = orderEvent('ord_raw-bytes');
    const accepted = await world.shopFetch('/webhooks/sikaramp', { method: 'POST', headers: signed(raw), body: raw });
    expect(accepted.status).toBe(200);
    // What express.json() + JSON.stringify would have verified: other bytes, same signature.
    const reserialised = JSON.stringify(JSON.parse(orderEvent('ord_reserialised')));
    const refused = await json(
      await world.shopFetch('/webhooks/sikaramp', { method: 'POST', headers: signed(orderEvent('ord_reserialised')), body: reserialised }),
    );
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'invalid_webhook', reason: 'no_matching_signature' } } });
    // The page's feed shows the refusal.
    expect(world.lines).toContainEqual(expect.stringMatching(/^webhook ✗ refused \(no_matching_signature\): /));
  });

  it('refuses a forged or stale webhook with 400 and records nothing, so the genuine one still counts', async () => {
    const raw = orderEvent('ord_forged');
    const forged = await json(await world.shopFetch('/webhooks/sikaramp', { method: 'POST', headers: signed(raw, 'not the secret'), body: raw }));
    expect(forged).toMatchObject({ status: 400, body: { error: { reason: 'no_matching_signature' } } });
    const stale = await json(
      await world.shopFetch('/webhooks/sikaramp', { method: 'POST', headers: signed(raw, undefined, Math.floor(Date.now() / 1000) - 3600), body: raw }),
    );
    expect(stale).toMatchObject({ status: 400, body: { error: { reason: 'timestamp_too_old' } } });
    const genuine = await json(await world.shopFetch('/webhooks/sikaramp', { method: 'POST', headers: signed(raw), body: raw }));
    expect(genuine).toEqual({ status: 200, body: { received: true } });
    const again = await json(await world.shopFetch('/webhooks/sikaramp', { method: 'POST', headers: signed(raw), body: raw }));
    expect(again).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(world.lines.filter((l) => l.includes('(ord_forged)'))).toHaveLength(1);
    expect(world.lines.at(-1)).toBe('webhook ✓ order.completed again (already handled, ignored)');
  });
});

describe('checkout', () => {
  const checkout = () => new CheckoutClient({ baseUrl: world.mock.url, apiKey: world.config.checkoutApiKey });

  /** Creates an order through the shop's form; returns its token (the id the service knows), session and the hosted page. */
  async function buyShirt() {
    const res = await world.shopFetch('/checkout', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(res.status).toBe(303);
    const checkoutUrl = new URL(res.headers.get('location')!);
    expect(checkoutUrl.origin).toBe(world.mock.url);
    const sessionId = checkoutUrl.pathname.split('/').at(-1)!;
    // The shop put its order's token in the payment's meta.
    const verification = await checkout().payments.verify(sessionId);
    if (verification.outcome === 'unknown') throw verification.error;
    const orderId = String(verification.session.meta?.order_id);
    expect(await order(orderId)).toMatchObject({ session_id: sessionId, status: 'pending', amount: PRODUCT.amount, shipments: 0 });
    return { orderId, sessionId };
  }
  const returnPage = async (orderId: string, sessionRef: string) =>
    (await world.shopFetch(`/checkout/return?order=${orderId}&sessionRef=${encodeURIComponent(sessionRef)}`)).text();
  const order = async (id: string) => (await (await world.shopFetch(`/api/orders/${id}`)).json()) as any;

  it('says paid only after the server verified it, and ships only on the signed webhook', async () => {
    const { orderId, sessionId } = await buyShirt();
    // Back from the hosted page without paying: the server asks, and it is not paid.
    expect(await returnPage(orderId, sessionId)).toContain('Not paid (pending)');

    // Paid on the hosted page. Nothing is shipped yet: no webhook has come.
    await world.control.checkout.complete(sessionId, 'completed');
    expect(await order(orderId)).toMatchObject({ status: 'pending', shipments: 0 });

    // The return page verifies (which makes the service send the webhook) before saying paid.
    expect(await returnPage(orderId, sessionId)).toContain('Paid: 25.00 GHS, confirmed by Sikaramp.');
    await expect.poll(() => order(orderId)).toMatchObject({ status: 'paid', shipments: 1 });
    expect(world.lines).toContain(`checkout webhook ✓ payment.succeeded 25.00 GHS for order ${orderId} — signature verified`);

    // Another order's session on this order's return URL proves nothing.
    const other = await buyShirt();
    const page = await world.shopFetch(`/checkout/return?order=${other.orderId}&sessionRef=${sessionId}`);
    expect(page.status).toBe(400);
  });

  it('never ships twice: a redelivered event, before and after a restart on the same SQLite file', async () => {
    const { orderId, sessionId } = await buyShirt();
    await world.control.checkout.complete(sessionId, 'completed');
    expect(await returnPage(orderId, sessionId)).toContain('Paid');
    await expect.poll(() => order(orderId)).toMatchObject({ shipments: 1 });
    const data = await world.control.webhooks.list({ event: 'payment.succeeded' });
    const [delivery] = data.filter((d) => JSON.parse(d.body).data.session_id === sessionId);
    expect(delivery).toMatchObject({ kind: 'checkout', state: 'delivered' });
    const eventId = delivery!.event_id;

    // The same event again: verified, recognised, nothing shipped.
    const before = world.lines.length;
    const replay = await checkout().webhooks.retryEvent(eventId);
    expect(replay.deliveries.every((d) => d.state === 'delivered')).toBe(true);
    expect(world.lines.slice(before)).toEqual([`checkout webhook ✓ ${eventId} again: already handled, nothing shipped twice`]);

    // A restart forgets everything in memory; the SQLite file remembers.
    await world.restart();
    await checkout().webhooks.retryEvent(eventId);
    expect(await returnPage(orderId, sessionId)).toContain('Paid');
    await expect.poll(() => world.lines.filter((l) => l.includes(`${eventId} again`)).length).toBe(3);
    expect(await order(orderId)).toMatchObject({ status: 'paid', shipments: 1 });
  });

  it('does not ship when the confirmed amount is not the order total, nor on a failed payment', async () => {
    const short = await buyShirt();
    await world.control.checkout.complete(short.sessionId, 'completed', 2000);
    expect(await returnPage(short.orderId, short.sessionId)).not.toContain('Paid:');
    await expect.poll(() => world.lines.some((l) => l.includes(`for order ${short.orderId}: not fulfilled, paid 20.00 GHS`))).toBe(true);

    const failed = await buyShirt();
    await world.control.checkout.complete(failed.sessionId, 'failed');
    expect(await returnPage(failed.orderId, failed.sessionId)).toContain('Not paid (failed)');
    await expect.poll(() => world.lines.some((l) => l.includes(`payment.failed failed for order ${failed.orderId}`))).toBe(true);
    for (const id of [short.orderId, failed.orderId]) expect(await order(id)).toMatchObject({ status: 'pending', shipments: 0 });
  });
});

describe('a server-side on-ramp', () => {
  it('reports each status waitForOrder sees until completed, and verifies the payment webhook', async () => {
    const res = await json(await post('/api/ramp/orders', { amount: 100 }));
    expect(res.status).toBe(201);
    const { reference } = res.body;
    expect(reference).toMatch(/^RMP-\d{8}-/);
    const statuses = () =>
      world.shop.feed.items.filter((i) => i.kind === 'ramp-order' && i.data.reference === reference).map((i) => String(i.data.status));
    // Once the prompt is on the customer's phone (2 s after the order), they approve it.
    await expect.poll(statuses).toContain('fiat_pending');
    await world.control.rails.approvePrompt(reference);
    await expect.poll(() => world.lines.some((l) => l.startsWith(`ramp order ${reference} finished: completed`)), { timeout: 15_000 }).toBe(true);

    const seen = statuses();
    // The creation answer and waitForOrder's first looks: quote_locked until the service sends the prompt 2 s later.
    const distinct = seen.filter((s, i) => s !== seen[i - 1]);
    expect(distinct.slice(0, 2)).toEqual(['quote_locked', 'fiat_pending']);
    expect(seen.slice(-3)).toEqual(['crypto_sending', 'completed', 'completed']);
    // Polling may miss a short status, never reorder them.
    const order = ['quote_locked', 'fiat_pending', 'fiat_confirmed', 'crypto_sending', 'completed'];
    expect(distinct.slice(0, -1).map((s) => order.indexOf(s))).toEqual([...new Set(distinct.slice(0, -1).map((s) => order.indexOf(s)))].sort());
    expect(world.lines).toContainEqual(expect.stringMatching(/^webhook ✓ payment\.completed onramp [\d.]+ GHS \(PAY-.+\) — signature verified$/));
  });

  it('answers 400 with the SDK’s reason for an amount the ramp API would refuse', async () => {
    const res = await json(await post('/api/ramp/orders', { amount: 5 }));
    expect(res).toEqual({ status: 400, body: { error: expect.stringContaining('at least 10 GHS') } });
  });
});

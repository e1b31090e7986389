/**
 * The verifier against what the mock server really sends. A merchant sets its webhook URL with
 * MerchantClient, customers buy and sell through WidgetClient, and checkout payments are made
 * and verified at the checkout API; the mock POSTs signed webhooks over HTTP to a receiver on
 * 127.0.0.1 that verifies them with the SDK and de-duplicates them, as a merchant's endpoint would.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RampClient } from '../src/clients/ramp.js';
import type { WidgetClient } from '../src/clients/widget.js';
import { createDeduplicator } from '../src/webhooks/dedupe.js';
import {
  verifyCheckoutWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type CheckoutWebhookEvent,
  type OrderWebhookEvent,
  type WebhookEvent,
} from '../src/webhooks/index.js';
import { customerInput, newWidget, type Merchant } from './helpers/clients.js';
import { MODES, type MockEnv } from './helpers/mock.js';

const PHONE = '+233201234567';

type Event = WebhookEvent | CheckoutWebhookEvent;

interface Receiver {
  url: string;
  /** Secrets each path accepts. */
  secrets: { orders: string[]; checkout: string[] };
  /** What each delivery came to: the event, or the refusal's reason. */
  outcomes: (Event | string)[];
  /** The same, by the order id the body names (read without trusting it, for the test's bookkeeping). */
  byOrder: Map<string, (Event | string)[]>;
  /** Events the handler fulfilled, after de-duplication. */
  fulfilled: Event[];
  /** Answer 500 after handling this many next deliveries, as if the answer was lost. */
  failAfterHandling: number;
  /** How far the endpoint's clock is ahead of the mock's, seconds. */
  skewSeconds: number;
  close(): Promise<void>;
}

/** A merchant's webhook endpoint: `/hooks/orders` (order and ramp payment webhooks) and `/hooks/checkout`. */
async function startReceiver(env: MockEnv): Promise<Receiver> {
  const dedupe = createDeduplicator();
  const receiver: Receiver = {
    url: '',
    secrets: { orders: [], checkout: [] },
    outcomes: [],
    byOrder: new Map(),
    fulfilled: [],
    failAfterHandling: 0,
    skewSeconds: 0,
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const input = { body: Buffer.concat(chunks), headers: req.headers, now: env.backend.clock.now() + receiver.skewSeconds * 1000 };
      const record = (outcome: Event | string) => {
        receiver.outcomes.push(outcome);
        const orderId = (JSON.parse(input.body.toString()) as { order_id?: string }).order_id;
        if (orderId) receiver.byOrder.set(orderId, [...(receiver.byOrder.get(orderId) ?? []), outcome]);
      };
      try {
        const event: Event = req.url === '/hooks/checkout'
          ? await verifyCheckoutWebhook({ ...input, secret: receiver.secrets.checkout })
          : await verifyWebhook({ ...input, secret: receiver.secrets.orders });
        record(event);
        await dedupe.once(event, () => receiver.fulfilled.push(event));
        if (receiver.failAfterHandling > 0) {
          receiver.failAfterHandling--;
          return void res.writeHead(500).end();
        }
        res.writeHead(200).end();
      } catch (error) {
        record(error instanceof WebhookVerificationError ? error.reason : String(error));
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return receiver;
}

describe.each(MODES)('webhooks from the mock server verify with the SDK, %s', (_name, start) => {
  let env: MockEnv;
  let receiver: Receiver;
  let merchant: Merchant;
  let shop: Awaited<ReturnType<typeof newWidget>>;
  let widget: WidgetClient;
  let customerId: string;
  let secret: string;
  const wallet = Keypair.random().publicKey();

  beforeAll(async () => {
    env = await start({ seed: 11 });
    receiver = await startReceiver(env);
    shop = await newWidget(env);
    ({ merchant, widget } = shop);
    customerId = (await widget.customers.create(customerInput())).id;
    secret = (await merchant.client.webhook.set({ url: `${receiver.url}/hooks/orders` })).secret!;
  });
  beforeEach(() => {
    receiver.secrets.orders = [secret];
  });
  afterAll(async () => {
    await receiver.close();
    await env.close();
  });

  const settle = () => env.backend.control.webhooks.settle();
  const advance = async (seconds: number) => {
    await env.backend.clock.advance(seconds);
    await settle();
  };

  /** A buy through the widget backend, completed as the customer would, up to the chain's confirmation. */
  async function buy(fiat_amount: number) {
    const { id } = await widget.interactive.deposit({ user_id: customerId, fiat_amount, destination_address: wallet });
    await env.backend.control.anchor.completeInteractive(id, { provider: 'mtn', phone: PHONE });
    await env.backend.control.rails.approvePrompt(id);
    await advance(2);
    await advance(5);
    return id;
  }

  /** What the deliveries of the transaction's order came to, in order. */
  const outcomesOf = (txId: string) => receiver.byOrder.get(env.backend.control.anchor.transaction(txId).order_id!) ?? [];

  it('verifies order.completed from a buy, and the order is in the list', async () => {
    const txId = await buy(100);
    const [event] = outcomesOf(txId) as [OrderWebhookEvent];
    expect(event).toMatchObject({ event: 'order.completed', type: 'onramp', fiat_amount: '100.00', fiat_currency: 'GHS', crypto_currency: 'USDC', destination_address: wallet });
    const page = await merchant.client.orders.list();
    expect(page.data[0]).toMatchObject({ id: event.order_id, status: 'completed', fiat_amount: 100, transaction_id: txId });
  });

  it('verifies order.completed from a sell', async () => {
    const { id } = await widget.interactive.withdraw({ user_id: customerId, onchain_amount: 10 });
    const tx = await env.backend.control.anchor.completeInteractive(id, { provider: 'mtn', phone: PHONE });
    if (!('withdraw_memo' in tx) || !tx.withdraw_anchor_account) throw new Error('expected a withdrawal with its anchor account');
    await env.backend.control.rails.sendStellarPayment({ from: wallet, to: tx.withdraw_anchor_account, amount: '10', asset_code: 'USDC', memo: tx.withdraw_memo });
    await advance(2);
    await advance(5);
    expect(outcomesOf(id)).toMatchObject([{ event: 'order.completed', type: 'offramp', crypto_amount: '10.00' }]);
  });

  it('verifies order.failed from a declined Mobile Money prompt', async () => {
    const { id } = await widget.interactive.deposit({ user_id: customerId, fiat_amount: 50, destination_address: wallet });
    await env.backend.control.anchor.completeInteractive(id, { provider: 'mtn', phone: PHONE });
    await env.backend.control.rails.declinePrompt(id);
    await settle();
    expect(outcomesOf(id)).toMatchObject([{ event: 'order.failed', type: 'onramp' }]);
  });

  it('verifies a retried delivery, signed afresh, and fulfils it once', async () => {
    receiver.failAfterHandling = 1;
    const txId = await buy(60);
    expect(outcomesOf(txId)).toHaveLength(1);
    await advance(10);
    const [first, retried] = outcomesOf(txId) as OrderWebhookEvent[];
    expect(retried).toEqual(first);
    expect(receiver.fulfilled.filter((e) => e === first || e === retried)).toHaveLength(1);
  });

  it('verifies during a rotation with either secret, and refuses the old one after its 24 h', async () => {
    const rotated = (await merchant.client.webhook.rotate()).secret!;
    for (const secrets of [[rotated], [secret], [rotated, secret]]) {
      receiver.secrets.orders = secrets;
      expect(outcomesOf(await buy(20))).toMatchObject([{ event: 'order.completed' }]);
    }
    await env.backend.clock.advance(24 * 3600);
    receiver.secrets.orders = [secret];
    expect(outcomesOf(await buy(20))).toEqual(['no_matching_signature']);
    secret = rotated;
  });

  it('refuses a delivery that reaches the endpoint outside the tolerance', async () => {
    receiver.skewSeconds = 301;
    expect(outcomesOf(await buy(20))).toEqual(['timestamp_too_old']);
    receiver.skewSeconds = -301;
    expect(outcomesOf(await buy(20))).toEqual(['timestamp_in_future']);
    receiver.skewSeconds = 0;
  });

  it('verifies the payment.completed webhook of a ramp on-ramp order', async () => {
    env.backend.control.merchants.enableRamp(merchant.id);
    const ramp = new RampClient({ baseUrl: env.origin, secretKey: shop.secretKey });
    const phone = '0241234567';
    const { kyc_id } = await ramp.kyc.initiate({ first_name: 'Kwame', last_name: 'Mensah', phone, provider_name: 'MTN' });
    await ramp.kyc.verify({ kyc_id, otp_code: env.backend.control.rails.otp(phone).code });
    const order = await ramp.orders.create({
      type: 'onramp',
      fiat_amount: 150,
      destination_wallet: wallet,
      user: { first_name: 'Kwame', last_name: 'Mensah', phone, network: 'MTN' },
    });
    await env.backend.control.rails.approvePrompt(order.reference);
    await settle();
    expect(receiver.outcomes.at(-1)).toMatchObject({
      event: 'payment.completed',
      data: { amount: 15_000, currency: 'GHS', channel: 'mobile_money', meta: { ramp_order_id: order.id, ramp_type: 'onramp' } },
    });
  });

  it('verifies checkout webhooks and fulfils a replayed event once', async () => {
    const api = async (method: string, path: string, body?: unknown, key?: string) => {
      const res = await fetch(`${env.origin}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
      return (await res.json()) as any;
    };
    const { key } = await api('POST', '/_mock/checkout/keys', {});
    receiver.secrets.checkout = [(await api('POST', '/api/v1/developer/webhooks', { url: `${receiver.url}/hooks/checkout` }, key)).data.secret];
    const payment = (
      await api('POST', '/api/v1/developer/payments', {
        type: 'checkout',
        amount: 10_000,
        currency: 'GHS',
        recipient: { name: 'Ama Mensah', email: 'ama@example.com' },
        redirect_url: 'https://shop.example/return',
        meta: { order_id: 'A-17' },
      }, key)
    ).data;
    await api('POST', `/_mock/checkout/${payment.reference}/complete`, { status: 'completed' });
    await api('GET', `/api/v1/developer/payments/${payment.session_id}`);
    await settle();
    const event = receiver.outcomes.at(-1) as CheckoutWebhookEvent;
    expect(event).toMatchObject({ type: 'payment.succeeded', data: { reference: payment.reference, status: 'completed', amount: 10_000, currency: 'GHS' } });
    expect(event.data.meta).toMatchObject({ order_id: 'A-17' });
    const fulfilled = receiver.fulfilled.length;
    await api('POST', `/api/v1/developer/webhooks/events/${event.id}/retry`, undefined, key);
    expect(receiver.outcomes.at(-1)).toEqual(event);
    expect(receiver.fulfilled.length).toBe(fulfilled);
  });
});

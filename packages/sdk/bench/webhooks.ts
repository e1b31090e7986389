/** Webhook verification throughput: the SDK against a bare node:crypto HMAC-and-compare, stripe and svix. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import Stripe from 'stripe';
import { Webhook as SvixWebhook } from 'svix';
import * as web from '../dist/webhooks/index.js';
// What Node, Bun and Deno load through the package's export conditions.
import { verifyCheckoutWebhook, verifyWebhook } from '../dist/webhooks/node.js';
import { signCheckoutWebhook, signWebhook } from '../dist/webhooks/testing-node.js';
import { compare, fmt, ratio, type Result } from './measure.ts';

const payload = {
  event: 'order.completed',
  order_id: 'ord_7d3c1a52-0a51-4c36-9a0e-0b1d6f6b7a10',
  type: 'onramp',
  fiat_amount: '150.00',
  fiat_currency: 'GHS',
  crypto_amount: '9.45',
  crypto_currency: 'USDC',
  destination_address: 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI',
  timestamp: '2026-01-01T00:00:00Z',
} as const;

export async function benchWebhooks() {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const now = Math.floor(Date.now() / 1000);
  const order = await signWebhook({ payload, secret, timestamp: now });
  const checkout = await signCheckoutWebhook({ payload: JSON.stringify({ id: 'evt_1', type: 'payment.succeeded', data: payload }), secret, timestamp: now });
  const body = order.body;
  const orderBuffer = Buffer.from(body);

  // The floor: what any verifier must do, with nothing around it.
  const expectedHex = order.headers['X-Webhook-Signature']!;
  const bare = () => {
    const mac = createHmac('sha256', secret).update(orderBuffer).digest();
    if (!timingSafeEqual(mac, Buffer.from(expectedHex, 'hex'))) throw new Error('mismatch');
    JSON.parse(body);
  };

  const stripe = new Stripe('sk_test_bench');
  const stripeHeader = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: now });
  const subtle = Stripe.createSubtleCryptoProvider();

  const svixSecret = `whsec_${Buffer.from(secret).toString('base64')}`;
  const svix = new SvixWebhook(svixSecret);
  const svixHeaders = {
    'svix-id': 'msg_1',
    'svix-timestamp': String(now),
    'svix-signature': svix.sign('msg_1', new Date(now * 1000), body),
  };

  const contenders = [
    { name: 'node:crypto HMAC + timingSafeEqual (baseline)', run: bare },
    { name: 'sdk verifyWebhook (order, node:crypto build)', run: () => verifyWebhook({ body, headers: order.headers, secret }) },
    { name: 'sdk verifyCheckoutWebhook (node:crypto build)', run: () => verifyCheckoutWebhook({ body: checkout.body, headers: checkout.headers, secret }) },
    { name: 'stripe constructEvent (node:crypto)', run: () => stripe.webhooks.constructEvent(body, stripeHeader, secret) },
    { name: 'stripe constructEventAsync (Web Crypto)', run: () => stripe.webhooks.constructEventAsync(body, stripeHeader, secret, undefined, subtle) },
    { name: 'svix Webhook.verify', run: () => svix.verify(body, svixHeaders) },
    { name: 'sdk verifyWebhook (order, Web Crypto build)', run: () => web.verifyWebhook({ body, headers: order.headers, secret }) },
  ];
  const sequential = await compare(contenders, { ms: 700 });
  // A server verifies deliveries as they arrive, several at a time: Web Crypto's work runs off the main thread.
  const concurrent = await compare(contenders, { ms: 700, concurrency: 32 });
  const [baseline, sdk, sdkCheckout, stripeSync, stripeAsync, svixOps, sdkWeb] = sequential;
  const [cBaseline, cSdk, , cStripeSync, , cSvix, cSdkWeb] = concurrent;
  /** How many times `a`'s throughput is `b`'s, by wall clock and by CPU time per operation. */
  const vs = (a: Result, b: Result) => `${ratio(a.opsPerSecond, b.opsPerSecond)} ops/s, ${ratio(b.cpuMicros, a.cpuMicros)} by CPU time`;
  return {
    rows: contenders.map((c, i) => [
      c.name,
      fmt(sequential[i]!.opsPerSecond),
      `${sequential[i]!.cpuMicros.toFixed(1)} µs`,
      ratio(baseline!.cpuMicros, sequential[i]!.cpuMicros),
      fmt(concurrent[i]!.opsPerSecond),
      ratio(concurrent[i]!.opsPerSecond, cBaseline!.opsPerSecond),
    ]),
    summary: [
      `sdk verifyWebhook / baseline: ${vs(sdk!, baseline!)} (one at a time); ${vs(cSdk!, cBaseline!)} (32 in flight)`,
      `sdk verifyCheckoutWebhook / baseline: ${vs(sdkCheckout!, baseline!)} (one at a time)`,
      `sdk verifyWebhook / stripe constructEvent: ${vs(sdk!, stripeSync!)} (one at a time); ${vs(cSdk!, cStripeSync!)} (32 in flight)`,
      `sdk verifyWebhook, Web Crypto build / baseline: ${vs(sdkWeb!, baseline!)} (one at a time); ${vs(cSdkWeb!, cBaseline!)} (32 in flight)`,
      `sdk verifyWebhook, Web Crypto build / stripe constructEventAsync (Web Crypto too): ${vs(sdkWeb!, stripeAsync!)} (one at a time)`,
      `sdk verifyWebhook / svix verify: ${vs(sdk!, svixOps!)} (one at a time); ${vs(cSdk!, cSvix!)} (32 in flight)`,
    ],
  };
}

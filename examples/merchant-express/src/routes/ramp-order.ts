/**
 * A server-side on-ramp with the ramp order API: your backend creates the order for a customer
 * whose phone passed ramp KYC, the customer approves the Mobile Money prompt on their phone,
 * and `waitForOrder` follows the order at the documented polling intervals until it ends. Each
 * status it reports goes to the terminal and to the page.
 */
import express, { Router } from 'express';
import { RampClient, type RampOrder, type WaitClock } from '@sikaramp/sdk';
import type { Config } from '../config.ts';
import type { Feed } from '../feed.ts';

export function rampOrderRoutes({ config, feed, clock }: { config: Config; feed: Feed; clock?: WaitClock }): Router {
  const router = Router();
  const ramp = new RampClient({ baseUrl: config.rampBaseUrl, secretKey: config.secretKey });
  const { customer } = config;

  const report = (order: RampOrder, text: string) =>
    feed.publish('ramp-order', `ramp order ${order.reference} ${text}`, { reference: order.reference, status: order.status, order });

  router.post('/api/ramp/orders', express.json(), async (req, res) => {
    const fiat_amount = Number((req.body as { amount?: unknown } | undefined)?.amount ?? 100);
    const order = await ramp.orders.create({
      type: 'onramp',
      fiat_amount,
      destination_wallet: customer.wallet,
      user: { first_name: customer.firstName, last_name: customer.lastName, phone: customer.phone, network: customer.network },
    });
    report(order, `${order.status}: ${order.fiat_amount} GHS for ${order.crypto_amount} USDC at ${order.rate}`);
    res.status(201).json({ reference: order.reference, status: order.status });

    // Follow it in the background; the answer above does not wait. A real shop would also
    // record the reference, so that a restarted process can resume waiting.
    ramp.orders
      .waitForOrder(order.reference, { clock, onStatus: (o) => report(o, o.status) })
      .then(({ succeeded, value: final }) =>
        report(final, succeeded ? `finished: completed, ${final.crypto_amount} USDC sent` : `finished: ${final.status} (${final.failure_reason ?? 'no reason given'})`),
      )
      .catch((error: Error) => feed.publish('ramp-order', `ramp order ${order.reference}: stopped waiting: ${error.message}`, { reference: order.reference }));
  });

  return router;
}

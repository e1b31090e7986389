/**
 * What `<ramp-widget>` asks this backend for: an interactive buy or sell for the signed-in
 * customer. The secret key stays here; the page only ever gets the interactive URL and id.
 */
import express, { Router } from 'express';
import { WidgetClient } from '@sikaramp/sdk';
import type { Config } from '../config.ts';

export function widgetRoutes({ config, transactions }: { config: Config; transactions: Set<string> }): Router {
  const router = Router();
  const widget = new WidgetClient({ baseUrl: config.baseUrl, secretKey: config.secretKey, publicKey: config.publicKey });

  router.post('/api/ramp/session', express.json(), async (req, res) => {
    const { flow, amount, destination, lang } = (req.body ?? {}) as { flow?: string; amount?: number; destination?: string; lang?: string };
    // Who the customer is comes from your own login, never from the request body. This demo
    // shop has one customer, ACCEPTED by KYC.
    const user_id = config.customer.id;
    const { url, id } =
      flow === 'sell'
        ? await widget.interactive.withdraw({ user_id, onchain_amount: amount, lang })
        : await widget.interactive.deposit({ user_id, fiat_amount: amount, destination_address: destination, lang });
    // Remember whose transaction this is, so that later calls answer only for it.
    transactions.add(id);
    res.json({ url, id });
  });

  return router;
}

/**
 * What `<ramp-widget>` asks this backend for: an interactive buy or sell for the signed-in
 * customer (`session-url`), and, once the customer closed the window early, that
 * transaction's status (`status-url`). The secret key stays here; the page only ever gets the
 * interactive URL, the id and the customer's own transaction.
 */
import express, { Router } from 'express';
import { WidgetClient, type WaitClock } from '@sikaramp/sdk';
import { AnchorClient } from '@sikaramp/sdk/anchor';
import type { Config } from '../config.ts';

export interface WidgetRoutesDeps {
  config: Config;
  /** Interactive transactions this backend started, i.e. this shop's customer's. */
  transactions: Set<string>;
  /** The anchor's clock for SEP-10 time bounds and token expiry. Default real time; tests pass the mock's. */
  clock?: WaitClock;
}

export function widgetRoutes({ config, transactions, clock }: WidgetRoutesDeps): Router {
  const router = Router();
  const widget = new WidgetClient({ baseUrl: config.baseUrl, secretKey: config.secretKey, publicKey: config.publicKey });
  // This backend's own Stellar account signs in to the anchor (SEP-10); the client keeps the
  // token for its 15 minutes and signs in again after. A transaction it starts at the anchor
  // is the one it can read there, and the merchant fields make it this shop's.
  const anchor = new AnchorClient({ anchorUrl: config.anchorUrl, signer: config.stellarAccount, now: clock && (() => clock.now()) });

  router.post('/api/ramp/session', express.json(), async (req, res) => {
    const { flow, amount, destination, lang } = (req.body ?? {}) as { flow?: string; amount?: number; destination?: string; lang?: string };
    // Who the customer is comes from your own login, never from the request body. This demo
    // shop has one customer, ACCEPTED by KYC.
    const user_id = config.customer.id;
    // The anchor would send a buy's USDC to this backend's account without one: the customer's wallet is required.
    if (flow !== 'sell' && !destination) return void res.status(400).json({ error: 'destination: the Stellar address that receives the USDC is required' });
    // The five merchant fields: a widget session for the customer, opened with the secret key.
    const { session_id, session_token, merchant_id } = await widget.sessions.create({ user_id });
    const fields = { merchant_id, session_id, session_token, api_key: config.publicKey, user_id, lang };
    const { url, id } =
      flow === 'sell'
        ? await anchor.transfers.withdraw({ ...fields, amount })
        : await anchor.transfers.deposit({ ...fields, amount, account: destination });
    // Remember whose transaction this is, so that later calls answer only for it.
    transactions.add(id);
    res.json({ url, id });
  });

  /**
   * `GET /api/ramp/status?id=`: the widget polls it every few seconds once the popup is closed
   * and no status can arrive by message; it takes SEP-24's `{ transaction }`. Only for a
   * transaction started here: an id from anywhere else is 404, and the anchor is not asked.
   */
  router.get('/api/ramp/status', async (req, res) => {
    const id = req.query.id;
    if (typeof id !== 'string' || !transactions.has(id)) return void res.status(404).json({ error: 'no such transaction started here' });
    const transaction = await anchor.transfers.get(id);
    res.set('cache-control', 'no-store').json({ transaction });
  });

  return router;
}

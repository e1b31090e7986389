/**
 * What `<ramp-widget>` asks this backend for, as the SDK's drop-in handlers: an interactive buy
 * or sell for the signed-in customer (`session-url`), and that customer's transaction status
 * (`status-url`). The secret key stays here; the page only ever gets the interactive URL, the
 * id and the customer's own transaction.
 */
import { Router } from 'express';
import { WidgetClient, type TokenStore, type WaitClock } from '@sikaramp/sdk';
import { AnchorClient } from '@sikaramp/sdk/anchor';
import { createRampHandlers, type TransactionOwners } from '@sikaramp/sdk/handlers';
import { toExpress } from '@sikaramp/sdk/handlers/express';
import type { Config } from '../config.ts';

export interface WidgetRoutesDeps {
  config: Config;
  /** Which customer started which transaction: `status` answers only that customer. */
  owners: TransactionOwners;
  /** Where the anchor's SEP-10 token is cached, shared by the shop's processes (Redis). Default: this process's memory. */
  tokenStore?: TokenStore;
  /** The anchor's clock for SEP-10 time bounds and token expiry. Default real time; tests pass the mock's. */
  clock?: WaitClock;
}

export function widgetRoutes({ config, owners, tokenStore, clock }: WidgetRoutesDeps): Router {
  const widget = new WidgetClient({ baseUrl: config.baseUrl, secretKey: config.secretKey, publicKey: config.publicKey });
  // This backend's own Stellar account signs in to the anchor (SEP-10); the client keeps the
  // token for its 15 minutes and signs in again after. In `tokenStore` (Redis), one process
  // signs in and every other process of the shop uses its token. The merchant fields the
  // handler sends make each transaction this shop's, for this customer.
  const anchor = new AnchorClient({ anchorUrl: config.anchorUrl, signer: config.stellarAccount, tokenStore, now: clock && (() => clock.now()) });
  const ramp = createRampHandlers({
    widget,
    anchor,
    publicKey: config.publicKey,
    // Who the customer is comes from your own login (a session cookie), never from the request
    // body. This demo shop has one customer, ACCEPTED by KYC, always signed in.
    authorize: () => config.customer.id,
    owners,
  });
  return Router().post('/api/ramp/session', toExpress(ramp.session)).get('/api/ramp/status', toExpress(ramp.status));
}

/**
 * The merchant backend as an Express 5 app. Order matters: the webhook routes come first,
 * before anything that parses a body (they need the raw bytes; see routes/webhooks.ts), and
 * before the check that every other change comes from this shop's own pages (same-origin.ts).
 */
import express, { type ErrorRequestHandler, type Express } from 'express';
import { ApiError, ValidationError, type WaitClock } from '@sikaramp/sdk';
import type { Config } from './config.ts';
import type { ShopDb } from './db.ts';
import type { Feed } from './feed.ts';
import { shopPage } from './page.ts';
import { checkoutRoutes } from './routes/checkout.ts';
import { rampOrderRoutes } from './routes/ramp-order.ts';
import { testModeRoutes } from './routes/test-mode.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { widgetRoutes } from './routes/widget.ts';
import { sameOrigin } from './same-origin.ts';

export interface AppDeps {
  config: Config;
  db: ShopDb;
  feed: Feed;
  /** The page's widget bundle, by file name (see widget-bundle.ts). */
  widgetFiles: Map<string, Uint8Array>;
  /**
   * Where `waitForOrder` reads the time and sleeps, and the anchor client reads it. Default real
   * time; tests pass the mock's manual clock.
   */
  waitClock?: WaitClock;
}

export function createApp({ config, db, feed, widgetFiles, waitClock }: AppDeps): Express {
  const app = express();
  // Interactive transactions this shop started, and for which customer: in the SQLite file or Redis (db.ts), so that any process answers.
  const owners = db.transactionOwners;

  app.use(webhookRoutes({ config, db, feed }));
  app.use(sameOrigin(config));
  app.use(widgetRoutes({ config, owners, tokenStore: db.tokenStore, clock: waitClock }));
  app.use(checkoutRoutes({ config, db }));
  app.use(rampOrderRoutes({ config, feed, clock: waitClock }));
  if (config.mockUrl) app.use(testModeRoutes({ config, owners }));

  app.get('/', (_req, res) => void res.type('html').send(shopPage(config)));
  app.get('/api/events', feed.stream);
  app.get('/widget/:file', (req, res) => {
    const file = widgetFiles.get(req.params.file);
    if (!file) return void res.sendStatus(404);
    res.type('text/javascript').send(Buffer.from(file));
  });

  app.use(errors);
  return app;
}

/** SDK errors become a short JSON answer; the message names the problem, never a key. */
const errors: ErrorRequestHandler = (error, _req, res, _next) => {
  if (error instanceof ValidationError) return void res.status(400).json({ error: error.message });
  if (error instanceof ApiError) return void res.status(502).json({ error: `Sikaramp answered ${error.message}` });
  console.error(error);
  res.status(500).json({ error: 'internal error' });
};

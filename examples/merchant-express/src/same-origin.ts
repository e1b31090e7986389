/**
 * Cross-site request forgery: any site the customer visits can make their browser send a
 * request here (a form, or a fetch in `no-cors` mode), and a real shop's login cookie would go
 * with it. So every request that changes something must come from this shop's own pages:
 *
 * - its `Origin` is one of this shop's origins. Browsers send `Origin` with every POST (`null`
 *   from a sandboxed frame or a `data:` page), and no page can set it. A request without one
 *   (curl, another server) is refused too: nothing here is meant for them.
 * - `Sec-Fetch-Site`, which browsers add and no page can set either, is `same-origin` when present.
 * - the JSON API (`/api/…`) takes only `application/json`, which a page of another site cannot
 *   send without a CORS preflight, and this shop answers none.
 *
 * GET requests change nothing here and pass. The webhook routes are mounted before this (see
 * app.ts): they come from Sikaramp's servers and are authenticated by their signatures instead.
 */
import type { RequestHandler } from 'express';
import type { Config } from './config.ts';

/** PUBLIC_URL's origin; on this machine, both spellings of it (`localhost` and `127.0.0.1`), as the demo's keys allow. */
export function shopOrigins(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  if (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1') return [url.origin];
  return ['localhost', '127.0.0.1'].map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`);
}

export function sameOrigin(config: Config): RequestHandler {
  const origins = shopOrigins(config.publicUrl);
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    const site = req.get('sec-fetch-site');
    if (!origins.includes(req.get('origin') ?? '') || (site !== undefined && site !== 'same-origin')) {
      return void res.status(403).json({ error: 'cross-site request refused: changes come only from this shop’s own pages' });
    }
    if (req.path.startsWith('/api/') && !req.is('application/json')) {
      return void res.status(415).json({ error: 'the API takes JSON only (content-type: application/json)' });
    }
    next();
  };
}

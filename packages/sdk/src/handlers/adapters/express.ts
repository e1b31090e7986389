/**
 * @sikaramp/sdk/handlers/express: a web-standard handler as Express middleware.
 *
 * The webhook handler needs the body exactly as it was sent. Mount `express.raw({ type: '*\/*' })`
 * on its route, or keep the bytes from a global `express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })`.
 * A body that `express.json()` parsed can only be written again, and no longer matches its
 * signature: the handler answers 400. The ramp handlers take a parsed JSON body too.
 *
 * ```ts
 * app.post('/api/ramp/session', toExpress(ramp.session));
 * app.post('/webhooks', express.raw({ type: '*\/*' }), toExpress(webhook));
 * ```
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBodyOf, sendWebResponse, toWebRequest } from './node.js';

/** What the adapter reads of Express's request: Node's, plus what Express and body parsers add. */
export interface ExpressLikeRequest extends IncomingMessage {
  originalUrl?: string;
  protocol?: string;
  body?: unknown;
  rawBody?: unknown;
}

export function toExpress(
  handler: (request: Request) => Promise<Response>,
): (req: ExpressLikeRequest, res: ServerResponse, next: (error?: unknown) => void) => void {
  return (req, res, next) => {
    toWebRequest(req, req.originalUrl ?? req.url ?? '/', readBodyOf(req), req.protocol)
      .then(handler)
      .then((response) => sendWebResponse(response, res))
      .catch(next);
  };
}

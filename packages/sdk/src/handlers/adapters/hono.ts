/**
 * @sikaramp/sdk/handlers/hono: a web-standard handler as a Hono handler. Hono's request is a
 * web Request already; when a middleware read the body first (`c.req.json()`), Hono kept its
 * text, and the handler gets those bytes. Never hand a handler a body rebuilt from parsed JSON:
 * a webhook's signature no longer matches it (400).
 *
 * ```ts
 * app.post('/webhooks', toHono(webhook));
 * ```
 */

/** What the adapter reads of Hono's context. */
export interface HonoLikeContext {
  req: { raw: Request; arrayBuffer(): Promise<ArrayBuffer> };
}

export function toHono(handler: (request: Request) => Promise<Response>): (c: HonoLikeContext) => Promise<Response> {
  return async (c) => {
    const { raw } = c.req;
    if (!raw.bodyUsed) return handler(raw);
    return handler(new Request(raw.url, { method: raw.method, headers: raw.headers, body: await c.req.arrayBuffer(), signal: raw.signal }));
  };
}

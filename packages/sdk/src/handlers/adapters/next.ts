/**
 * @sikaramp/sdk/handlers/next: the handlers as Next.js App Router route handlers.
 *
 * A route handler is already a web-standard `(Request) => Promise<Response>`, and Next.js hands
 * it the request unread, so the webhook gets its raw body. What Next.js adds is `next build`: it
 * loads every route module to collect its config, where your secrets are often not set, and
 * `createWebhookHandler` refuses to start without one. `nextRoutes` makes the handlers on the
 * first request instead, once per server process.
 *
 * ```ts
 * // lib/sikaramp.ts
 * export const route = nextRoutes(() => ({ ...createRampHandlers({ ... }), webhook: createWebhookHandler({ ... }) }));
 * // app/api/ramp/session/route.ts
 * export const POST = route('session');
 * ```
 *
 * The mistake: `await request.json()` in your route, then a request rebuilt from
 * `JSON.stringify(body)` for the webhook handler. Those are not the signed bytes: 400.
 */

/** A route handler: Next.js passes a second argument (the route's params), which these ignore. */
export type NextRouteHandler = (request: Request) => Promise<Response>;

/**
 * Returns `route(name)`, the route handler for one of the handlers `create` makes. `create`
 * runs on the first request to any of them, not when the module loads; if it throws (a
 * missing secret), that request fails with the error in the server's log, and the next one
 * tries again.
 */
export function nextRoutes<T extends Record<string, NextRouteHandler>>(create: () => T): (name: keyof T & string) => NextRouteHandler {
  let handlers: T | undefined;
  return (name) => async (request) => (handlers ??= create())[name]!(request);
}

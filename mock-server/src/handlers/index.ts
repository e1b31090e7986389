import { http, type HttpHandler } from 'msw';
import type { MockContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { route } from '../http/respond.js';
import { anchorHandlers } from './anchor/index.js';
import { checkoutHandlers } from './checkout/index.js';
import { interactivePageHandlers } from './interactive/index.js';
import { merchantHandlers } from './merchant/index.js';
import { rampHandlers } from './ramp/index.js';
import { widgetHandlers } from './widget/index.js';

/** The service's surfaces, one folder each, mirroring the SDK's resources. */
export function createHandlers(ctx: MockContext): HttpHandler[] {
  return [
    ...merchantHandlers(ctx),
    ...widgetHandlers(ctx),
    ...anchorHandlers(ctx),
    ...interactivePageHandlers(ctx),
    ...rampHandlers(ctx),
    ...checkoutHandlers(ctx),
    // Last: anything else under the mock's own origins is a 404, never a real network call.
    ...origins(ctx).map((origin) =>
      http.all(
        `${origin}/*`,
        route(ctx, 'envelope', ({ request }) => {
          throw notFound(`route ${request.method} ${new URL(request.url).pathname}`);
        }),
      ),
    ),
  ];
}

function origins(ctx: MockContext): string[] {
  const { urls } = ctx;
  const all = [urls.origin, urls.base, urls.anchor, ...urls.ramp, urls.checkout, urls.gateway, urls.interactive];
  return [...new Set(all.map((u) => new URL(u).origin))];
}

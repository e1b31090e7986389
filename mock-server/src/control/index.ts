/**
 * The mock's control surface: what a test (or the demo) does to the simulated world that no
 * customer or merchant API can, in-process as `backend.control.*` and over HTTP under `/_mock/`.
 * Each domain contributes one piece: `{ api, handlers }`.
 */
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../context.js';
import { parse, readOptionalBody } from '../http/body.js';
import { route } from '../http/respond.js';
import { createStore } from '../store.js';
import { clockControl } from './clock.js';
import { merchantsControl } from './merchants.js';
import { customersControl } from './customers.js';
import { webhooksControl } from './webhooks.js';
import { railsControl } from './rails.js';
import { anchorControl } from './anchor.js';
import { rampControl } from './ramp.js';
import { checkoutControl } from './checkout.js';
import { fixturesControl, type Dispatch } from './fixtures.js';
import { dashboardControl } from './dashboard.js';
import { openapiControl } from './openapi.js';

const ResetBody = z.object({ seed: z.int().nonnegative().max(0xffffffff).optional() });

/** `dispatch` sends a request to the backend's own handlers: the fixtures make their records through them. */
export function createControl(ctx: MockContext, dispatch: Dispatch) {
  const webhooks = webhooksControl(ctx);
  const pieces = {
    clock: clockControl(ctx),
    merchants: merchantsControl(ctx),
    customers: customersControl(ctx),
    webhooks,
    rails: railsControl(ctx),
    anchor: anchorControl(ctx),
    ramp: rampControl(ctx),
    checkout: checkoutControl(ctx),
    fixtures: fixturesControl(ctx, dispatch),
    dashboard: dashboardControl(ctx, webhooks.api),
    openapi: openapiControl(ctx),
  };
  /**
   * Drops all state and every scheduled task. With `seed`, ids start over from it as in a new
   * backend with that seed (secrets stay unseeded), so they do not depend on the tests before;
   * without, they continue from the same stream.
   */
  const reset = (options: z.input<typeof ResetBody> = {}) => {
    const { seed } = parse(ResetBody, options);
    ctx.clock.stop();
    ctx.store = createStore();
    if (seed !== undefined) ctx.random.reseed(seed);
  };
  const api = {
    reset,
    clock: pieces.clock.api,
    merchants: pieces.merchants.api,
    customers: pieces.customers.api,
    webhooks: pieces.webhooks.api,
    rails: pieces.rails.api,
    anchor: pieces.anchor.api,
    ramp: pieces.ramp.api,
    checkout: pieces.checkout.api,
    fixtures: pieces.fixtures.api,
    dashboard: pieces.dashboard.api,
  };
  const handlers = [
    http.post(
      `${ctx.urls.control}/reset`,
      route(ctx, 'envelope', async ({ request }) => {
        reset(await readOptionalBody(request, ResetBody));
        return HttpResponse.json({ reset: true });
      }),
    ),
    ...Object.values(pieces).flatMap((piece) => piece.handlers),
  ];
  return { api, handlers };
}

export type Control = ReturnType<typeof createControl>['api'];

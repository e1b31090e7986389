/**
 * The mock's control surface: what a test (or the demo) does to the simulated world that no
 * customer or merchant API can, in-process as `backend.control.*` and over HTTP under `/_mock/`.
 * Each domain contributes one piece: `{ api, handlers }`.
 */
import { http, HttpResponse } from 'msw';
import type { MockContext } from '../context.js';
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

/** `dispatch` sends a request to the backend's own handlers: the fixtures make their records through them. */
export function createControl(ctx: MockContext, dispatch: Dispatch) {
  const pieces = {
    clock: clockControl(ctx),
    merchants: merchantsControl(ctx),
    customers: customersControl(ctx),
    webhooks: webhooksControl(ctx),
    rails: railsControl(ctx),
    anchor: anchorControl(ctx),
    ramp: rampControl(ctx),
    checkout: checkoutControl(ctx),
    fixtures: fixturesControl(ctx, dispatch),
  };
  /** Drops all state and every scheduled task; ids continue from the same random stream. */
  const reset = () => {
    ctx.clock.stop();
    ctx.store = createStore();
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
  };
  const handlers = [
    http.post(`${ctx.urls.control}/reset`, () => {
      reset();
      return HttpResponse.json({ reset: true });
    }),
    ...Object.values(pieces).flatMap((piece) => piece.handlers),
  ];
  return { api, handlers };
}

export type Control = ReturnType<typeof createControl>['api'];

import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';
import { kycHandlers } from './kyc.js';
import { registerRampHooks } from './lifecycle.js';
import { orderHandlers } from './orders.js';

/**
 * Every handler of the ramp order API (001), served at each ramp base URL (sandbox first,
 * then production if configured); both share one store.
 */
export function rampHandlers(ctx: MockContext): HttpHandler[] {
  registerRampHooks(ctx);
  return ctx.urls.ramp.flatMap((base) => [...kycHandlers(ctx, base), ...orderHandlers(ctx, base)]);
}

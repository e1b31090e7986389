/** References of fiat payments, one form on every surface: ramp payment webhooks and the checkout gateway. */
import type { MockContext } from './context.js';

/** The UTC date of `ms` as `YYYYMMDD`. */
export const yyyymmdd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');

/** A fiat payment's reference, `PAY-<YYYYMMDD>-<uuid>` (001 section 6), dated in UTC now. */
export const paymentReference = (ctx: MockContext) => `PAY-${yyyymmdd(ctx.clock.now())}-${ctx.random.uuid()}`;

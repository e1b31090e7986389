/** References of fiat payments, one form on every surface: ramp payment webhooks and the checkout gateway. */
import type { MockContext } from './context.js';

const DAY_MS = 86_400_000;
// References are made on every payment creation: the day's text is worked out once a day.
let lastDay = NaN;
let lastText = '';

/** The UTC date of `ms` as `YYYYMMDD`. */
export const yyyymmdd = (ms: number) => {
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastText = new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
    lastDay = day;
  }
  return lastText;
};

/** A fiat payment's reference, `PAY-<YYYYMMDD>-<uuid>` (001 section 6), dated in UTC now. */
export const paymentReference = (ctx: MockContext) => `PAY-${yyyymmdd(ctx.clock.now())}-${ctx.random.uuid()}`;

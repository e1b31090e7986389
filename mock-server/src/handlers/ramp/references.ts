import type { MockContext } from '../../context.js';

const yyyymmdd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');

/** A ramp order's lookup reference: `RMP-<YYYYMMDD>-<uuid>`, dated in UTC at creation. */
export const rampOrderReference = (ctx: MockContext) => `RMP-${yyyymmdd(ctx.clock.now())}-${ctx.random.uuid()}`;

/** A fiat payment's reference in payment webhooks: `PAY-<YYYYMMDD>-<uuid>`, dated in UTC when it finished. */
export const paymentReference = (ctx: MockContext) => `PAY-${yyyymmdd(ctx.clock.now())}-${ctx.random.uuid()}`;

/** A text memo that identifies an off-ramp order's deposit (Stellar allows 28 bytes). */
export const depositMemo = (ctx: MockContext) => `RMP${ctx.random.hex(8).toUpperCase()}`;

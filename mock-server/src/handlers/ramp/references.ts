import type { MockContext } from '../../context.js';
import { yyyymmdd } from '../../references.js';

/** A ramp order's lookup reference: `RMP-<YYYYMMDD>-<uuid>`, dated in UTC at creation. */
export const rampOrderReference = (ctx: MockContext) => `RMP-${yyyymmdd(ctx.clock.now())}-${ctx.random.uuid()}`;

/** A text memo that identifies an off-ramp order's deposit (Stellar allows 28 bytes). */
export const depositMemo = (ctx: MockContext) => `RMP${ctx.random.hex(8).toUpperCase()}`;

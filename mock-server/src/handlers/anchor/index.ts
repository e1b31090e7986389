import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';
import { registerTransactionHooks } from '../../transactions.js';
import { sep10Handlers } from './sep10.js';
import { sep12Handlers } from './sep12.js';
import { sep24Handlers } from './sep24.js';
import { sep38Handlers } from './sep38.js';
import { stellarTomlHandlers } from './stellar-toml.js';

/** Every handler of the anchor surface: stellar.toml (SEP-1), SEP-10, SEP-12, SEP-24 and SEP-38. */
export function anchorHandlers(ctx: MockContext): HttpHandler[] {
  // Interactive transactions hear the Mobile Money and Stellar rails from here on.
  registerTransactionHooks(ctx);
  return [...stellarTomlHandlers(ctx), ...sep10Handlers(ctx), ...sep12Handlers(ctx), ...sep24Handlers(ctx), ...sep38Handlers(ctx)];
}

import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';
import { configHandlers } from './config.js';
import { customerHandlers } from './customers.js';
import { interactiveHandlers } from './interactive.js';
import { orderHandlers } from './orders.js';
import { sessionHandlers } from './session.js';

/** Every handler of the widget surface (000 section 4), `X-API-Key: <key>`. */
export function widgetHandlers(ctx: MockContext): HttpHandler[] {
  return [...configHandlers(ctx), ...sessionHandlers(ctx), ...customerHandlers(ctx), ...interactiveHandlers(ctx), ...orderHandlers(ctx)];
}

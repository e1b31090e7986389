import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';
import { interactiveHandlers } from './interactive.js';

/** Every handler of the widget surface. */
export function widgetHandlers(ctx: MockContext): HttpHandler[] {
  return [...interactiveHandlers(ctx)];
}

import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';

/** Every handler of the widget surface. */
export function widgetHandlers(_ctx: MockContext): HttpHandler[] {
  return [];
}

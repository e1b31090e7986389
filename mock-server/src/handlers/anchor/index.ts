import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';

/** Every handler of the anchor surface. */
export function anchorHandlers(_ctx: MockContext): HttpHandler[] {
  return [];
}

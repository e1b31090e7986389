import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';

/** Every handler of the checkout surface. */
export function checkoutHandlers(_ctx: MockContext): HttpHandler[] {
  return [];
}

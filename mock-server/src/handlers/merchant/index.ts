import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';

/** Every handler of the merchant surface. */
export function merchantHandlers(_ctx: MockContext): HttpHandler[] {
  return [];
}

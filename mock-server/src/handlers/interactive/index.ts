import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';

/** The interactive page at `{interactive_url}` that the customer completes. */
export function interactivePageHandlers(_ctx: MockContext): HttpHandler[] {
  return [];
}

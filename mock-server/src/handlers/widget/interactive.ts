import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';

/** `POST /api/v1/widget/deposit/interactive` and `/withdraw/interactive`. */
export function interactiveHandlers(_ctx: MockContext): HttpHandler[] {
  return [];
}

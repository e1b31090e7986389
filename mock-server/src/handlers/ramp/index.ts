import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';

/** Every handler of the ramp surface. */
export function rampHandlers(_ctx: MockContext): HttpHandler[] {
  return [];
}

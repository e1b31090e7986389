import type { HttpHandler } from 'msw';
import type { MockContext } from '../context.js';

/** Control calls of the ramp surface (see ./index.ts). */
export function rampControl(_ctx: MockContext) {
  const api = {};
  const handlers: HttpHandler[] = [];
  return { api, handlers };
}

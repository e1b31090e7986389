import type { HttpHandler } from 'msw';
import type { MockContext } from '../context.js';

/** Control calls of the anchor surface (see ./index.ts). */
export function anchorControl(_ctx: MockContext) {
  const api = {};
  const handlers: HttpHandler[] = [];
  return { api, handlers };
}

import type { HttpHandler } from 'msw';
import type { MockContext } from '../context.js';

/** Control calls of the checkout surface (see ./index.ts). */
export function checkoutControl(_ctx: MockContext) {
  const api = {};
  const handlers: HttpHandler[] = [];
  return { api, handlers };
}

import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';
import { gatewayHandlers } from '../gateway/index.js';
import { pageHandlers } from './page.js';
import { paymentHandlers } from './payments.js';
import { transactionHandlers } from './transactions.js';
import { webhookHandlers } from './webhooks.js';

/** Every handler of the checkout surface (002): the checkout API, the hosted page, and the earlier gateway routes. */
export function checkoutHandlers(ctx: MockContext): HttpHandler[] {
  return [
    ...paymentHandlers(ctx),
    ...transactionHandlers(ctx),
    ...webhookHandlers(ctx),
    ...pageHandlers(ctx),
    ...gatewayHandlers(ctx),
  ];
}

/**
 * @sikaramp/sdk/handlers: the merchant backend's endpoints as web-standard
 * `(Request) => Promise<Response>` handlers, for Next.js route handlers, Hono, Deno, Bun and
 * Workers as they are, and for Express and Fastify through `@sikaramp/sdk/handlers/express`
 * and `@sikaramp/sdk/handlers/fastify`. Loads no framework and not @stellar/stellar-sdk.
 *
 * ```ts
 * import { createRampHandlers, createWebhookHandler } from '@sikaramp/sdk/handlers';
 * const ramp = createRampHandlers({ widget, anchor, publicKey, authorize: (req) => customerIdOf(req) });
 * export const POST = ramp.session; // app/api/ramp/session/route.ts
 * ```
 */
export { createRampHandlers, MemoryTransactionOwners, type RampHandlers, type RampHandlersOptions, type AmountLimits } from './ramp.js';
export type { TransactionOwners } from './owners.js';
export { SqliteTransactionOwners, type SqliteTransactionOwnersOptions } from './sqlite.js';
export {
  createWebhookHandler,
  type WebhookHandlerOptions,
  type MerchantWebhookHandlerOptions,
  type CheckoutWebhookHandlerOptions,
} from './webhook.js';
export type { ErrorReporter } from './response.js';
export { MemoryDedupeStore, DedupeLeaseError, type DedupeStore } from '../webhooks/dedupe.js';

/** Where the ramp handlers keep each transaction's customer, and for how long by default. */

/** Where each transaction's customer is kept, so that `status` answers only that customer. */
export interface TransactionOwners {
  set(transactionId: string, customerId: string): void | Promise<void>;
  get(transactionId: string): string | undefined | Promise<string | undefined>;
}

/**
 * How long a store that expires owners (`SqliteTransactionOwners`, `RedisTransactionOwners`)
 * keeps one by default, seconds: 7 days. A transaction finishes in minutes (000: 1 to 5), but
 * a sell waits for the customer's USDC and the widget polls again when the customer comes back
 * to the tab; past this, `status` answers 404 for it. The same 7 days as handled webhook keys.
 */
export const DEFAULT_OWNER_TTL_SECONDS = 7 * 24 * 60 * 60;

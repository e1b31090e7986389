/** @sikaramp/sdk: typed clients for every Sikaramp surface. */
export { VERSION } from './core/version.js';

export {
  SikarampError,
  redact,
  ApiError,
  RedirectError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  ConnectionError,
  TimeoutError,
  AbortError,
  ResponseTooLargeError,
  ValidationError,
  ResponseValidationError,
  CredentialError,
  WaitTimeoutError,
  type ValidationIssue,
} from './core/errors.js';
export type { ClientOptions, RequestOptions, IdempotentRequestOptions, Hooks, HookRequest, HookResponse } from './core/http.js';
export type { Logger, LogLevel } from './core/log.js';
export type { APIPromise, WithResponse, WithResponses } from './core/api-promise.js';
export { CursorPage, PagePromise, type CursorPageBody } from './core/pagination.js';
export { MemoryTokenStore, type TokenStore, type StoredToken } from './core/token-cache.js';
export type { WaitOptions, WaitResult } from './core/poll.js';

export { MerchantClient, type MerchantClientOptions } from './clients/merchant.js';
export * from './resources/merchant/auth.js';
export * from './resources/merchant/api-keys.js';
export * from './resources/merchant/profile.js';
export * from './resources/merchant/kyb.js';
export * from './resources/merchant/widget-config.js';
export * from './resources/merchant/webhook.js';
export * from './resources/merchant/orders.js';

export { WidgetClient, type WidgetClientOptions } from './clients/widget.js';
export * from './resources/widget/config.js';
export * from './resources/widget/session.js';
export * from './resources/widget/customers.js';
export * from './resources/widget/interactive.js';
export * from './resources/widget/orders.js';

export { RampClient, type RampClientOptions } from './clients/ramp.js';
export * from './resources/ramp/kyc.js';
export * from './resources/ramp/orders.js';
export type { WaitClock } from './core/poll.js';

export { CheckoutClient, type CheckoutClientOptions } from './clients/checkout.js';
export * from './resources/checkout/payments.js';
export * from './resources/checkout/transactions.js';
export * from './resources/checkout/webhooks.js';
export type { Resource } from './core/resource.js';

/** @sikaramp/sdk: typed clients for every Sikaramp surface. */
export const VERSION = '0.0.0';

export {
  SikarampError,
  ApiError,
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
  ValidationError,
  ResponseValidationError,
  CredentialError,
  type ValidationIssue,
} from './core/errors.js';
export type { ClientOptions, RequestOptions, IdempotentRequestOptions } from './core/http.js';

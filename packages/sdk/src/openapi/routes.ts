/**
 * Every route of the service, as one table: method, path, where it is served, how it is
 * authenticated, what it takes and what it answers, with the SAME zod schemas the SDK's
 * resources send and parse. `document.ts` turns it into the OpenAPI 3.1 document that the SDK
 * ships (`@sikaramp/sdk/openapi.json`) and the mock serves (`/_mock/openapi.json`).
 *
 * Paths are as the interface documents (000, 001, 002) write them, under their own server:
 * `{base_url}` (merchant dashboard, widget backend), `{anchor_url}` (SEP-10, 12, 24; SEP-38
 * under `/sep38`, the stellar.toml's ANCHOR_QUOTE_SERVER), the anchor's origin (stellar.toml),
 * `{ramp_base_url}`, `{checkout_base_url}` and `{gateway_url}`.
 */
import * as z from 'zod';
import { ApiKeyCreateParamsSchema, ApiKeyCreatedSchema, ApiKeySchema } from '../resources/merchant/api-keys.js';
import { AccessTokenSchema, LoginParamsSchema, MerchantSchema, RegisterParamsSchema } from '../resources/merchant/auth.js';
import { KybStatusSchema, KybSubmitParamsSchema } from '../resources/merchant/kyb.js';
import { OrderListParamsSchema, OrderPageSchema } from '../resources/merchant/orders.js';
import { WebhookSetParamsSchema, WebhookSettingsSchema } from '../resources/merchant/webhook.js';
import { WidgetConfigSchema, WidgetConfigUpdateParamsSchema } from '../resources/merchant/widget-config.js';
import {
  CustomerCreatedSchema,
  CustomerDeletedSchema,
  CustomerFieldsSchema,
  CustomerSchema,
} from '../resources/widget/customers.js';
import { DepositParamsSchema, InteractiveTransactionSchema, WithdrawParamsSchema } from '../resources/widget/interactive.js';
import { IdempotencyKeySchema, WidgetOrderCreateParamsSchema, WidgetOrderSchema } from '../resources/widget/orders.js';
import { SessionCreateParamsSchema, SessionSchema } from '../resources/widget/session.js';
import { AnchorChallengeSchema, AnchorTokenSchema } from '../resources/anchor/sep10.js';
import {
  AnchorCustomerDeletedSchema,
  AnchorCustomerIdSchema,
  AnchorCustomerPutParamsSchema,
  AnchorMerchantFieldsSchema,
} from '../resources/anchor/sep12.js';
import {
  AnchorInteractiveParamsSchema,
  AnchorTransactionListParamsSchema,
  TransactionBodySchema,
  TransactionListSchema,
} from '../resources/anchor/sep24.js';
import {
  QuoteCreateParamsSchema,
  QuoteInfoSchema,
  QuotePriceParamsSchema,
  QuotePriceSchema,
  QuotePricesParamsSchema,
  QuotePricesSchema,
  QuoteSchema,
} from '../resources/anchor/sep38.js';
import { KycInitiateParamsSchema, KycRecordSchema, KycVerifyParamsSchema } from '../resources/ramp/kyc.js';
import { RampOrderConfirmParamsSchema, RampOrderCreateParamsSchema, RampOrderSchema } from '../resources/ramp/orders.js';
import {
  CreationBodySchema,
  InProgressBodySchema,
  MAX_CHECKOUT_IDEMPOTENCY_KEY_LENGTH,
  PaymentCreateParamsSchema,
  PaymentSessionSchema,
} from '../resources/checkout/payments.js';
import { CheckoutTransactionListParamsSchema, TransactionPageSchema } from '../resources/checkout/transactions.js';
import {
  CheckoutWebhookCreateParamsSchema,
  CheckoutWebhookEndpointCreatedSchema,
  CheckoutWebhookEndpointDeletedSchema,
  CheckoutWebhookEndpointSchema,
  CheckoutWebhookRetrySchema,
} from '../resources/checkout/webhooks.js';
import { openEnum, responseObject } from '../core/schema.js';

/** Where a route is served; `document.ts` names each as a server with its variable. */
export type Server = 'base' | 'anchor' | 'anchorOrigin' | 'ramp' | 'checkout' | 'gateway';

/**
 * How a route is authenticated: `merchantToken` the dashboard's login JWT, `apiKey` a key in
 * `X-API-Key`, `rampKey` and `checkoutKey` a secret key as Bearer, `sep10` the anchor's JWT.
 */
export type Auth = 'none' | 'merchantToken' | 'apiKey' | 'rampKey' | 'sep10' | 'checkoutKey';

/**
 * How a route's failures look (the same three the mock renders): `envelope`
 * `{error: {code, message}, meta}` (000 section 7), `sep` `{error}` (SEP-10/12/24/38),
 * `checkout` `{error, message}` (002 section 7).
 */
export type ErrorStyle = 'envelope' | 'sep' | 'checkout';

export interface Header {
  name: string;
  required: boolean;
  description: string;
  schema: z.ZodType;
}

export interface Route {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  server: Server;
  /** The surface: the OpenAPI tag. */
  tag: Tag;
  summary: string;
  auth: Auth;
  headers?: Header[];
  /** Query parameters: the object's keys, each with its own schema. */
  query?: z.ZodObject;
  /** The JSON request body, rendered from the schema's input side. */
  body?: z.ZodType;
  /** Success answers by status, rendered from the schemas' output side. */
  responses: Record<number, { description: string; schema: z.ZodType; contentType?: string }>;
  errorStyle: ErrorStyle;
  /** Failure statuses, each answered in `errorStyle`. */
  errors: number[];
  /** Webhooks a call to this route subscribes to, POSTed to the URL of its body (OpenAPI callbacks). */
  callbacks?: WebhookName[];
}

export type Tag = 'Merchant dashboard' | 'Widget backend' | 'Anchor' | 'Ramp orders' | 'Checkout payments' | 'Gateway (earlier routes)';

/** `meta` of the widget backend's envelope (000: every answer carries it). */
const MetaSchema = responseObject({ request_id: z.string(), timestamp: z.iso.datetime() });

/** The widget backend's success body: `{ data, meta }`. */
const envelope = <S extends z.ZodType>(data: S) => responseObject({ data, meta: MetaSchema });

/** Checkout's success body: `{ success, data }`. */
const checkoutBody = <S extends z.ZodType>(data: S) => responseObject({ success: z.boolean(), data });

/** Every error code of 000 section 7, and ours (design.md section 4); open, as codes may be added. */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'MISSING_HEADER',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'KYC_NOT_APPROVED',
  'RAMP_NOT_ENABLED',
  'NOT_FOUND',
  'DUPLICATE_ORDER',
  'INVALID_STATE',
  'PHONE_NOT_VERIFIED',
  'INVALID_OTP',
  'OTP_EXPIRED',
  'SOURCE_WALLET_MISMATCH',
  'QUOTE_EXPIRED',
  'AMOUNT_OUT_OF_RANGE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
] as const;

export const ERROR_SCHEMAS: Record<ErrorStyle, z.ZodType> = {
  envelope: responseObject({ error: responseObject({ code: openEnum(ERROR_CODES), message: z.string() }), meta: MetaSchema }),
  // SEP-24 names a missing or expired token by `type`, so that wallets sign in again.
  sep: responseObject({ error: z.string(), type: openEnum(['authentication_required']).optional() }),
  // No code: the status is the contract, the text is for logs (002 section 7).
  checkout: responseObject({ error: z.string(), message: z.string() }),
};

const ChallengeQuerySchema = z.strictObject({
  /** The Stellar account signing in (G… or M…). */
  account: z.string().regex(/^[GM][A-Z2-7]{55,68}$/),
  /** An id memo, for an account shared by several users. */
  memo: z.string().regex(/^[1-9]\d{0,19}$/).optional(),
  home_domain: z.string().optional(),
  /** The wallet's domain, whose stellar.toml SIGNING_KEY then also signs. */
  client_domain: z.string().optional(),
});

/** The merchant fields as query parameters (SEP-12 GET and DELETE, SEP-24 lookups): all or none. */
const MerchantQuerySchema = AnchorMerchantFieldsSchema.partial();

/** SEP-12 PUT's body: the customer's fields (new, or with `id` to update), and the merchant fields for a merchant's customer. */
const AnchorCustomerPutBodySchema = z.union([
  AnchorCustomerPutParamsSchema.options[0].extend(MerchantQuerySchema.shape),
  AnchorCustomerPutParamsSchema.options[1].extend(MerchantQuerySchema.shape),
]);

/** SEP-12 `GET /customer`: the widget's customer lookup, without `id` for a customer not created yet (SEP-12). */
const AnchorCustomerSchema = CustomerSchema.extend({ id: z.string().optional() });

/** SEP-24 `GET /info`: the asset and its limits per direction. */
const Sep24InfoSchema = responseObject({
  deposit: z.record(z.string(), responseObject({ enabled: z.boolean(), min_amount: z.number().optional(), max_amount: z.number().optional() })),
  withdraw: z.record(z.string(), responseObject({ enabled: z.boolean(), min_amount: z.number().optional(), max_amount: z.number().optional() })),
  fee: responseObject({ enabled: z.boolean() }).optional(),
  features: responseObject({ account_creation: z.boolean(), claimable_balances: z.boolean() }).optional(),
});

const idempotencyKey = (name: string, required: boolean, max: number, description: string): Header => ({
  name,
  required,
  description,
  schema: z.string().min(1).max(max),
});

const RAMP_IDEMPOTENCY = idempotencyKey('X-Idempotency-Key', true, 255, 'A new value per order (a UUID); a value used before answers 409 DUPLICATE_ORDER.');
/** 000 section 5: the widget order's key is "a unique UUID". */
const WIDGET_ORDER_IDEMPOTENCY: Header = { name: 'X-Idempotency-Key', required: true, description: 'A new UUID per order; a value used before answers 409 DUPLICATE_ORDER.', schema: IdempotencyKeySchema };
const sessionHeader = (name: string): Header => ({ name, required: true, description: 'From POST /api/v1/widget/session.', schema: z.string().min(1) });

const json = (description: string, schema: z.ZodType) => ({ description, schema });

/** The table: every route of 000, 001 and 002, and those our design adds (docs/choices.md). */
export const ROUTES: Route[] = [
  // Merchant dashboard (000 section 4).
  { method: 'post', path: '/api/v1/merchant/register', server: 'base', tag: 'Merchant dashboard', summary: 'Register a merchant', auth: 'none', body: RegisterParamsSchema, responses: { 201: json('The new merchant, `pending` until KYB is approved.', envelope(MerchantSchema)) }, errorStyle: 'envelope', errors: [400, 500] },
  { method: 'post', path: '/api/v1/merchant/login', server: 'base', tag: 'Merchant dashboard', summary: 'Log in', auth: 'none', body: LoginParamsSchema, responses: { 200: json('An access token valid 24 hours.', envelope(AccessTokenSchema)) }, errorStyle: 'envelope', errors: [400, 401, 429, 500] },
  { method: 'post', path: '/api/v1/merchant/apikeys', server: 'base', tag: 'Merchant dashboard', summary: 'Create an API key', auth: 'merchantToken', body: ApiKeyCreateParamsSchema, responses: { 201: json('The key; `key` is the only time the full key is shown.', envelope(ApiKeyCreatedSchema)) }, errorStyle: 'envelope', errors: [400, 401, 500] },
  { method: 'delete', path: '/api/v1/merchant/apikeys/{id}', server: 'base', tag: 'Merchant dashboard', summary: 'Revoke an API key', auth: 'merchantToken', responses: { 200: json('The key, now inactive.', envelope(ApiKeySchema)) }, errorStyle: 'envelope', errors: [400, 401, 404, 500] },
  { method: 'get', path: '/api/v1/merchant/profile', server: 'base', tag: 'Merchant dashboard', summary: 'The merchant profile', auth: 'merchantToken', responses: { 200: json('The merchant.', envelope(MerchantSchema)) }, errorStyle: 'envelope', errors: [401, 500] },
  { method: 'post', path: '/api/v1/merchant/kyb/submit', server: 'base', tag: 'Merchant dashboard', summary: 'Submit business verification', auth: 'merchantToken', body: KybSubmitParamsSchema, responses: { 200: json('The verification, now `submitted`.', envelope(KybStatusSchema)) }, errorStyle: 'envelope', errors: [400, 401, 409, 500] },
  { method: 'get', path: '/api/v1/merchant/kyb/status', server: 'base', tag: 'Merchant dashboard', summary: 'Business verification status', auth: 'merchantToken', responses: { 200: json('Where the review stands.', envelope(KybStatusSchema)) }, errorStyle: 'envelope', errors: [401, 500] },
  { method: 'put', path: '/api/v1/merchant/widget-config', server: 'base', tag: 'Merchant dashboard', summary: 'Update the widget config', auth: 'merchantToken', body: WidgetConfigUpdateParamsSchema, responses: { 200: json('The whole config.', envelope(WidgetConfigSchema)) }, errorStyle: 'envelope', errors: [400, 401, 500] },
  { method: 'get', path: '/api/v1/merchant/orders', server: 'base', tag: 'Merchant dashboard', summary: 'List orders, newest first', auth: 'merchantToken', query: OrderListParamsSchema, responses: { 200: json('One page: `data`, `next_cursor`, `has_more` (and `meta`).', OrderPageSchema.extend({ meta: MetaSchema })) }, errorStyle: 'envelope', errors: [400, 401, 500] },
  { method: 'get', path: '/api/v1/merchant/webhook', server: 'base', tag: 'Merchant dashboard', summary: 'The webhook URL and signing secret', auth: 'merchantToken', responses: { 200: json('The settings.', envelope(WebhookSettingsSchema)) }, errorStyle: 'envelope', errors: [401, 500] },
  { method: 'put', path: '/api/v1/merchant/webhook', server: 'base', tag: 'Merchant dashboard', summary: 'Set the webhook URL', auth: 'merchantToken', body: WebhookSetParamsSchema, responses: { 200: json('The settings; a secret is issued the first time.', envelope(WebhookSettingsSchema)) }, errorStyle: 'envelope', errors: [400, 401, 500], callbacks: ['order', 'rampPayment'] },
  { method: 'post', path: '/api/v1/merchant/webhook/rotate', server: 'base', tag: 'Merchant dashboard', summary: 'Rotate the webhook signing secret', auth: 'merchantToken', responses: { 200: json('The new secret; the previous one signs too for 24 hours.', envelope(WebhookSettingsSchema)) }, errorStyle: 'envelope', errors: [401, 409, 500] },

  // Widget backend (000 section 4).
  { method: 'get', path: '/api/v1/widget/config', server: 'base', tag: 'Widget backend', summary: 'The widget config', auth: 'apiKey', responses: { 200: json('Theme, coins, redirect URL.', envelope(WidgetConfigSchema)) }, errorStyle: 'envelope', errors: [401, 403, 429, 500] },
  { method: 'post', path: '/api/v1/widget/session', server: 'base', tag: 'Widget backend', summary: 'Start a widget session for an ACCEPTED customer', auth: 'apiKey', body: SessionCreateParamsSchema, responses: { 201: json('The session, valid 30 minutes.', envelope(SessionSchema)) }, errorStyle: 'envelope', errors: [400, 401, 403, 404, 429, 500] },
  { method: 'post', path: '/api/v1/widget/customer', server: 'base', tag: 'Widget backend', summary: 'Create or update a customer (KYC)', auth: 'apiKey', body: CustomerFieldsSchema, responses: { 200: json('The same customer, updated.', envelope(CustomerCreatedSchema)), 201: json('A new customer.', envelope(CustomerCreatedSchema)) }, errorStyle: 'envelope', errors: [400, 401, 403, 429, 500] },
  { method: 'get', path: '/api/v1/widget/customer/{id}', server: 'base', tag: 'Widget backend', summary: 'A customer and its KYC status', auth: 'apiKey', responses: { 200: json('The customer.', envelope(CustomerSchema)) }, errorStyle: 'envelope', errors: [400, 401, 403, 404, 429, 500] },
  { method: 'delete', path: '/api/v1/widget/customer/{id}', server: 'base', tag: 'Widget backend', summary: 'Delete a customer', auth: 'apiKey', responses: { 200: json('Deleted, at the anchor too.', envelope(CustomerDeletedSchema)) }, errorStyle: 'envelope', errors: [400, 401, 403, 404, 429, 500] },
  { method: 'post', path: '/api/v1/widget/deposit/interactive', server: 'base', tag: 'Widget backend', summary: 'Buy USDC: the interactive deposit URL', auth: 'apiKey', body: DepositParamsSchema, responses: { 200: json('The interactive flow.', envelope(InteractiveTransactionSchema)) }, errorStyle: 'envelope', errors: [400, 401, 403, 404, 422, 429, 500] },
  { method: 'post', path: '/api/v1/widget/withdraw/interactive', server: 'base', tag: 'Widget backend', summary: 'Sell USDC: the interactive withdraw URL', auth: 'apiKey', body: WithdrawParamsSchema, responses: { 200: json('The interactive flow.', envelope(InteractiveTransactionSchema)) }, errorStyle: 'envelope', errors: [400, 401, 403, 404, 422, 429, 500] },
  {
    method: 'post',
    path: '/api/v1/widget/orders',
    server: 'base',
    tag: 'Widget backend',
    summary: "Confirm an interactive transaction's order (the customer's confirmation)",
    auth: 'apiKey',
    headers: [WIDGET_ORDER_IDEMPOTENCY, sessionHeader('X-Session-Id'), sessionHeader('X-Session-Token')],
    // The session travels in the two headers, not in the body.
    body: WidgetOrderCreateParamsSchema.omit({ session: true }),
    responses: { 201: json('The order and its transaction, waiting for the payment.', envelope(WidgetOrderSchema)) },
    errorStyle: 'envelope',
    errors: [400, 401, 403, 404, 409, 422, 429, 500],
  },

  // Anchor (000 section 4; SEP-1, 10, 12, 24, 38).
  { method: 'get', path: '/.well-known/stellar.toml', server: 'anchorOrigin', tag: 'Anchor', summary: "SEP-1: the anchor's stellar.toml", auth: 'none', responses: { 200: { description: 'TOML: SIGNING_KEY, WEB_AUTH_ENDPOINT, NETWORK_PASSPHRASE, KYC_SERVER, TRANSFER_SERVER_SEP0024, ANCHOR_QUOTE_SERVER.', schema: z.string(), contentType: 'text/plain' } }, errorStyle: 'sep', errors: [] },
  { method: 'get', path: '/auth', server: 'anchor', tag: 'Anchor', summary: 'SEP-10: a challenge transaction to sign', auth: 'none', query: ChallengeQuerySchema, responses: { 200: json('The challenge (XDR) and, optional in SEP-10, the network it is for.', AnchorChallengeSchema) }, errorStyle: 'sep', errors: [400, 500] },
  { method: 'post', path: '/auth', server: 'anchor', tag: 'Anchor', summary: 'SEP-10: exchange the signed challenge for a token', auth: 'none', body: z.strictObject({ transaction: z.string().min(1) }), responses: { 200: json('A JWT valid 15 minutes.', AnchorTokenSchema) }, errorStyle: 'sep', errors: [400, 401, 500] },
  { method: 'put', path: '/customer', server: 'anchor', tag: 'Anchor', summary: 'SEP-12: create or update a customer', auth: 'sep10', body: AnchorCustomerPutBodySchema, responses: { 202: json('Its id only.', AnchorCustomerIdSchema) }, errorStyle: 'sep', errors: [400, 401, 403, 404, 500] },
  { method: 'get', path: '/customer', server: 'anchor', tag: 'Anchor', summary: 'SEP-12: a customer and its status (without `id`: the fields a new customer needs)', auth: 'sep10', query: MerchantQuerySchema.extend({ id: z.string().min(1).optional() }), responses: { 200: json('`provided_fields`, or `fields` when NEEDS_INFO; no `id` before the customer exists.', AnchorCustomerSchema) }, errorStyle: 'sep', errors: [400, 401, 403, 404, 500] },
  { method: 'delete', path: '/customer/{id}', server: 'anchor', tag: 'Anchor', summary: "SEP-12: delete a customer (or, given the account, all of the account's)", auth: 'sep10', query: MerchantQuerySchema, responses: { 200: json('A confirmation.', AnchorCustomerDeletedSchema) }, errorStyle: 'sep', errors: [400, 401, 403, 404, 500] },
  { method: 'get', path: '/info', server: 'anchor', tag: 'Anchor', summary: 'SEP-24: assets and limits', auth: 'none', responses: { 200: json('Per direction, per asset.', Sep24InfoSchema) }, errorStyle: 'sep', errors: [] },
  { method: 'post', path: '/transactions/deposit/interactive', server: 'anchor', tag: 'Anchor', summary: 'SEP-24: buy USDC, the interactive URL', auth: 'sep10', body: AnchorInteractiveParamsSchema, responses: { 200: json('The interactive flow (not wrapped).', InteractiveTransactionSchema) }, errorStyle: 'sep', errors: [400, 401, 403, 404, 422, 500] },
  { method: 'post', path: '/transactions/withdraw/interactive', server: 'anchor', tag: 'Anchor', summary: 'SEP-24: sell USDC, the interactive URL', auth: 'sep10', body: AnchorInteractiveParamsSchema, responses: { 200: json('The interactive flow (not wrapped).', InteractiveTransactionSchema) }, errorStyle: 'sep', errors: [400, 401, 403, 404, 422, 500] },
  { method: 'get', path: '/transaction', server: 'anchor', tag: 'Anchor', summary: 'SEP-24: one transaction', auth: 'sep10', query: MerchantQuerySchema.extend({ id: z.string().min(1) }), responses: { 200: json('`{ transaction }`.', TransactionBodySchema) }, errorStyle: 'sep', errors: [400, 401, 403, 404, 500] },
  { method: 'get', path: '/transactions', server: 'anchor', tag: 'Anchor', summary: 'SEP-24: transactions, newest first', auth: 'sep10', query: AnchorTransactionListParamsSchema.extend(MerchantQuerySchema.shape), responses: { 200: json('`{ transactions }`.', TransactionListSchema) }, errorStyle: 'sep', errors: [400, 401, 403, 500] },
  { method: 'get', path: '/sep38/info', server: 'anchor', tag: 'Anchor', summary: 'SEP-38: the assets traded', auth: 'none', responses: { 200: json('Assets and delivery methods.', QuoteInfoSchema) }, errorStyle: 'sep', errors: [] },
  { method: 'get', path: '/sep38/prices', server: 'anchor', tag: 'Anchor', summary: 'SEP-38: indicative prices', auth: 'none', query: QuotePricesParamsSchema, responses: { 200: json('What the sold asset buys.', QuotePricesSchema) }, errorStyle: 'sep', errors: [400, 500] },
  { method: 'get', path: '/sep38/price', server: 'anchor', tag: 'Anchor', summary: 'SEP-38: an indicative price for an amount', auth: 'none', query: QuotePriceParamsSchema, responses: { 200: json('The price and its fee.', QuotePriceSchema) }, errorStyle: 'sep', errors: [400, 500] },
  { method: 'post', path: '/sep38/quote', server: 'anchor', tag: 'Anchor', summary: 'SEP-38: a firm quote', auth: 'sep10', body: QuoteCreateParamsSchema, responses: { 201: json('The quote, held until `expires_at`.', QuoteSchema) }, errorStyle: 'sep', errors: [400, 403, 500] },
  { method: 'get', path: '/sep38/quote/{id}', server: 'anchor', tag: 'Anchor', summary: 'SEP-38: a quote of the signed-in account', auth: 'sep10', responses: { 200: json('The quote.', QuoteSchema) }, errorStyle: 'sep', errors: [403, 404, 500] },

  // Ramp orders (001 section 4).
  { method: 'post', path: '/api/v1/ramp/kyc/initiate', server: 'ramp', tag: 'Ramp orders', summary: "Send a one-time code to the user's phone", auth: 'rampKey', body: KycInitiateParamsSchema, responses: { 201: json('The KYC record, `pending`.', envelope(KycRecordSchema)) }, errorStyle: 'envelope', errors: [400, 401, 403, 415, 429, 500] },
  { method: 'post', path: '/api/v1/ramp/kyc/verify', server: 'ramp', tag: 'Ramp orders', summary: 'Verify the phone with the code', auth: 'rampKey', body: KycVerifyParamsSchema, responses: { 200: json('The KYC record, `verified`.', envelope(KycRecordSchema)) }, errorStyle: 'envelope', errors: [400, 401, 403, 404, 415, 422, 429, 500] },
  { method: 'post', path: '/api/v1/ramp/orders', server: 'ramp', tag: 'Ramp orders', summary: 'Create an order at a locked rate', auth: 'rampKey', headers: [RAMP_IDEMPOTENCY], body: RampOrderCreateParamsSchema, responses: { 201: json('The order, `quote_locked`.', envelope(RampOrderSchema)) }, errorStyle: 'envelope', errors: [400, 401, 403, 409, 415, 422, 429, 500] },
  { method: 'get', path: '/api/v1/ramp/orders/{reference}', server: 'ramp', tag: 'Ramp orders', summary: 'An order now', auth: 'rampKey', responses: { 200: json('The order.', envelope(RampOrderSchema)) }, errorStyle: 'envelope', errors: [401, 403, 404, 429, 500] },
  { method: 'post', path: '/api/v1/ramp/orders/{reference}/confirm', server: 'ramp', tag: 'Ramp orders', summary: 'Off-ramp: name the wallet the USDC comes from', auth: 'rampKey', body: RampOrderConfirmParamsSchema, responses: { 200: json('The order.', envelope(RampOrderSchema)) }, errorStyle: 'envelope', errors: [400, 401, 403, 404, 409, 415, 422, 429, 500] },
  { method: 'post', path: '/api/v1/ramp/orders/{reference}/cancel', server: 'ramp', tag: 'Ramp orders', summary: 'Cancel an order no payment has reached', auth: 'rampKey', responses: { 200: json('The order, `cancelled`.', envelope(RampOrderSchema)) }, errorStyle: 'envelope', errors: [401, 403, 404, 409, 429, 500] },

  // Checkout payments (002 section 4).
  {
    method: 'post',
    path: '/api/v1/developer/payments',
    server: 'checkout',
    tag: 'Checkout payments',
    summary: 'Create a checkout session',
    auth: 'checkoutKey',
    headers: [idempotencyKey('Idempotency-Key', false, MAX_CHECKOUT_IDEMPOTENCY_KEY_LENGTH, 'Scoped to this route, remembered 24 hours; without it every call creates a payment.')],
    body: PaymentCreateParamsSchema,
    responses: {
      200: json('This key\'s earlier answer, the same payment (`Idempotent-Replayed: true`).', CreationBodySchema),
      201: json('A new session: send the customer to `data.checkout_url`.', CreationBodySchema),
      202: json('The first request with this key is still in flight: repeat later with the same key.', z.nonoptional(InProgressBodySchema)),
    },
    errorStyle: 'checkout',
    errors: [400, 401, 403, 409, 500, 502],
  },
  { method: 'get', path: '/api/v1/developer/payments/{sessionRef}', server: 'checkout', tag: 'Checkout payments', summary: 'Verify a session (no key)', auth: 'none', responses: { 200: json('The session; only `completed` and `success` are paid.', checkoutBody(PaymentSessionSchema)) }, errorStyle: 'checkout', errors: [400, 404, 500, 502] },
  { method: 'get', path: '/api/v1/developer/transactions', server: 'checkout', tag: 'Checkout payments', summary: "The organization's transactions, newest first", auth: 'checkoutKey', query: CheckoutTransactionListParamsSchema, responses: { 200: json('One page.', TransactionPageSchema.extend({ success: z.boolean() })) }, errorStyle: 'checkout', errors: [400, 401, 403, 500] },
  { method: 'post', path: '/api/v1/developer/webhooks', server: 'checkout', tag: 'Checkout payments', summary: 'Subscribe an endpoint to payment events', auth: 'checkoutKey', body: CheckoutWebhookCreateParamsSchema, responses: { 201: json('The endpoint and its signing secret, shown once.', checkoutBody(CheckoutWebhookEndpointCreatedSchema)) }, errorStyle: 'checkout', errors: [400, 401, 403, 500], callbacks: ['checkoutPayment'] },
  { method: 'get', path: '/api/v1/developer/webhooks', server: 'checkout', tag: 'Checkout payments', summary: "The organization's endpoints", auth: 'checkoutKey', responses: { 200: json('Without their secrets.', checkoutBody(z.array(CheckoutWebhookEndpointSchema))) }, errorStyle: 'checkout', errors: [401, 403, 500] },
  { method: 'delete', path: '/api/v1/developer/webhooks/{id}', server: 'checkout', tag: 'Checkout payments', summary: 'Remove an endpoint', auth: 'checkoutKey', responses: { 200: json('Removed.', checkoutBody(CheckoutWebhookEndpointDeletedSchema)) }, errorStyle: 'checkout', errors: [401, 403, 404, 500] },
  { method: 'post', path: '/api/v1/developer/webhooks/events/{id}/retry', server: 'checkout', tag: 'Checkout payments', summary: 'Send an event again to the endpoints that have not acknowledged it', auth: 'checkoutKey', responses: { 200: json('The event and its deliveries.', checkoutBody(CheckoutWebhookRetrySchema)) }, errorStyle: 'checkout', errors: [401, 403, 404, 500] },

  // The gateway's earlier routes (002 section 9): the same contracts at another address.
  {
    method: 'post',
    path: '/api/v1/payments/initiate',
    server: 'gateway',
    tag: 'Gateway (earlier routes)',
    summary: 'Initialize a payment (before migration)',
    auth: 'checkoutKey',
    headers: [idempotencyKey('Idempotency-Key', false, MAX_CHECKOUT_IDEMPOTENCY_KEY_LENGTH, 'As at POST /api/v1/developer/payments.')],
    body: PaymentCreateParamsSchema,
    responses: {
      200: json('This key\'s earlier answer.', CreationBodySchema),
      201: json('A new session.', CreationBodySchema),
      202: json('The first request with this key is still in flight.', z.nonoptional(InProgressBodySchema)),
    },
    errorStyle: 'checkout',
    errors: [400, 401, 403, 409, 429, 500, 502],
  },
  { method: 'get', path: '/api/v1/widget/session/{sessionRef}', server: 'gateway', tag: 'Gateway (earlier routes)', summary: 'Fetch or verify a session (before migration)', auth: 'none', responses: { 200: json('The session.', checkoutBody(PaymentSessionSchema)) }, errorStyle: 'checkout', errors: [400, 404, 429, 500, 502] },
];

// Webhooks (000 section 6, 001 section 6, 002 section 6): what the service POSTs to the merchant.

const OrderEventSchema = responseObject({
  event: openEnum(['order.completed', 'order.failed', 'order.expired']),
  /** `ord_<uuid>`. */
  order_id: z.string(),
  type: openEnum(['onramp', 'offramp']),
  /** GHS, a decimal string. */
  fiat_amount: z.string(),
  fiat_currency: z.string(),
  /** USDC, a decimal string. */
  crypto_amount: z.string(),
  crypto_currency: z.string(),
  destination_address: z.string().nullable(),
  timestamp: z.iso.datetime(),
});

const RampPaymentEventSchema = responseObject({
  event: openEnum(['payment.completed', 'payment.failed']),
  data: responseObject({
    /** `PAY-<date>-<uuid>`. */
    reference: z.string(),
    status: z.string(),
    /** Smallest currency unit. */
    amount: z.int(),
    currency: z.string(),
    provider_ref: z.string(),
    channel: z.string(),
    meta: responseObject({ ramp_order_id: z.string(), ramp_type: openEnum(['onramp', 'offramp']) }),
  }),
});

const CheckoutEventSchema = responseObject({
  /** The same as `X-Svc-Event-ID`: the de-duplication key. */
  id: z.string(),
  type: openEnum(['payment.succeeded', 'payment.failed']),
  created_at: z.iso.datetime(),
  data: responseObject({
    reference: z.string(),
    session_id: z.string(),
    status: openEnum(['completed', 'success', 'pending', 'failed', 'cancelled']),
    amount: z.int(),
    final_amount: z.int(),
    currency: z.string(),
    meta: z.record(z.string(), z.unknown()),
  }),
});

export type WebhookName = 'order' | 'rampPayment' | 'checkoutPayment';

export interface Webhook {
  summary: string;
  headers: Header[];
  body: z.ZodType;
}

const header = (name: string, description: string): Header => ({ name, required: true, description, schema: z.string() });
const ORDER_SIGNATURE = [
  header('X-Webhook-Signature', 'Lowercase hex HMAC-SHA256 of the raw body, keyed with the webhook secret.'),
  header('X-Webhook-Timestamp', 'Unix seconds at sending.'),
  { ...header('X-Webhook-Signature-Previous', 'For 24 hours after a rotation: the same signature with the previous secret.'), required: false },
];

/** Each webhook: retried after non-2xx at 10 s, 1 min, 1 h, 4 h (order and ramp); checkout's once, 8 s timeout. */
export const WEBHOOKS: Record<WebhookName, Webhook> = {
  order: { summary: 'An order completed, failed or expired (000 section 6).', headers: ORDER_SIGNATURE, body: OrderEventSchema },
  rampPayment: { summary: "A ramp order's fiat leg completed or failed (001 section 6).", headers: ORDER_SIGNATURE, body: RampPaymentEventSchema },
  checkoutPayment: {
    summary: 'A checkout payment succeeded or failed (002 section 6).',
    headers: [
      header('X-Svc-Event-ID', 'The event id: the de-duplication key.'),
      header('X-Svc-Event-Type', '`payment.succeeded` or `payment.failed`.'),
      header('X-Svc-Timestamp', 'Unix seconds at signing.'),
      header('X-Svc-Signature', '`v1=` and the hex HMAC-SHA256 of `<timestamp>.<raw body>`, keyed with the endpoint secret.'),
    ],
    body: CheckoutEventSchema,
  },
};

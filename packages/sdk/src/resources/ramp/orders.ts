import * as z from 'zod';
import { ConflictError, RateLimitError } from '../../core/errors.js';
import { newIdempotencyKey, type IdempotentRequestOptions, type RequestOptions } from '../../core/http.js';
import { poll, type WaitOptions, type WaitResult } from '../../core/poll.js';
import { Resource, segment } from '../../core/resource.js';
import { headerValue, MAX_FIAT_AMOUNT, openEnum, parseInput, pathSegment, responseObject, text } from '../../core/schema.js';
import { rampAnswer } from './answer.js';
import { LocalPhoneSchema } from './kyc.js';

/** Every status of 001 section 3. `completed` is the only success. */
export const RampOrderStatusSchema = openEnum([
  'quote_locked',
  'fiat_pending',
  'crypto_pending',
  'fiat_confirmed',
  'crypto_confirmed',
  'crypto_sending',
  'fiat_sending',
  'fiat_retry',
  'completed',
  'expired',
  'cancelled',
  'failed',
  'fiat_refunded',
  'crypto_refunded',
]);
export type RampOrderStatus = z.infer<typeof RampOrderStatusSchema>;

/**
 * Statuses after which an order no longer moves by itself: the four terminal ones of 001
 * section 3 and the two refund outcomes. Only `completed` is a success.
 */
export const RAMP_FINAL_STATUSES: readonly RampOrderStatus[] = ['completed', 'failed', 'expired', 'cancelled', 'fiat_refunded', 'crypto_refunded'];

/**
 * Wait between two lookups of an order in each status, seconds (001 section 6). A status the
 * table does not name (`quote_locked`, `fiat_retry`, one added later) is looked at every 5 s.
 */
export const RAMP_POLL_INTERVALS: Readonly<Record<string, number>> = {
  fiat_pending: 5,
  crypto_pending: 10,
  fiat_confirmed: 5,
  crypto_confirmed: 5,
  crypto_sending: 5,
  fiat_sending: 5,
};
const DEFAULT_POLL_SECONDS = 5;
/** Default longest wait of waitForOrder, seconds: the 30 minutes 001 section 6 suggests. */
const ORDER_WAIT_SECONDS = 30 * 60;

/** Whether an order in `status` has stopped moving (see {@link RAMP_FINAL_STATUSES}). */
export const isFinalRampStatus = (status: string): boolean => (RAMP_FINAL_STATUSES as readonly string[]).includes(status);

/** A Stellar account address (`G` and 55 base32 characters). */
const StellarAddressSchema = z.string().regex(/^G[A-Z2-7]{55}$/, 'must be a Stellar public key (G…)');

/** Longest `X-Idempotency-Key` the service accepts, characters (our choice, as the mock server's). */
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const IdempotencyKeySchema = headerValue(MAX_IDEMPOTENCY_KEY_LENGTH);

const twoDecimals = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

const RampUserSchema = z.strictObject({
  first_name: text(100),
  last_name: text(100),
  /** Local format, e.g. `0241234567`; verified by phone KYC first. */
  phone: LocalPhoneSchema,
  /** The Mobile Money provider, e.g. `MTN`. */
  network: text(100),
});

const orderFields = {
  /** GHS: paid by the user (on-ramp) or paid out to the user (off-ramp). At least 10, at most 2 decimals. */
  fiat_amount: z.number().finite().min(10, 'must be at least 10 GHS').max(MAX_FIAT_AMOUNT).refine(twoDecimals, 'must have at most 2 decimal places'),
  /** Only `mobile_money`; the default. */
  payment_method: z.literal('mobile_money').default('mobile_money'),
  user: RampUserSchema,
};

export const RampOrderCreateParamsSchema = z.discriminatedUnion('type', [
  z.strictObject({
    /** Cedis in by Mobile Money, USDC out to `destination_wallet`. */
    type: z.literal('onramp'),
    /** The Stellar address that receives the USDC. */
    destination_wallet: StellarAddressSchema,
    ...orderFields,
  }),
  z.strictObject({
    /** USDC in to the order's `deposit`, cedis out by Mobile Money. */
    type: z.literal('offramp'),
    ...orderFields,
  }),
]);
export type RampOrderCreateParams = z.input<typeof RampOrderCreateParamsSchema>;

export const RampOrderConfirmParamsSchema = z.strictObject({
  /** The wallet the user sends (or sent) the USDC from. */
  source_wallet: StellarAddressSchema,
});
export type RampOrderConfirmParams = z.input<typeof RampOrderConfirmParamsSchema>;

/** A refund on a ramp order: cedis back to the user's phone, or USDC back to the wallet that sent it. */
export const RampRefundSchema = responseObject({
  /** `mobile_money` (GHS to the user's phone) or `usdc` (USDC to the sending wallet). */
  method: openEnum(['mobile_money', 'usdc']),
  /** GHS for `mobile_money`, USDC for `usdc`. */
  amount: z.number(),
  reason: z.string().optional(),
  /** `pending` until the money has arrived, then `completed`. */
  status: openEnum(['pending', 'completed']),
  created_at: z.string().optional(),
});
export type RampRefund = z.infer<typeof RampRefundSchema>;

/** The user of an order, as a lookup shows it. */
export const RampOrderUserSchema = responseObject({
  first_name: z.string(),
  last_name: z.string(),
  /** Local format, e.g. `0241234567`. */
  phone: z.string(),
  /** The Mobile Money provider's name, e.g. `MTN MoMo`. */
  network: z.string(),
});
export type RampOrderUser = z.infer<typeof RampOrderUserSchema>;

/** A ramp order, as creation, lookup, confirm and cancel answer it. Fields the service does not send are absent. */
export const RampOrderSchema = responseObject({
  /** The internal id; payment webhooks carry it as `data.meta.ramp_order_id`. */
  id: z.string().optional(),
  /** Identifies the order in every call, e.g. `RMP-20260101-<uuid>`. */
  reference: z.string(),
  type: openEnum(['onramp', 'offramp']).optional(),
  status: RampOrderStatusSchema,
  /** GHS. */
  fiat_amount: z.number().optional(),
  /** USDC. */
  crypto_amount: z.number().optional(),
  /** GHS per USDC of the locked quote. */
  rate: z.number().optional(),
  /** The fees of the locked quote, GHS; `fee_bps` in basis points. */
  fees: responseObject({ platform_fee: z.number().optional(), network_fee: z.number().optional(), total: z.number().optional(), fee_bps: z.number().optional() }).optional(),
  /** Off-ramp: where the user sends `crypto_amount` USDC, with this memo. */
  deposit: responseObject({ stellar_address: z.string(), memo: z.string().nullish() }).nullish(),
  /** Completed orders: the Stellar transaction that sent the USDC (on-ramp) or brought it (off-ramp). */
  crypto_tx_hash: z.string().nullish(),
  /** ISO 8601 UTC, on completed orders. */
  completed_at: z.string().nullish(),
  /** Why a failed order failed. */
  failure_reason: z.string().nullish(),
  /** ISO 8601 UTC: when the rate lock ends (or ended). */
  expires_at: z.string().nullish(),
  /** Money given back to the user: a late or mismatched payment, or the payment of an order that failed. */
  refunds: z.array(RampRefundSchema).optional(),
  /** `GHS`. On lookups. */
  fiat_currency: z.string().optional(),
  /** `USDC`. On lookups. */
  crypto_currency: z.string().optional(),
  /** `mobile_money`. On lookups. */
  payment_method: z.string().optional(),
  /** On-ramp: the Stellar address that receives the USDC; null on off-ramp. On lookups. */
  destination_wallet: z.string().nullish(),
  /** Off-ramp: the wallet named by `confirm`, until then null. On lookups. */
  source_wallet: z.string().nullish(),
  /** The user as the order was created for; `network` is the provider's name (`MTN MoMo`). On lookups. */
  user: RampOrderUserSchema.optional(),
  /** ISO 8601 UTC. On lookups. */
  created_at: z.string().optional(),
  /** ISO 8601 UTC: the last change. On lookups. */
  updated_at: z.string().optional(),
});
export type RampOrder = z.infer<typeof RampOrderSchema>;

/** The fields of an order 001 shows (section 2, and the reference of section 4): held to their types; the rest is read leniently (see rampAnswer). */
const DOCUMENTED_ORDER_FIELDS = ['reference', 'status', 'crypto_tx_hash', 'completed_at', 'failure_reason', 'expires_at'] as const;

/**
 * An order answer about a reference: a lookup (001 section 4) shows the order's fields, not
 * necessarily its reference, which {@link withReference} then fills in. One schema for every
 * call: a zod schema made per call cost about 40 µs of CPU on each poll.
 */
const OrderAnswerSchema = rampAnswer(RampOrderSchema, DOCUMENTED_ORDER_FIELDS, { reference: '' });
const withReference = async (order: Promise<RampOrder>, reference: string): Promise<RampOrder> => {
  const read = await order;
  return read.reference ? read : { ...read, reference };
};

/**
 * A creation answer: 001 shows only its reference (and the off-ramp's Stellar address). One
 * that names no status is `quote_locked`, what creating an order is: the rate locked, payment
 * not yet initiated (001 section 3).
 */
const CreatedOrderSchema = rampAnswer(RampOrderSchema, DOCUMENTED_ORDER_FIELDS, { status: 'quote_locked' });

/**
 * What waitForOrder ends with: the order in a final status (`completed`, `failed`, `expired`,
 * `cancelled`, `fiat_refunded` or `crypto_refunded`) as `value`, and `succeeded`, true only
 * for `completed`: fulfil on this, never on anything else.
 */
export type RampOrderResult = WaitResult<RampOrder, RampOrderStatus>;

export interface WaitForOrderOptions extends WaitOptions<RampOrder>, RequestOptions {}

/**
 * The order was created under this `X-Idempotency-Key` before (409 `DUPLICATE_ORDER`).
 * `reference` is the earlier order's, where the service names it.
 */
export class DuplicateOrderError extends ConflictError {
  override name = 'DuplicateOrderError';
  /** Reference of the order the key created, when the message names it. */
  readonly reference: string | undefined;
  constructor(status: number, body: unknown, headers: Headers) {
    super(status, body, headers);
    this.reference = /\bRMP-\d{8}-[0-9a-f-]{36}\b/i.exec(this.message)?.[0];
  }
}

/** `/api/v1/ramp/orders`: create, look up, confirm, cancel, and wait for the outcome. */
export class RampOrders extends Resource {
  /**
   * Locks a rate and creates an order, answered in `quote_locked`; the service then starts
   * payment (on-ramp: the Mobile Money prompt; off-ramp: waiting for the USDC at `deposit`). Sent with an `X-Idempotency-Key`,
   * generated when you give none, so a dropped connection is retried safely: when the
   * retry meets the order the first attempt created, that order is returned.
   */
  async create(params: RampOrderCreateParams, opts: IdempotentRequestOptions = {}): Promise<RampOrder> {
    const body = parseInput(RampOrderCreateParamsSchema, params);
    const { idempotencyKey: given, ...request } = opts;
    const idempotencyKey = given === undefined ? newIdempotencyKey() : parseInput(IdempotencyKeySchema, given, 'idempotencyKey');
    // Whether an attempt of this call may have created the order and lost its answer (anything but a 429, which acts on nothing).
    let lost = false;
    const onRetry = (reason: unknown) => void (lost ||= !(reason instanceof RateLimitError));
    try {
      return await this.core.post('api/v1/ramp/orders', { ...request, body, dedupeKey: idempotencyKey, schema: CreatedOrderSchema, onRetry });
    } catch (error) {
      // A fresh key can only meet an order this very call created; any key can after this call's own answer was lost.
      if ((given === undefined || lost) && error instanceof DuplicateOrderError && error.reference) return this.get(error.reference, request);
      throw error;
    }
  }

  /** The order now. */
  async get(reference: string, opts?: RequestOptions): Promise<RampOrder> {
    return withReference(this.core.get(this.#path(reference), { ...opts, schema: OrderAnswerSchema }), reference);
  }

  /**
   * Off-ramp: names the wallet the user pays from, which starts processing once the USDC is
   * in (`crypto_confirmed`); before that the order stays `crypto_pending`.
   */
  async confirm(reference: string, params: RampOrderConfirmParams, opts?: RequestOptions): Promise<RampOrder> {
    const order = this.core.post(`${this.#path(reference)}/confirm`, { ...opts, body: parseInput(RampOrderConfirmParamsSchema, params), schema: OrderAnswerSchema });
    return withReference(order, reference);
  }

  /** Cancels an order that no payment has reached yet; later, ConflictError (`INVALID_STATE`). */
  async cancel(reference: string, opts?: RequestOptions): Promise<RampOrder> {
    return withReference(this.core.post(`${this.#path(reference)}/cancel`, { ...opts, schema: OrderAnswerSchema }), reference);
  }

  /**
   * Looks the order up at the documented intervals (5 s; 10 s in `crypto_pending`) until it
   * reaches a final status, backing off while rate limited, for at most `maxDuration`
   * seconds (default 1800, then WaitTimeoutError). Resolves with `{ succeeded, status, value }`,
   * `succeeded: true` only for `completed`; `failed`, `expired`, `cancelled` and the refund
   * statuses resolve with `succeeded: false` and the order as `value` (see `failure_reason`).
   *
   * ```ts
   * const { succeeded, value: order } = await ramp.orders.waitForOrder(reference, { onStatus: (o) => log(o.status) });
   * if (succeeded) fulfil(order);
   * ```
   */
  async waitForOrder(reference: string, options: WaitForOrderOptions = {}): Promise<RampOrderResult> {
    const { interval, maxDuration, onStatus, clock, ...request } = options;
    return poll({
      fetch: (signal) => this.get(reference, { ...request, signal }),
      status: (o) => o.status,
      isFinal: isFinalRampStatus,
      succeeded: (status) => status === 'completed',
      interval: (status) => interval ?? RAMP_POLL_INTERVALS[status] ?? DEFAULT_POLL_SECONDS,
      defaultMaxDuration: ORDER_WAIT_SECONDS,
      maxDuration,
      onStatus,
      clock,
      signal: request.signal,
    });
  }

  #path(reference: string) {
    return `api/v1/ramp/orders/${segment(parseInput(pathSegment, reference, 'order reference'))}`;
  }
}

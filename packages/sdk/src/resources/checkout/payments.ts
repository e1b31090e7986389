import * as z from 'zod';
import { ApiError, ValidationError } from '../../core/errors.js';
import { newIdempotencyKey, type IdempotentRequestOptions, type RequestOptions } from '../../core/http.js';
import { poll, type WaitOptions, type WaitResult } from '../../core/poll.js';
import { retryDelayMs, sleep } from '../../core/retry.js';
import { Resource, segment } from '../../core/resource.js';
import { headerValue, openEnum, parseInput, parseResponse, pathSegment, responseObject, text } from '../../core/schema.js';

/** Longest `Idempotency-Key` the service accepts, characters (002 section 8). */
export const MAX_CHECKOUT_IDEMPOTENCY_KEY_LENGTH = 128;

/** Meta keys the service overwrites from the API key (002 section 2): refused, so that nothing is silently lost. */
export const RESERVED_META_KEYS = ['organizationId', 'user_id', 'svc_origin', 'svc_environment'] as const;

/** Repeats of a create answered 202 (the first request with the key still in flight), after the first try. */
export const IN_PROGRESS_RETRIES = 2;

/** Query parameters a checkout redirect may carry the session reference in, in the order they are read. */
export const REDIRECT_REFERENCE_PARAMS = ['sessionRef', 'session_ref', 'session_id'] as const;

const MetaSchema = z.record(z.string(), z.unknown()).superRefine((meta, check) => {
  for (const key of RESERVED_META_KEYS) {
    if (Object.hasOwn(meta, key)) {
      check.addIssue({
        code: 'custom',
        path: [key],
        message: `is reserved: the service overwrites it with a value derived from the API key; rename it (for example to my_${key})`,
      });
    }
  }
});

/**
 * The payment creation request (002 section 2). Fields for itemized checkout are not
 * documented; other top-level fields are sent as given, so an existing gateway body migrates unchanged.
 */
export const PaymentCreateParamsSchema = z.looseObject({
  /** `checkout`, the default. */
  type: z.literal('checkout').default('checkout'),
  /** Smallest currency unit: 10000 with `GHS` is GHS 100.00. */
  amount: z.int().min(1),
  /** ISO 4217, uppercase, e.g. `GHS`. */
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an uppercase ISO 4217 code such as GHS'),
  /** Fields beyond `name` and `email` are sent as given, as an existing gateway body has them. */
  recipient: z.looseObject({ name: text(), email: z.email().max(254) }),
  /** Where the customer returns when checkout finishes. The redirect proves nothing: verify before fulfilling. */
  redirect_url: z.url({ protocol: /^https?$/ }).max(2048),
  /** Your own keys, kept as sent; the four of RESERVED_META_KEYS are refused. */
  meta: MetaSchema.optional(),
});
export type PaymentCreateParams = z.input<typeof PaymentCreateParamsSchema>;

const IdempotencyKeySchema = headerValue(MAX_CHECKOUT_IDEMPOTENCY_KEY_LENGTH);
const SessionRefSchema = z.string().trim().min(1, 'is required').pipe(pathSegment);

/** `data` of a creation answer: where to send the customer, and the two references to verify with. */
export const PaymentCreatedSchema = responseObject({
  checkout_url: z.string(),
  /** Gateway payment reference: store it and reconcile against it. */
  reference: z.string().optional(),
  /** Session reference, the one the redirect carries. */
  session_id: z.string().optional(),
});
export type PaymentCreated = z.infer<typeof PaymentCreatedSchema>;

export const CreationBodySchema = responseObject({ success: z.boolean().optional(), data: PaymentCreatedSchema });
export const InProgressBodySchema = responseObject({ message: z.string().optional() }).optional();

/**
 * What a create call came to. `created`: a new session (201). `replayed`: this key's earlier
 * answer (200, or 201 marked `Idempotent-Replayed`), the same payment. `in_progress` (202): the
 * first request with this key was still being handled after create asked 3 times (backing off
 * 0.5 s, then 1 s, or as `Retry-After` says): call create again with the same key later.
 */
export type PaymentCreateResult =
  | { outcome: 'created' | 'replayed'; status: number; idempotencyKey: string; data: PaymentCreated }
  | { outcome: 'in_progress'; status: 202; idempotencyKey: string; message: string | undefined };

/** Gateway session statuses (002 section 3); `completed` and `success` are paid, anything else is not. */
export const PaymentStatusSchema = openEnum(['completed', 'success', 'pending', 'failed', 'cancelled']);
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;

/** Whether a gateway status means the payment went through. An unknown status is not paid. */
export const isPaidStatus = (status: string): boolean => status === 'completed' || status === 'success';

/** A checkout session as verify answers it (`data`). */
export const PaymentSessionSchema = responseObject({
  /** Session reference. */
  id: z.string(),
  /** Gateway payment reference. */
  reference: z.string(),
  status: PaymentStatusSchema,
  /** Requested, smallest unit. */
  amount: z.int(),
  /** Confirmed by the session, smallest unit: compare it with your order total before fulfilling. */
  final_amount: z.int(),
  currency: z.string(),
  /** Not in the document's table (the mock answers it): absent or null is read too. */
  meta: z.record(z.string(), z.unknown()).nullish(),
});
export type PaymentSession = z.infer<typeof PaymentSessionSchema>;

/**
 * The order a verification is for (002 section 2: compare `final_amount` with the order total
 * before fulfilling; section 1: the redirect proves nothing, so its `sessionRef` may name
 * another session than the order's).
 */
export const PaymentExpectationSchema = z.strictObject({
  /** The order total, smallest unit: a paid session must have confirmed exactly this `final_amount`. */
  amount: z.int().min(0),
  /** The order's currency, ISO 4217 uppercase. */
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an uppercase ISO 4217 code such as GHS'),
  /** The `reference` or `session_id` stored when the order's payment was created: the session verified must be that one. */
  reference: SessionRefSchema.optional(),
});
export type PaymentExpectation = z.input<typeof PaymentExpectationSchema>;

/** What differs between the session and the expected order. */
export type PaymentMismatch = 'reference' | 'amount' | 'currency';

/** The fields of a payment that are checked: verify's `session`, or a checkout webhook's `data`. */
export interface PaymentFacts {
  /** Session reference (verify's `session.id`). */
  id?: string;
  /** Session reference (a webhook's `data.session_id`). */
  session_id?: string;
  reference: string;
  status: string;
  final_amount: number;
  currency: string;
}

/**
 * What differs between a payment and the order it should pay for, in the order reference,
 * amount, currency; empty when it is that order's. `reference` (either reference) must name the
 * payment; the currency must be the order's; a paid payment's `final_amount` must equal the
 * order total (an unpaid one's is not compared). Throws ValidationError for a malformed `expected`.
 */
export function paymentMismatches(payment: PaymentFacts, expected: PaymentExpectation): PaymentMismatch[] {
  const order = parseInput(PaymentExpectationSchema, expected, 'expected');
  const mismatches: PaymentMismatch[] = [];
  if (order.reference !== undefined && ![payment.id, payment.session_id, payment.reference].includes(order.reference)) mismatches.push('reference');
  if (isPaidStatus(payment.status) && payment.final_amount !== order.amount) mismatches.push('amount');
  if (payment.currency !== order.currency) mismatches.push('currency');
  return mismatches;
}

/**
 * Whether a payment (verify's `session`, or a signed `payment.succeeded` webhook's `data`) pays
 * this order: a paid status and no mismatch. Release goods only when it is true.
 */
export const isPaidFor = (payment: PaymentFacts, expected: PaymentExpectation): boolean =>
  paymentMismatches(payment, expected).length === 0 && isPaidStatus(payment.status);

export interface VerifyOptions extends RequestOptions {
  /** The order this payment is for; given, a session that is not the order's fully paid one is `mismatch`, never `paid`. */
  expected?: PaymentExpectation;
}

/**
 * What verify found. `paid` is true only for `completed` or `success` (and, with `expected`,
 * only for the order's own session with its total and currency). `mismatch` (only with
 * `expected`): another session, another currency, or a paid `final_amount` other than the
 * total; do not fulfil. A 404 (session unknown or expired) or a gateway failure (502 after
 * retries) is `unknown`, never a failed payment: do not fulfil, do not cancel, look again later.
 */
export type PaymentVerification =
  | { outcome: 'paid'; paid: true; status: PaymentStatus; session: PaymentSession }
  | { outcome: 'not_paid'; paid: false; status: PaymentStatus; session: PaymentSession }
  | { outcome: 'mismatch'; paid: false; status: PaymentStatus; session: PaymentSession; mismatches: PaymentMismatch[] }
  | {
      outcome: 'unknown';
      paid: false;
      status: undefined;
      /** `session_not_found`: 404, the reference is unknown or the session expired. `gateway_unavailable`: 5xx, the gateway did not answer. */
      reason: 'session_not_found' | 'gateway_unavailable';
      error: ApiError;
    };

/** Wait between looks of waitForPayment, seconds. */
const PAYMENT_POLL_SECONDS = 5;
/** Default longest wait of waitForPayment, seconds: a session's lifetime in the mock, after which an unpaid one is gone (404). */
const PAYMENT_WAIT_SECONDS = 30 * 60;

/**
 * Where a waited-for payment stands: the gateway status, `mismatch` (not the expected order's),
 * or why no status was read. Final: `completed`, `success`, `cancelled`, `mismatch`, `session_not_found`.
 * `failed` is not: the customer can retry on the same session (002 section 3).
 */
export type PaymentWaitStatus = PaymentStatus | 'mismatch' | 'session_not_found' | 'gateway_unavailable';

const FINAL_WAIT_STATUSES: readonly string[] = ['completed', 'success', 'cancelled', 'mismatch', 'session_not_found'];

const waitStatus = (v: PaymentVerification): PaymentWaitStatus => (v.outcome === 'unknown' ? v.reason : v.outcome === 'mismatch' ? 'mismatch' : v.status);

export interface WaitForPaymentOptions extends WaitOptions<PaymentVerification>, VerifyOptions {}

/** What waitForPayment ends with: `succeeded` only when `value.paid` (a paid session, and the expected order's when given). */
export type PaymentWaitResult = WaitResult<PaymentVerification, PaymentWaitStatus>;

/** `POST` and `GET /api/v1/developer/payments`. */
export class Payments extends Resource {
  /**
   * Creates a checkout session; send the customer to `data.checkout_url`. An `Idempotency-Key`
   * (at most 128 characters) is generated when you give none and reused by every retry, so a
   * dropped connection or a 502 never makes a second payment. Pass your own (e.g. your order id)
   * to make repeats across processes safe too. A reused key with another body is ConflictError.
   */
  async create(params: PaymentCreateParams, opts: IdempotentRequestOptions = {}): Promise<PaymentCreateResult> {
    const body = parseInput(PaymentCreateParamsSchema, params, 'payment');
    const { idempotencyKey: given, ...request } = opts;
    const idempotencyKey = given === undefined ? newIdempotencyKey() : parseInput(IdempotencyKeySchema, given, 'idempotencyKey');
    const report = this.core.reporter();
    let received = await this.core.send('POST', 'api/v1/developer/payments', { ...request, body, dedupeKey: idempotencyKey, report });
    // 202: the same key is in flight elsewhere (a retry of ours, another process). Its answer is coming: ask again with the same key.
    for (let retry = 0; received.response.status === 202 && retry < IN_PROGRESS_RETRIES; retry++) {
      await sleep(retryDelayMs(retry, received.response.headers), opts.signal);
      received = await this.core.send('POST', 'api/v1/developer/payments', { ...request, body, dedupeKey: idempotencyKey, report });
    }
    const { response, body: answer } = received;
    if (response.status === 202) {
      // The document gives a 202 no body: a message is read when there is one, and nothing else can fail the call.
      const message = InProgressBodySchema.safeParse(answer).data?.message;
      return { outcome: 'in_progress', status: 202, idempotencyKey, message };
    }
    const { data } = parseResponse(CreationBodySchema, answer, answer, response.headers);
    const replayed = response.status === 200 || response.headers.get('idempotent-replayed') === 'true';
    return { outcome: replayed ? 'replayed' : 'created', status: response.status, idempotencyKey, data };
  }

  /**
   * Looks the session up at the gateway (no API key needed) and synchronizes the service's
   * record, which sends the payment webhook. Use it to show a result after the redirect;
   * release goods on the signed webhook. `sessionRef` is the session or the gateway reference.
   * Pass `expected` (the order's total, currency and stored reference) so that `paid` means
   * paid for that order: the redirect's `sessionRef` is whatever the customer's browser sent.
   */
  async verify(sessionRef: string, opts: VerifyOptions = {}): Promise<PaymentVerification> {
    const ref = parseInput(SessionRefSchema, sessionRef, 'session reference');
    const { expected: given, ...request } = opts;
    const expected = given === undefined ? undefined : parseInput(PaymentExpectationSchema, given, 'expected');
    let session: PaymentSession;
    try {
      session = await this.core.get(`api/v1/developer/payments/${segment(ref)}`, { ...request, auth: false, schema: PaymentSessionSchema });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        return { outcome: 'unknown', paid: false, status: undefined, reason: 'session_not_found', error };
      }
      if (error instanceof ApiError && error.status >= 500) {
        return { outcome: 'unknown', paid: false, status: undefined, reason: 'gateway_unavailable', error };
      }
      throw error;
    }
    if (expected) {
      const mismatches = paymentMismatches(session, expected);
      if (mismatches.length > 0) return { outcome: 'mismatch', paid: false, status: session.status, session, mismatches };
    }
    return isPaidStatus(session.status)
      ? { outcome: 'paid', paid: true, status: session.status, session }
      : { outcome: 'not_paid', paid: false, status: session.status, session };
  }

  /**
   * Verifies every `interval` seconds (5) until the status is final (002 section 6: how a
   * payment with no redirect, such as a USSD prompt, is followed). Each look synchronizes the
   * service's record, which sends the webhook. `failed` keeps the wait going, since the
   * customer can retry; a 404 (unknown or expired session) ends it as `session_not_found`; a
   * gateway that does not answer is looked at again. Gives up with WaitTimeoutError after
   * `maxDuration` (30 minutes).
   */
  async waitForPayment(sessionRef: string, options: WaitForPaymentOptions = {}): Promise<PaymentWaitResult> {
    parseInput(SessionRefSchema, sessionRef, 'session reference');
    const { interval, maxDuration, onStatus, clock, ...request } = options;
    return poll({
      fetch: (signal) => this.verify(sessionRef, { ...request, signal }),
      status: waitStatus,
      isFinal: (status) => FINAL_WAIT_STATUSES.includes(status),
      succeeded: (status) => isPaidStatus(status),
      interval: () => interval ?? PAYMENT_POLL_SECONDS,
      defaultMaxDuration: PAYMENT_WAIT_SECONDS,
      maxDuration,
      onStatus,
      clock,
      signal: request.signal,
    });
  }

  /**
   * The session reference of the URL the customer came back on, read from `sessionRef`,
   * `session_ref` or `session_id`. Throws ValidationError when none is there.
   *
   * ```ts
   * const result = await checkout.payments.verify(checkout.payments.fromRedirect(req.originalUrl));
   * ```
   */
  fromRedirect(url: string | URL): string {
    const query = new URL(url, 'http://redirect.invalid').searchParams;
    for (const name of REDIRECT_REFERENCE_PARAMS) {
      const value = query.get(name)?.trim();
      if (value) return value;
    }
    throw new ValidationError(
      [{ path: [], message: `has no ${REDIRECT_REFERENCE_PARAMS.join(', ')} query parameter` }],
      'redirect URL',
    );
  }
}

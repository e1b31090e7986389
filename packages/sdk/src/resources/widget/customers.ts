import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { poll, type WaitOptions, type WaitResult } from '../../core/poll.js';
import { Resource, segment } from '../../core/resource.js';
import { openEnum, parseInput, pathSegment, responseObject, text } from '../../core/schema.js';

const isDate = (s: string) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** Customer (KYC) input, the same fields at the widget backend and the anchor (000 section 2). */
export const CustomerFieldsSchema = z.strictObject({
  first_name: text(),
  last_name: text(),
  email_address: z.email().max(254),
  /** `YYYY-MM-DD`. */
  birth_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD').refine(isDate, 'must be a real date').optional(),
  address: text().optional(),
  city: text().optional(),
  state_or_province: text().optional(),
  postal_code: text(20).optional(),
  /** ISO 3166-1 alpha-3, e.g. `GHA`. */
  address_country_code: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 3166-1 alpha-3 code, e.g. GHA').optional(),
  /** With the country code, e.g. `+233201234567`. */
  mobile_number: z.string().regex(/^\+\d{7,15}$/, 'must be a number with its country code, e.g. +233201234567').optional(),
});
export type CustomerCreateParams = z.input<typeof CustomerFieldsSchema>;

/** `ACCEPTED` (may transact), `PROCESSING` (under review), `NEEDS_INFO` (fields missing), `REJECTED` (final). */
export const CustomerStatusSchema = openEnum(['ACCEPTED', 'PROCESSING', 'NEEDS_INFO', 'REJECTED']);
export type CustomerStatus = z.infer<typeof CustomerStatusSchema>;

export const CustomerCreatedSchema = responseObject({ id: z.string(), status: CustomerStatusSchema });
export type CustomerCreated = z.infer<typeof CustomerCreatedSchema>;

/** A customer lookup: `provided_fields`, or, when NEEDS_INFO, `fields` naming what is missing. */
export const CustomerSchema = responseObject({
  id: z.string(),
  status: CustomerStatusSchema,
  /** Each provided field with its review status: ACCEPTED, PROCESSING, REJECTED (reason in `error`), VERIFICATION_REQUIRED. */
  provided_fields: z
    .record(
      z.string(),
      responseObject({
        type: z.string(),
        description: z.string(),
        status: openEnum(['ACCEPTED', 'PROCESSING', 'REJECTED', 'VERIFICATION_REQUIRED']),
        error: z.string().optional(),
      }),
    )
    .optional(),
  /** When NEEDS_INFO: the missing fields to submit. */
  fields: z.record(z.string(), responseObject({ type: z.string(), description: z.string() })).optional(),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const CustomerDeletedSchema = responseObject({ deleted: z.boolean() });
export type CustomerDeleted = z.infer<typeof CustomerDeletedSchema>;

export interface WaitForCustomerOptions extends WaitOptions<Customer>, RequestOptions {}

/** Polling interval of waitForCustomer, seconds. */
const CUSTOMER_POLL_SECONDS = 5;
/** Default longest wait of waitForCustomer, seconds. */
const CUSTOMER_WAIT_SECONDS = 30 * 60;

/** `POST /api/v1/widget/customer`, `GET` and `DELETE /api/v1/widget/customer/{id}`. */
export class Customers extends Resource {
  /** Creates a customer, or updates the same customer (same data plus missing fields). */
  async create(params: CustomerCreateParams, opts?: RequestOptions): Promise<CustomerCreated> {
    return this.core.post('api/v1/widget/customer', {
      ...opts,
      body: parseInput(CustomerFieldsSchema, params),
      schema: CustomerCreatedSchema,
    });
  }

  async get(id: string, opts?: RequestOptions): Promise<Customer> {
    return this.core.get(this.#path(id), { ...opts, schema: CustomerSchema });
  }

  /** Removes the customer from the anchor and the widget store; the id is unusable afterwards. */
  async delete(id: string, opts?: RequestOptions): Promise<CustomerDeleted> {
    return this.core.delete(this.#path(id), { ...opts, schema: CustomerDeletedSchema });
  }

  /**
   * Polls the customer while PROCESSING or NEEDS_INFO and resolves on ACCEPTED or REJECTED with
   * `{ succeeded, status, value }`: `succeeded` only for ACCEPTED, the only status that may
   * transact; `value` is the customer. `onStatus` hears each change.
   */
  async waitForCustomer(id: string, options: WaitForCustomerOptions = {}): Promise<WaitResult<Customer, CustomerStatus>> {
    const { interval = CUSTOMER_POLL_SECONDS, maxDuration, onStatus, clock, ...request } = options;
    return poll({
      fetch: (signal) => this.get(id, { ...request, signal }),
      status: (customer) => customer.status,
      isFinal: (status) => status === 'ACCEPTED' || status === 'REJECTED',
      succeeded: (status) => status === 'ACCEPTED',
      interval: () => interval,
      defaultMaxDuration: CUSTOMER_WAIT_SECONDS,
      maxDuration,
      onStatus,
      clock,
      signal: request.signal,
    });
  }

  #path(id: string) {
    return `api/v1/widget/customer/${segment(parseInput(pathSegment, id, 'customer id'))}`;
  }
}

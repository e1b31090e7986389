/**
 * Customers (KYC), shared by the widget backend (`/api/v1/widget/customer`) and the anchor
 * (SEP-12 `/customer`): one record, one id, usable on both. Each has an owner merchant (or
 * none, until a merchant adopts it) and the SEP-10 account that created it at the anchor (or
 * none); who reaches it where is in docs/choices.md, "customer ownership" and "SEP-12 access".
 *
 * Test-mode triggers (documented in docs/guides/testing-with-the-mock.md): the `last_name` decides the
 * review outcome, so merchants can reach every status deterministically.
 *   - `Processing`: PROCESSING, then ACCEPTED after PROCESSING_SECONDS of clock time;
 *   - `NeedsInfo`: NEEDS_INFO until every field of NEEDS_INFO_FIELDS is provided, then ACCEPTED;
 *   - `Rejected`: REJECTED (permanent);
 *   - anything else: ACCEPTED.
 * `PUT /_mock/customers/{id}/status` sets any status directly.
 */
import { z } from 'zod';
import { isoNano } from './clock.js';
import type { MockContext } from './context.js';
import { setStatus } from './history.js';
import { HttpError, notFound } from './http/errors.js';
import type { CustomerRecord, CustomerStatus } from './store.js';

export const PROCESSING_SECONDS = 60;

/**
 * The `last_name` values that choose a new customer's KYC review (any letter case); any other
 * name is ACCEPTED. Beside them, TEST_PHONES (mobile-money.ts) choose a prompt's outcome.
 */
export const KYC_TRIGGERS = { processing: 'Processing', needsInfo: 'NeedsInfo', rejected: 'Rejected' } as const;

/** The input fields of 000 section 2, with what GET /customer reports of each. */
export const CUSTOMER_FIELDS = {
  first_name: { type: 'string', description: 'given name' },
  last_name: { type: 'string', description: 'family name' },
  email_address: { type: 'string', description: 'e-mail address' },
  birth_date: { type: 'date', description: 'date of birth, YYYY-MM-DD' },
  address: { type: 'string', description: 'street address' },
  city: { type: 'string', description: 'city' },
  state_or_province: { type: 'string', description: 'state or province' },
  postal_code: { type: 'string', description: 'postal code' },
  address_country_code: { type: 'string', description: 'country, ISO 3166-1 alpha-3' },
  mobile_number: { type: 'string', description: 'mobile number with country code' },
} as const;

export type CustomerField = keyof typeof CUSTOMER_FIELDS;

/** What a `NeedsInfo` customer must add before approval. */
export const NEEDS_INFO_FIELDS: CustomerField[] = ['birth_date', 'address', 'city', 'address_country_code', 'mobile_number'];

const text = z.string().trim().min(1).max(200);
const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

const optionalFields = {
  birth_date: z.string().refine(isDate, 'must be a date as YYYY-MM-DD').optional(),
  address: text.optional(),
  city: text.optional(),
  state_or_province: text.optional(),
  postal_code: z.string().trim().min(1).max(20).optional(),
  address_country_code: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 3166-1 alpha-3 code').optional(),
  mobile_number: z.string().regex(/^\+\d{7,15}$/, 'must be a number with country code, e.g. +233201234567').optional(),
};

/** Customer input: first_name, last_name and email_address required; unknown keys are dropped. */
export const CustomerInputSchema = z.object({
  first_name: text,
  last_name: text,
  email_address: z.email().max(254),
  ...optionalFields,
});
export type CustomerInput = z.infer<typeof CustomerInputSchema>;

/** SEP-12 PUT: a known `id` may send only the fields it adds. */
export const CustomerUpdateSchema = z.object({
  first_name: text.optional(),
  last_name: text.optional(),
  email_address: z.email().max(254).optional(),
  ...optionalFields,
});

function reviewStatus(fields: Record<string, string>): CustomerStatus {
  switch ((fields.last_name ?? '').toLowerCase()) {
    case KYC_TRIGGERS.rejected.toLowerCase():
      return 'REJECTED';
    case KYC_TRIGGERS.processing.toLowerCase():
      return 'PROCESSING';
    case KYC_TRIGGERS.needsInfo.toLowerCase():
      return NEEDS_INFO_FIELDS.every((f) => fields[f]) ? 'ACCEPTED' : 'NEEDS_INFO';
    default:
      return 'ACCEPTED';
  }
}

const sameIdentity = (c: CustomerRecord, input: { first_name?: string; last_name?: string; email_address?: string }) =>
  c.fields.first_name === input.first_name &&
  c.fields.last_name === input.last_name &&
  c.fields.email_address?.toLowerCase() === input.email_address?.toLowerCase();

function defined(input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/**
 * Creates a customer, or updates the same customer (same first name, last name and e-mail)
 * of the same owner: a repeated create "with the same data plus the missing fields" is
 * idempotent. The owner is the merchant (`merchantId`), or, for a customer made at the anchor
 * without merchant fields, the SEP-10 account that made it (`account`, with no merchant).
 */
export function upsertCustomer(
  ctx: MockContext,
  merchantId: string | null,
  input: CustomerInput,
  account: string | null = null,
): { customer: CustomerRecord; created: boolean } {
  const sameOwner = (c: CustomerRecord) => (merchantId ? c.merchant_id === merchantId : c.merchant_id === null && c.account === account);
  const existing = [...ctx.store.customers.values()].find((c) => sameOwner(c) && sameIdentity(c, input));
  if (existing) return { customer: updateCustomer(ctx, existing, input), created: false };
  const now = isoNano(ctx.clock.now());
  const fields = defined(input);
  const customer: CustomerRecord = {
    id: ctx.random.uuid(),
    merchant_id: merchantId,
    account,
    fields,
    status: reviewStatus(fields),
    verified_phones: [],
    created_at: now,
    updated_at: now,
  };
  ctx.store.customers.set(customer.id, customer);
  if (customer.status === 'PROCESSING') scheduleReview(ctx, customer.id);
  return { customer, created: true };
}

/** Adds or changes fields. Only a NEEDS_INFO record is re-reviewed; other outcomes stand. */
export function updateCustomer(ctx: MockContext, customer: CustomerRecord, input: Partial<CustomerInput>): CustomerRecord {
  customer.fields = { ...customer.fields, ...defined(input) };
  customer.updated_at = isoNano(ctx.clock.now());
  if (customer.status === 'NEEDS_INFO') setStatus(customer, reviewStatus(customer.fields), 'fields_added', ctx.clock.now());
  return customer;
}

function scheduleReview(ctx: MockContext, id: string) {
  ctx.clock.schedule(ctx.clock.now() + PROCESSING_SECONDS * 1000, () => {
    const c = ctx.store.customers.get(id);
    if (c?.status === 'PROCESSING') setCustomerStatus(ctx, c, 'ACCEPTED', 'review_done');
  });
}

/**
 * The customer `id` as the widget backend lets merchant `merchantId` use it: its own, or one
 * made at the anchor without merchant fields (no owner yet; see {@link adoptCustomer}).
 * Another merchant's customer, or a deleted one, is 404 NOT_FOUND.
 */
export function findMerchantCustomer(ctx: MockContext, merchantId: string, id: string): CustomerRecord {
  const customer = ctx.store.customers.get(id);
  if (!customer || (customer.merchant_id !== null && customer.merchant_id !== merchantId)) throw notFound('customer');
  return customer;
}

/** Like findMerchantCustomer, and 403 KYC_NOT_APPROVED unless the customer is ACCEPTED. */
export function findAcceptedCustomer(ctx: MockContext, merchantId: string, id: string): CustomerRecord {
  return requireAccepted(findMerchantCustomer(ctx, merchantId, id));
}

/** 403 KYC_NOT_APPROVED unless the customer is ACCEPTED. */
export function requireAccepted(customer: CustomerRecord): CustomerRecord {
  if (customer.status !== 'ACCEPTED') {
    throw new HttpError(403, 'KYC_NOT_APPROVED', `customer KYC status is ${customer.status}, not ACCEPTED`);
  }
  return customer;
}

/**
 * A customer without an owner becomes the merchant's on its first successful use with the
 * merchant's secret key (docs/choices.md, "customer ownership"). Returns an undo for a request
 * that is refused after this point.
 */
export function adoptCustomer(customer: CustomerRecord, merchantId: string): () => void {
  if (customer.merchant_id !== null) return () => {};
  customer.merchant_id = merchantId;
  return () => {
    customer.merchant_id = null;
  };
}

/** Deletes the customer with its widget sessions, so that the id is unusable afterwards. */
export function deleteCustomer(ctx: MockContext, customer: CustomerRecord): void {
  ctx.store.customers.delete(customer.id);
  for (const [id, session] of ctx.store.sessions) if (session.user_id === customer.id) ctx.store.sessions.delete(id);
}

/** Sets the review outcome directly (control calls, and the end of PROCESSING). */
export function setCustomerStatus(ctx: MockContext, customer: CustomerRecord, status: CustomerStatus, event = 'control') {
  setStatus(customer, status, event, ctx.clock.now());
  customer.updated_at = isoNano(ctx.clock.now());
}

/**
 * The customer lookup of 000 section 2: `id`, `status`, and `provided_fields`, or, when
 * NEEDS_INFO, `fields` with what is missing. A phone not yet OTP-verified is VERIFICATION_REQUIRED.
 */
export function customerView(c: CustomerRecord) {
  if (c.status === 'NEEDS_INFO') {
    const missing = NEEDS_INFO_FIELDS.filter((f) => !c.fields[f]);
    return {
      id: c.id,
      status: c.status,
      fields: Object.fromEntries(missing.map((f) => [f, { type: CUSTOMER_FIELDS[f].type, description: CUSTOMER_FIELDS[f].description }])),
    };
  }
  const provided_fields = Object.fromEntries(
    Object.keys(c.fields)
      .filter((f): f is CustomerField => f in CUSTOMER_FIELDS)
      .map((f) => {
        const { type, description } = CUSTOMER_FIELDS[f];
        const status =
          c.status === 'REJECTED'
            ? 'REJECTED'
            : c.status === 'PROCESSING'
              ? 'PROCESSING'
              : f === 'mobile_number' && !c.verified_phones.includes(c.fields[f]!)
                ? 'VERIFICATION_REQUIRED'
                : 'ACCEPTED';
        return [f, { type, description, status, ...(status === 'REJECTED' ? { error: 'customer was rejected by compliance review' } : {}) }];
      }),
  );
  return { id: c.id, status: c.status, provided_fields };
}

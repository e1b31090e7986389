import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource, segment } from '../../core/resource.js';
import { openEnum, parseInput, pathSegment, responseObject, text } from '../../core/schema.js';
import { CustomerFieldsSchema, CustomerStatusSchema } from '../widget/customers.js';

/** SEP-12 PUT: a new customer's fields, or, with `id`, the fields to add or change. */
export const AnchorCustomerPutParamsSchema = z.union([
  CustomerFieldsSchema,
  CustomerFieldsSchema.partial().extend({ id: pathSegment }),
]);
export type AnchorCustomerPutParams = z.input<typeof AnchorCustomerPutParamsSchema>;

/** A field SEP-12 asks for (`fields`): its type (`string`, `binary`, `number`, `date`), what it is, its choices, whether it may be left out. */
const AnchorCustomerFieldSchema = responseObject({
  type: z.string(),
  description: z.string(),
  choices: z.array(z.string()).optional(),
  optional: z.boolean().optional(),
});

/**
 * SEP-12's `GET /customer`: `status` (`message` says why when REJECTED), the fields given
 * (`provided_fields`, each with its own `status` when the anchor shows it, `error` when
 * REJECTED) and, when NEEDS_INFO, the fields still needed (`fields`).
 */
export const AnchorCustomerSchema = responseObject({
  id: z.string(),
  status: CustomerStatusSchema,
  message: z.string().optional(),
  provided_fields: z
    .record(
      z.string(),
      AnchorCustomerFieldSchema.extend({
        /** ACCEPTED, PROCESSING, REJECTED (reason in `error`), VERIFICATION_REQUIRED; SEP-12 lets an anchor leave it out. */
        status: openEnum(['ACCEPTED', 'PROCESSING', 'REJECTED', 'VERIFICATION_REQUIRED']).optional(),
        error: z.string().optional(),
      }),
    )
    .optional(),
  fields: z.record(z.string(), AnchorCustomerFieldSchema).optional(),
});
export type AnchorCustomer = z.infer<typeof AnchorCustomerSchema>;

export const AnchorCustomerIdSchema = responseObject({ id: z.string() });
export type AnchorCustomerId = z.infer<typeof AnchorCustomerIdSchema>;

export const AnchorCustomerDeletedSchema = responseObject({ message: z.string().optional() });
export type AnchorCustomerDeleted = z.infer<typeof AnchorCustomerDeletedSchema>;

/**
 * The five merchant fields (000 section 4): how a merchant's backend acts for one of its
 * customers at the anchor. The session comes from `widget.sessions.create({ user_id })` with the
 * secret key, and must be for this very customer (`user_id`).
 */
export const AnchorMerchantFieldsSchema = z.strictObject({
  merchant_id: text(100),
  session_id: text(100),
  session_token: text(100),
  /** The merchant's public key. */
  api_key: z.string().max(200).regex(/_public_[A-Za-z0-9]+$/, 'must be the public key (xx_public_…), never the secret key'),
  /** The customer the session is for. */
  user_id: text(100),
});
export type AnchorMerchantFields = z.input<typeof AnchorMerchantFieldsSchema>;

export interface AnchorCustomerOptions extends RequestOptions {
  /**
   * The merchant fields, for a customer of the merchant that this SEP-10 account did not create
   * (a widget customer): sent as query parameters (GET, DELETE) or body fields (PUT). On a PUT
   * without `id`, the new customer is the merchant's. Without them, the account reaches only
   * the customers it created itself.
   */
  merchant?: AnchorMerchantFields;
}

/**
 * SEP-12 at `{anchor_url}/customer`: the same records and ids as the widget backend's customers.
 * The signed-in account reaches the customers it created; a merchant's other customers need
 * the merchant fields (`opts.merchant`); any other id is NotFoundError, as an unknown one.
 */
export class AnchorCustomers extends Resource {
  /** Creates or updates a customer; answers its id only (202). */
  async put(params: AnchorCustomerPutParams, opts: AnchorCustomerOptions = {}): Promise<AnchorCustomerId> {
    const { merchant, ...request } = opts;
    return this.core.put('customer', {
      ...request,
      unwrap: false,
      body: { ...parseInput(AnchorCustomerPutParamsSchema, params), ...merchantFields(merchant) },
      schema: AnchorCustomerIdSchema,
    });
  }

  /** The customer's status and fields (NEEDS_INFO: the missing `fields`; REJECTED: `message`). */
  async get(id: string, opts: AnchorCustomerOptions = {}): Promise<AnchorCustomer> {
    const { merchant, ...request } = opts;
    return this.core.get('customer', {
      ...request,
      unwrap: false,
      query: { id: parseInput(pathSegment, id, 'customer id'), ...merchantFields(merchant) },
      schema: AnchorCustomerSchema,
    });
  }

  /**
   * Removes the customer; the id is unusable afterwards, at the widget backend too. Given the
   * signed-in Stellar account (`G…`) instead of an id, removes every customer that account
   * created (SEP-12 `DELETE /customer/{account}`).
   */
  async delete(id: string, opts: AnchorCustomerOptions = {}): Promise<AnchorCustomerDeleted> {
    const { merchant, ...request } = opts;
    return this.core.delete(`customer/${segment(parseInput(pathSegment, id, 'customer id'))}`, {
      ...request,
      unwrap: false,
      ...(merchant ? { query: merchantFields(merchant) } : {}),
      schema: AnchorCustomerDeletedSchema,
    });
  }
}

/** The merchant fields checked before sending (ValidationError), or none. */
export const merchantFields = (merchant: AnchorMerchantFields | undefined) =>
  merchant ? parseInput(AnchorMerchantFieldsSchema, merchant, 'merchant fields') : {};

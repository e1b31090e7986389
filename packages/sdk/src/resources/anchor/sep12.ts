import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource, segment } from '../../core/resource.js';
import { parseInput, pathSegment } from '../../core/schema.js';
import { CustomerFieldsSchema, CustomerSchema, type Customer } from '../widget/customers.js';

/** SEP-12 PUT: a new customer's fields, or, with `id`, the fields to add or change. */
export const AnchorCustomerPutParamsSchema = z.union([
  CustomerFieldsSchema,
  CustomerFieldsSchema.partial().extend({ id: pathSegment }),
]);
export type AnchorCustomerPutParams = z.input<typeof AnchorCustomerPutParamsSchema>;

export const AnchorCustomerIdSchema = z.looseObject({ id: z.string() });
export type AnchorCustomerId = z.infer<typeof AnchorCustomerIdSchema>;

export const AnchorCustomerDeletedSchema = z.looseObject({ message: z.string().optional() });
export type AnchorCustomerDeleted = z.infer<typeof AnchorCustomerDeletedSchema>;

/** SEP-12 at `{anchor_url}/customer`: the same records and ids as the widget backend's customers. */
export class AnchorCustomers extends Resource {
  /** Creates or updates a customer; answers its id only (202). */
  async put(params: AnchorCustomerPutParams, opts?: RequestOptions): Promise<AnchorCustomerId> {
    return this.core.put('customer', {
      ...opts,
      unwrap: false,
      body: parseInput(AnchorCustomerPutParamsSchema, params),
      schema: AnchorCustomerIdSchema,
    });
  }

  /** The customer's status and fields (NEEDS_INFO: the missing `fields`). */
  async get(id: string, opts?: RequestOptions): Promise<Customer> {
    return this.core.get('customer', { ...opts, unwrap: false, query: { id: parseInput(pathSegment, id, 'customer id') }, schema: CustomerSchema });
  }

  /** Removes the customer; the id is unusable afterwards. */
  async delete(id: string, opts?: RequestOptions): Promise<AnchorCustomerDeleted> {
    return this.core.delete(`customer/${segment(parseInput(pathSegment, id, 'customer id'))}`, {
      ...opts,
      unwrap: false,
      schema: AnchorCustomerDeletedSchema,
    });
  }
}

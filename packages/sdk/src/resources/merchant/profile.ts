import type { RequestOptions } from '../../core/http.js';
import { Resource } from '../../core/resource.js';
import { MerchantSchema, type Merchant } from './auth.js';

/** `GET /api/v1/merchant/profile`. */
export class Profile extends Resource {
  /** The logged-in merchant's account. */
  async get(opts?: RequestOptions): Promise<Merchant> {
    return this.core.get('api/v1/merchant/profile', { ...opts, schema: MerchantSchema });
  }
}

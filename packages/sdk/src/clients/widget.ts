import { withResponses, type WithResponses } from '../core/api-promise.js';
import { assertSecretKey, assertServerSide } from '../core/credentials.js';
import { HttpCore, type ClientOptions } from '../core/http.js';
import { Config } from '../resources/widget/config.js';
import { Customers } from '../resources/widget/customers.js';
import { Interactive } from '../resources/widget/interactive.js';
import { WidgetOrders } from '../resources/widget/orders.js';
import { Sessions } from '../resources/widget/session.js';

export interface WidgetClientOptions extends ClientOptions {
  /** The widget backend, `{base_url}`. */
  baseUrl: string;
  /** The secret key (`xx_secret_…`), sent as `X-API-Key`. Server-side only: refused in a browser. */
  secretKey: string;
  /** The public key (`xx_public_…`) the interactive calls carry in `api_key`, unless a call gives its own. */
  publicKey?: string;
}

/**
 * The widget backend with the secret key: widget config, customers (KYC), sessions and the
 * interactive deposit (buy) and withdraw (sell) flows.
 *
 * ```ts
 * const widget = new WidgetClient({ baseUrl, secretKey: process.env.SIKARAMP_SECRET_KEY!, publicKey });
 * const { id } = await widget.customers.create({ first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' });
 * const { succeeded, value: customer } = await widget.customers.waitForCustomer(id);
 * const { url } = await widget.interactive.deposit({ user_id: id, fiat_amount: 150 });
 * ```
 */
export class WidgetClient {
  readonly config: WithResponses<Config>;
  readonly sessions: WithResponses<Sessions>;
  readonly customers: WithResponses<Customers>;
  readonly interactive: WithResponses<Interactive>;
  /** Confirms an interactive order with the customer's session (`POST /api/v1/widget/orders`). */
  readonly orders: WithResponses<WidgetOrders>;

  constructor(options: WidgetClientOptions) {
    const { secretKey, publicKey, ...rest } = options;
    assertSecretKey(secretKey, 'secretKey');
    assertServerSide('The secret key', options.dangerouslyAllowBrowser);
    const core = new HttpCore({ ...rest, auth: { headers: () => ({ 'X-API-Key': secretKey }) } });
    this.config = withResponses(new Config(core));
    this.sessions = withResponses(new Sessions(core));
    this.customers = withResponses(new Customers(core));
    this.interactive = withResponses(new Interactive(core, publicKey));
    this.orders = withResponses(new WidgetOrders(core));
  }
}

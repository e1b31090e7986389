import { withResponses, type WithResponses } from '../core/api-promise.js';
import { assertSecretKey, assertServerSide } from '../core/credentials.js';
import { ApiError } from '../core/errors.js';
import { HttpCore, type ClientOptions } from '../core/http.js';
import { RampKyc } from '../resources/ramp/kyc.js';
import { DuplicateOrderError, RampOrders } from '../resources/ramp/orders.js';

export interface RampClientOptions extends ClientOptions {
  /** The ramp API, `{ramp_base_url}` (sandbox and production differ), e.g. the mock server's origin. */
  baseUrl: string;
  /** The secret API key, sent as `Authorization: Bearer`. Server-side only: refused in a browser. */
  secretKey: string;
}

/** The ramp API's errors: its envelope's codes, with `DUPLICATE_ORDER` as DuplicateOrderError. */
function rampError(status: number, body: unknown, headers: Headers): ApiError {
  const error = ApiError.from(status, body, headers);
  return error.status === 409 && error.code === 'DUPLICATE_ORDER' ? new DuplicateOrderError(status, body, headers) : error;
}

/**
 * The ramp order API (GHS by Mobile Money to and from USDC on Stellar): phone KYC, orders,
 * and waiting for an order's outcome.
 *
 * ```ts
 * const ramp = new RampClient({ baseUrl: process.env.RAMP_BASE_URL!, secretKey: process.env.SIKARAMP_SECRET_KEY! });
 * const { kyc_id } = await ramp.kyc.initiate({ first_name: 'Kwame', last_name: 'Mensah', phone: '0241234567', provider_name: 'MTN' });
 * await ramp.kyc.verify({ kyc_id, otp_code });
 * const order = await ramp.orders.create({ type: 'onramp', fiat_amount: 100, destination_wallet, user });
 * const { succeeded } = await ramp.orders.waitForOrder(order.reference);
 * ```
 */
export class RampClient {
  readonly kyc: WithResponses<RampKyc>;
  readonly orders: WithResponses<RampOrders>;

  constructor(options: RampClientOptions) {
    const { secretKey, ...rest } = options;
    assertSecretKey(secretKey, 'secretKey');
    assertServerSide('The secret key', options.dangerouslyAllowBrowser);
    const core = new HttpCore({
      ...rest,
      auth: { headers: () => ({ authorization: `Bearer ${secretKey}` }) },
      idempotencyHeader: 'X-Idempotency-Key',
      errorFrom: rampError,
    });
    this.kyc = withResponses(new RampKyc(core));
    this.orders = withResponses(new RampOrders(core));
  }
}

/**
 * Fixtures in one call, made the way a merchant's own code would make them: through the
 * public routes (sent to this backend's own handlers, so no listener is needed) plus the
 * operator's control calls. Nothing is read out of the store but what the service hands the
 * merchant once (key texts, webhook secrets); the operator's steps and the code sent to a phone
 * go through the control routes.
 *   POST /_mock/fixtures/merchant {webhook_url?, domains?}       an active merchant, ramp enabled, with keys
 *   POST /_mock/fixtures/customer {secret_key, first_name?, last_name?, email_address?}   an ACCEPTED customer
 *   POST /_mock/fixtures/verified-phone {secret_key, phone?, provider?}   a phone that passed ramp KYC
 *   POST /_mock/fixtures/checkout {webhook_url?}                 a checkout organization, key and endpoint
 */
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../context.js';
import type { CustomerStatus } from '../store.js';
import { parse, readBody, readOptionalBody } from '../http/body.js';
import { HttpError, type ErrorCode } from '../http/errors.js';
import { route } from '../http/respond.js';

/** Sends a request to this backend's own handlers. */
export type Dispatch = (request: Request) => Promise<Response | undefined>;

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);
const MerchantParams = z.object({
  /** Where order webhooks go; absent leaves the webhook unset. */
  webhook_url: HttpUrl.optional(),
  /** The public key's allowed browser origins. Default none. */
  domains: z.array(z.string().min(1)).max(20).default([]),
});
const SecretKey = z.object({ secret_key: z.string().min(1) });
const CustomerParams = z.object({
  first_name: z.string().min(1).max(100).optional(),
  last_name: z.string().min(1).max(100).optional(),
  email_address: z.email().max(254).optional(),
});
const PhoneParams = z.object({
  phone: z.string().regex(/^0\d{9}$/, 'must be a local number, 0 and nine digits').optional(),
  provider: z.string().min(1).max(40).default('MTN'),
});
const CheckoutParams = z.object({ webhook_url: HttpUrl.optional() });

export interface MerchantFixture {
  id: string;
  email: string;
  password: string;
  /** The dashboard's bearer token (24 h of clock time). */
  access_token: string;
  secret_key: string;
  public_key: string;
  /** The order webhook's URL and signing secret, when `webhook_url` was given. */
  webhook: { url: string; secret: string } | null;
}

/** The customer as `GET /api/v1/widget/customer/{id}` shows it. */
export interface CustomerFixture {
  id: string;
  status: CustomerStatus;
  [field: string]: unknown;
}

export interface PhoneFixture {
  /** Local format, e.g. `0241234567`. */
  phone: string;
  kyc_id: string;
  provider: string;
}

export interface CheckoutFixture {
  key: string;
  key_id: string;
  organization_id: string;
  /** The subscribed endpoint and its signing secret, when `webhook_url` was given. */
  webhook: { id: string; url: string; secret: string } | null;
}

export function fixturesControl(ctx: MockContext, dispatch: Dispatch) {
  /** A JSON call to one of the mock's surfaces; a refusal becomes the HttpError it answered. */
  async function send(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const sent = body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } };
    const response = await dispatch(new Request(url, { method, headers, ...sent }));
    const json: any = await response?.json().catch(() => undefined);
    if (!response?.ok) {
      const code = (typeof json?.error === 'string' ? json.error : json?.error?.code) ?? 'INTERNAL_ERROR';
      const message = json?.error?.message ?? json?.message ?? 'failed';
      throw new HttpError(response?.status ?? 500, code as ErrorCode, `fixture: ${method} ${new URL(url).pathname}: ${message}`);
    }
    // Service routes wrap what they answer in `data`; the control routes called here answer it plain.
    return json && typeof json === 'object' && 'data' in json ? json.data : json;
  }
  const base = ctx.urls.base;
  const control = ctx.urls.control;

  const api = {
    /** A registered, KYB-approved merchant activated for ramp, with a secret and a public key. */
    async merchant(params: z.input<typeof MerchantParams> = {}): Promise<MerchantFixture> {
      const { webhook_url, domains } = parse(MerchantParams, params);
      const email = `merchant-${ctx.random.hex(6)}@example.com`;
      const password = ctx.secrets.hex(12);
      const { id } = await send('POST', `${base}/api/v1/merchant/register`, { name: 'Test Shop', legal_name: 'Test Shop Ltd', email, password });
      const { access_token } = await send('POST', `${base}/api/v1/merchant/login`, { email, password });
      const auth = { authorization: `Bearer ${access_token}` };
      await send('POST', `${control}/merchants/${id}/kyb/approve`);
      await send('POST', `${control}/merchants/${id}/ramp/enable`);
      const secret = await send('POST', `${base}/api/v1/merchant/apikeys`, { key_type: 'secret', domains: [] }, auth);
      const pub = await send('POST', `${base}/api/v1/merchant/apikeys`, { key_type: 'public', domains }, auth);
      const webhook = webhook_url ? await send('PUT', `${base}/api/v1/merchant/webhook`, { url: webhook_url }, auth) : null;
      return {
        id,
        email,
        password,
        access_token,
        secret_key: secret.key,
        public_key: pub.key,
        webhook: webhook && { url: webhook.url, secret: webhook.secret },
      };
    },
    /** A customer of `merchant` whose KYC is ACCEPTED (a `last_name` trigger is overruled), as the lookup shows it. */
    async customer(merchant: z.input<typeof SecretKey>, params: z.input<typeof CustomerParams> = {}): Promise<CustomerFixture> {
      const key = { 'x-api-key': parse(SecretKey, merchant).secret_key };
      const given = parse(CustomerParams, params);
      const input = {
        first_name: given.first_name ?? 'Ama',
        last_name: given.last_name ?? 'Mensah',
        email_address: given.email_address ?? `customer-${ctx.random.hex(6)}@example.com`,
      };
      const { id, status } = await send('POST', `${base}/api/v1/widget/customer`, input, key);
      if (status !== 'ACCEPTED') await send('PUT', `${control}/customers/${id}/status`, { status: 'ACCEPTED' });
      return send('GET', `${base}/api/v1/widget/customer/${id}`, undefined, key);
    },
    /** A phone that passed the ramp API's phone KYC for `merchant`: initiate, read the code sent, verify. */
    async verifiedPhone(merchant: z.input<typeof SecretKey>, params: z.input<typeof PhoneParams> = {}): Promise<PhoneFixture> {
      const auth = { authorization: `Bearer ${parse(SecretKey, merchant).secret_key}` };
      const { phone = `024${ctx.random.digits(7)}`, provider } = parse(PhoneParams, params);
      const ramp = ctx.urls.ramp[0]!;
      const { kyc_id } = await send('POST', `${ramp}/api/v1/ramp/kyc/initiate`, { first_name: 'Kwame', last_name: 'Mensah', phone, provider_name: provider }, auth);
      const { code } = await send('GET', `${control}/otp?phone=${encodeURIComponent(phone)}`);
      await send('POST', `${ramp}/api/v1/ramp/kyc/verify`, { kyc_id, otp_code: code }, auth);
      return { phone, kyc_id, provider };
    },
    /** A new checkout organization with a current key, and a subscribed webhook endpoint when `webhook_url` is given. */
    async checkout(params: z.input<typeof CheckoutParams> = {}): Promise<CheckoutFixture> {
      const { webhook_url } = parse(CheckoutParams, params);
      const { key, key_id, organization_id } = await send('POST', `${control}/checkout/keys`, {});
      const webhook = webhook_url
        ? await send('POST', `${ctx.urls.checkout}/api/v1/developer/webhooks`, { url: webhook_url }, { authorization: `Bearer ${key}` })
        : null;
      return { key, key_id, organization_id, webhook: webhook && { id: webhook.id, url: webhook.url, secret: webhook.secret } };
    },
  };

  const handlers = [
    http.post(`${control}/fixtures/merchant`, route(ctx, 'envelope', async ({ request }) => created(await api.merchant(await readOptionalBody(request, MerchantParams))))),
    http.post(
      `${control}/fixtures/customer`,
      route(ctx, 'envelope', async ({ request }) => {
        const { secret_key, ...params } = await readBody(request, SecretKey.extend(CustomerParams.shape));
        return created(await api.customer({ secret_key }, params));
      }),
    ),
    http.post(
      `${control}/fixtures/verified-phone`,
      route(ctx, 'envelope', async ({ request }) => {
        const { secret_key, ...params } = await readBody(request, SecretKey.extend(PhoneParams.shape));
        return created(await api.verifiedPhone({ secret_key }, params));
      }),
    ),
    http.post(`${control}/fixtures/checkout`, route(ctx, 'envelope', async ({ request }) => created(await api.checkout(await readOptionalBody(request, CheckoutParams))))),
  ];
  return { api, handlers };
}

const created = (body: object) => HttpResponse.json(body, { status: 201 });

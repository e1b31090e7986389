/**
 * `@sikaramp/mock-server/client`: `backend.control` over HTTP, for tests that drive a mock
 * running in another process (`sikaramp-mock`, Playwright's globalSetup, other languages'
 * tests through the same routes). Only `fetch`: no msw, so it loads in a browser too.
 *
 * ```ts
 * import { createControlClient } from '@sikaramp/mock-server/client';
 * const control = createControlClient({ baseUrl: 'http://127.0.0.1:4010' });
 * await control.clock.advance(60);
 * ```
 */
import type { Control } from './control/index.js';
import { HttpError, type ErrorCode } from './http/errors.js';

/** Each call of `T` as it is over the network: the same arguments, the result a promise. */
export type Remote<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : Remote<T[K]>;
};

/** The client's shape is derived from `backend.control`'s, so that the two cannot drift. */
export type ControlClient = Remote<Control>;

export interface ControlClientOptions {
  /** The mock's origin, e.g. `http://127.0.0.1:4010` (the control API is under `/_mock`). */
  baseUrl: string;
  /** The mock's `--control-token`, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** A fetch of your own. Default: the global `fetch`. */
  fetch?: typeof fetch;
}

export { HttpError, type ErrorCode };

/** A client of the control API; a refused call rejects with an `HttpError` (status, code), as in-process. */
export function createControlClient(options: ControlClientOptions): ControlClient {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/_mock`;
  const fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  const id = encodeURIComponent;

  async function call<T = any>(method: 'GET' | 'POST' | 'PUT', path: string, body?: object): Promise<T> {
    const headers: Record<string, string> = {};
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetcher(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      const error = parsed?.error;
      throw new HttpError(res.status, (error?.code ?? 'INTERNAL_ERROR') as ErrorCode, error?.message ?? `control ${method} ${path} answered ${res.status}`);
    }
    return parsed as T;
  }
  const query = (params: Record<string, string | undefined>) => {
    const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
    return q ? `?${q}` : '';
  };
  const data = async <T>(promise: Promise<{ data: T }>) => (await promise).data;

  const client: ControlClient = {
    reset: async (options = {}) => {
      await call('POST', '/reset', options);
    },
    clock: {
      now: async () => (await call('GET', '/clock')).now,
      advance: async (seconds) => (await call('POST', '/clock/advance', { seconds })).now,
    },
    merchants: {
      approveKyb: (merchantId) => call('POST', `/merchants/${id(merchantId)}/kyb/approve`),
      rejectKyb: (merchantId, reason) => call('POST', `/merchants/${id(merchantId)}/kyb/reject`, { reason }),
      enableRamp: (merchantId) => call('POST', `/merchants/${id(merchantId)}/ramp/enable`),
    },
    customers: {
      setStatus: (customerId, status) => call('PUT', `/customers/${id(customerId)}/status`, { status }),
    },
    webhooks: {
      list: (filter = {}) => data(call('GET', `/webhooks${query({ merchant_id: filter.merchantId, event: filter.event })}`)),
      get: (deliveryId) => call('GET', `/webhooks/${id(deliveryId)}`),
      fire: (input) => data(call('POST', '/webhooks/fire', input)),
      redeliver: (deliveryId) => call('POST', `/webhooks/${id(deliveryId)}/redeliver`),
      // The listing settles every attempt under way before it answers.
      settle: async () => {
        await call('GET', '/webhooks');
      },
    },
    rails: {
      approvePrompt: (promptId) => call('POST', `/mobile-money/${id(promptId)}/approve`),
      declinePrompt: (promptId) => call('POST', `/mobile-money/${id(promptId)}/decline`),
      timeOutPrompt: (promptId) => call('POST', `/mobile-money/${id(promptId)}/timeout`),
      prompts: (status) => data(call('GET', `/mobile-money${query({ status })}`)),
      failPayout: (payoutId, reason) => call('POST', `/payouts/${id(payoutId)}/fail`, { reason }),
      sendStellarPayment: (input) => call('POST', '/stellar/payments', input),
      otp: (phone) => call('GET', `/otp${query({ phone })}`),
    },
    anchor: {
      completeInteractive: async (txId, input) => (await call('POST', `/transactions/${id(txId)}/complete-interactive`, input)).transaction,
      transaction: (txId) => call('GET', `/transactions/${id(txId)}`),
      transactions: (status) => data(call('GET', `/transactions${query({ status })}`)),
    },
    ramp: {
      order: (orderId) => call('GET', `/ramp/orders/${id(orderId)}`),
      failSend: (orderId, reason) => call('POST', `/ramp/orders/${id(orderId)}/send/fail`, { reason }),
      fail: (orderId, reason) => call('POST', `/ramp/orders/${id(orderId)}/fail`, { reason }),
    },
    checkout: {
      createKey: (params = {}) => call('POST', '/checkout/keys', params),
      rotateKey: (key) => call('POST', '/checkout/keys/rotate', { key }),
      deactivateOrganization: (orgId) => call('POST', `/checkout/organizations/${id(orgId)}/deactivate`),
      activateOrganization: (orgId) => call('POST', `/checkout/organizations/${id(orgId)}/activate`),
      selectOrganization: (orgId) => call('POST', `/checkout/organizations/${id(orgId)}/select`),
      complete: (reference, status, finalAmount) => call('POST', `/checkout/${id(reference)}/complete`, { status, final_amount: finalAmount }),
      gateway: {
        fail: (status, count) => call('POST', '/checkout/gateway/faults', { status, count }),
        hold: () => call('POST', '/checkout/gateway/hold'),
        held: () => call('GET', '/checkout/gateway/held'),
        release: () => call('POST', '/checkout/gateway/release'),
      },
    },
    fixtures: {
      merchant: (params = {}) => call('POST', '/fixtures/merchant', params),
      customer: ({ secret_key }, params = {}) => call('POST', '/fixtures/customer', { ...params, secret_key }),
      verifiedPhone: ({ secret_key }, params = {}) => call('POST', '/fixtures/verified-phone', { ...params, secret_key }),
      checkout: (params = {}) => call('POST', '/fixtures/checkout', params),
    },
    dashboard: {
      snapshot: () => call('GET', '/snapshot'),
    },
  };
  return client;
}

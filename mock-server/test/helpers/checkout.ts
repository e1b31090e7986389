/**
 * Helpers of the checkout tests: keys through the kit's control client, payments through the
 * public routes, and a real webhook receiver on 127.0.0.1 that keeps each raw body.
 */
import { createHmac } from 'node:crypto';
import { createControlClient, type ControlClient } from '../../src/client.js';
import type { CheckoutKeyParams } from '../../src/control/checkout.js';
import { call, type MockEnv } from './env.js';

export const PAYMENTS = '/api/v1/developer/payments';
export const INITIATE = '/gateway/api/v1/payments/initiate';
export const GATEWAY_SESSION = '/gateway/api/v1/widget/session';

export const paymentBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'checkout',
  amount: 10_000,
  currency: 'GHS',
  recipient: { name: 'Ama Mensah', email: 'ama@example.com' },
  redirect_url: 'https://shop.example/return?order=42',
  ...overrides,
});

export interface KeyInfo {
  key: string;
  key_id: string;
  organization_id: string | null;
}

/** The kit's control client at the env's origin: over HTTP standalone, through msw in-process. */
export const controlOf = (env: MockEnv): ControlClient => createControlClient({ baseUrl: env.origin });

export const createKey = (env: MockEnv, params: CheckoutKeyParams = {}): Promise<KeyInfo> => controlOf(env).checkout.createKey(params);

export const auth = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });

/** Creates a payment at the checkout API and returns its creation body's `data`. */
export async function createPayment(env: MockEnv, key: string, overrides: Record<string, unknown> = {}) {
  const res = await call(env, 'POST', PAYMENTS, { body: paymentBody(overrides), headers: auth(key) });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as { checkout_url: string; reference: string; session_id: string };
}

export async function complete(env: MockEnv, reference: string, status: string, extra: Record<string, unknown> = {}) {
  return call(env, 'POST', `/_mock/checkout/${reference}/complete`, { body: { status, ...extra } });
}

export async function subscribe(env: MockEnv, key: string, url: string) {
  const res = await call(env, 'POST', '/api/v1/developer/webhooks', { body: { url }, headers: auth(key) });
  if (res.status !== 201) throw new Error(`subscribe answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; url: string; secret: string };
}

/** Waits until every webhook attempt under way has settled. */
export const settleWebhooks = (env: MockEnv) => controlOf(env).webhooks.settle();

/** The merchant's endpoint of the other suites: records each raw body, answers `status` (default 200). */
export { startReceiver, type Received, type Receiver } from './receiver.js';

/** `v1=` + hex HMAC-SHA256 of `<timestamp>.<raw body>`, computed here with node:crypto, independently of the mock. */
export function expectedSignature(secret: string, timestamp: string, rawBody: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

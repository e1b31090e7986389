/**
 * Dashboard set-up shared by the merchant and widget suites: a registered, logged-in merchant
 * with keys, through the public endpoints only.
 */
import { expect } from 'vitest';
import type { Store } from '../../src/store.js';
import { call, type MockEnv } from './env.js';

let counter = 0;

export interface TestMerchant {
  id: string;
  email: string;
  password: string;
  token: string;
  /** `Authorization` header for the dashboard. */
  auth: Record<string, string>;
}

export async function registerMerchant(env: MockEnv, overrides: Record<string, unknown> = {}): Promise<TestMerchant> {
  const email = `merchant${++counter}@example.com`;
  const password = 'correct horse battery';
  const reg = await call(env, 'POST', '/api/v1/merchant/register', {
    body: { name: 'Kofi Shop', legal_name: 'Kofi Shop Ltd', email, password, ...overrides },
  });
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  const credentials = { email: String(overrides.email ?? email), password: String(overrides.password ?? password) };
  return { id: reg.body.data.id, ...credentials, ...(await login(env, credentials)) };
}

/** Logs in again, e.g. after the 24 h access token ran out on the manual clock. */
export async function login(env: MockEnv, credentials: { email: string; password: string }) {
  const res = await call(env, 'POST', '/api/v1/merchant/login', { body: credentials });
  expect(res.status).toBe(200);
  const token = res.body.data.access_token as string;
  return { token, auth: { authorization: `Bearer ${token}` } };
}

export async function createKey(
  env: MockEnv,
  merchant: TestMerchant,
  body: Record<string, unknown> = { key_type: 'secret', domains: [] },
): Promise<{ key: string; id: string; apiKey: any }> {
  const res = await call(env, 'POST', '/api/v1/merchant/apikeys', { body, headers: merchant.auth });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { key: res.body.data.key, id: res.body.data.api_key.id, apiKey: res.body.data.api_key };
}

/** A deep copy of the store's core records, to show that a refused request changed nothing. */
export function snapshot(store: Store) {
  const { merchants, apiKeys, customers, sessions, orders, deliveries } = store;
  return structuredClone({ merchants, apiKeys, customers, sessions, orders, deliveries });
}

/** Asserts the widget backend's success envelope exactly: `{ data, meta: { request_id, timestamp } }`. */
export function expectEnvelope(body: any) {
  expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
  expect(Object.keys(body.meta).sort()).toEqual(['request_id', 'timestamp']);
  expect(body.meta.request_id).toMatch(/^req_[0-9a-f]{24}$/);
  expect(body.meta.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
}

/** Asserts the error body of design.md section 4 with `code` and the HTTP status. */
export function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'meta']);
  expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message']);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
}

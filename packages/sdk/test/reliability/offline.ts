/**
 * Every SDK client wired to a fetch that only counts: each request that would leave the
 * process is recorded and answered 418, so a test can tell "refused before sending" (nothing
 * recorded) from "passed validation" (one request, to the expected route).
 */
import { Keypair } from '@stellar/stellar-sdk';
import { expect } from 'vitest';
import { AnchorClient } from '../../src/anchor/index.js';
import { CheckoutClient } from '../../src/clients/checkout.js';
import { MerchantClient } from '../../src/clients/merchant.js';
import { RampClient } from '../../src/clients/ramp.js';
import { WidgetClient } from '../../src/clients/widget.js';
import { ApiError, ValidationError, type TokenStore } from '../../src/index.js';

/** Never reached: the counting fetch answers every request itself. */
export const ORIGIN = 'http://sdk.invalid';

export interface Sent {
  method: string;
  /** The path as it would reach the server, after URL normalisation, still percent-encoded. */
  path: string;
  /** The query parameters, decoded. */
  query: URLSearchParams;
  headers: Headers;
  body: string | undefined;
}

/** A fetch that records each request and answers `418 {error: "offline"}`, never touching the network. */
export function countingFetch(): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      sent.push({ method: request.method, path: url.pathname, query: url.searchParams, headers: request.headers, body: request.body ? await request.text() : undefined });
      return Response.json({ error: 'offline' }, { status: 418 });
    },
  };
}

/** A token store that always holds a valid SEP-10 token, so that anchor calls go straight to their route. */
const signedIn: TokenStore = {
  get: async () => ({ token: 'sep10-token', expiresAt: Date.now() + 3_600_000 }),
  set: async () => {},
  delete: async () => {},
};

export const PUBLIC_KEY = 'sika_public_0123456789abcdef0123456789abcdef0123456789abcdef';
const SECRET_KEY = 'sika_secret_0123456789abcdef0123456789abcdef0123456789abcdef';

/** One client of each surface on one counting fetch, with retries off. */
export function offlineClients() {
  const wire = countingFetch();
  const common = { baseUrl: ORIGIN, fetch: wire.fetch, maxRetries: 0 };
  return {
    sent: wire.sent,
    merchant: new MerchantClient({ ...common, accessToken: 'dashboard-token' }),
    widget: new WidgetClient({ ...common, secretKey: SECRET_KEY, publicKey: PUBLIC_KEY }),
    ramp: new RampClient({ ...common, secretKey: SECRET_KEY }),
    checkout: new CheckoutClient({ ...common, apiKey: 'sika_checkout_test' }),
    anchor: new AnchorClient({ anchorUrl: `${ORIGIN}/anchor`, signer: Keypair.random(), fetch: wire.fetch, maxRetries: 0, tokenStore: signedIn }),
  };
}

export type Clients = ReturnType<typeof offlineClients>;

/** What a call came to: a ValidationError, or the counting fetch's 418 (it passed validation), or anything else (a bug). */
export async function outcomeOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** The call was refused with a typed ValidationError naming at least one problem, and nothing was sent. */
export function expectRefused(error: unknown, sent: Sent[]): void {
  expect(error, 'a ValidationError').toBeInstanceOf(ValidationError);
  const { issues } = error as ValidationError;
  expect(issues.length).toBeGreaterThan(0);
  for (const issue of issues) expect(issue).toMatchObject({ path: expect.any(Array), message: expect.any(String) });
  expect(sent, 'requests sent').toEqual([]);
}

/** The call passed validation: exactly one request left, and the only answer it met was the counting fetch's. */
export function expectSent(error: unknown, sent: Sent[], method: string, path: string): void {
  expect(error, 'the 418 of the counting fetch').toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(418);
  expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([`${method} ${path}`]);
}

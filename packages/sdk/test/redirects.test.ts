/**
 * A 3xx from the base URL must never carry a credential to another host. fetch follows
 * redirects by default and drops only `Authorization` across origins, so `X-API-Key` (a
 * secret key) would reach whatever host `Location` names. Two real servers on 127.0.0.1: one
 * redirects, the other records what arrives.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { AnchorClient } from '../src/anchor/index.js';
import { CheckoutClient } from '../src/clients/checkout.js';
import { MerchantClient } from '../src/clients/merchant.js';
import { RampClient } from '../src/clients/ramp.js';
import { WidgetClient } from '../src/clients/widget.js';
import { ApiError, RedirectError } from '../src/core/errors.js';
import { json, startTestServer, type TestServer } from './helpers/http-server.js';

const SECRET_KEY = `sika_secret_${'ab'.repeat(24)}`;
const CHECKOUT_KEY = `sika_checkout_${'cd'.repeat(24)}`;

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** An attacker's server that records every header it is sent, and a service that redirects there. */
async function redirectingPair(status: number, sameOrigin = false) {
  const attacker = await startTestServer((_req, res) => json(res, 200, { data: { id: 'x' } }));
  const service = await startTestServer((req, res) => {
    if (req.url.startsWith('/landing')) return json(res, 200, { data: { id: 'x' } });
    res.writeHead(status, { location: sameOrigin ? '/landing?token=t0ps3cret' : `${attacker.url}/steal?token=t0ps3cret` });
    res.end();
  });
  servers.push(attacker, service);
  return { attacker, service };
}

const calls = (baseUrl: string) =>
  [
    ['WidgetClient (X-API-Key)', () => new WidgetClient({ baseUrl, secretKey: SECRET_KEY }).customers.get('cus_1')],
    ['RampClient (Authorization)', () => new RampClient({ baseUrl, secretKey: SECRET_KEY }).orders.get('RMP-1')],
    ['CheckoutClient (Authorization)', () => new CheckoutClient({ baseUrl, apiKey: CHECKOUT_KEY }).transactions.list()],
    ['MerchantClient (login with the password)', () => new MerchantClient({ baseUrl, email: 'a@example.com', password: 'correct horse' }).profile.get()],
  ] as const;

describe('a redirect from the service', () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`${status} to another host: no credential and no request reach it, and the call rejects with RedirectError`, async () => {
      const { attacker, service } = await redirectingPair(status);
      for (const [, call] of calls(service.url)) {
        const error = await Promise.resolve(call()).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RedirectError);
        expect(error).toBeInstanceOf(ApiError);
        expect((error as RedirectError).status).toBe(status);
        // Where it pointed, for the merchant to fix baseUrl, but not the query (it could hold a token).
        expect((error as RedirectError).location).toBe(`${attacker.url}/steal`);
        expect(String(error)).not.toContain('t0ps3cret');
      }
      expect(attacker.requests).toEqual([]);
    });
  }

  it('is refused within the same origin too, and never retried, even with an idempotency key', async () => {
    const { service } = await redirectingPair(307, true);
    const ramp = new RampClient({ baseUrl: service.url, secretKey: SECRET_KEY });
    const error = await ramp.kyc
      .initiate({ first_name: 'Ama', last_name: 'Mensah', phone: '0241234567', provider_name: 'MTN' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).location).toBe('/landing');
    expect(service.requests.map((r) => r.url)).toEqual(['/api/v1/ramp/kyc/initiate']);
  });

  it('is refused for the anchor too, from stellar.toml on (as the Stellar SDK reads it, with no redirects)', async () => {
    const { attacker, service } = await redirectingPair(301);
    const anchor = new AnchorClient({ anchorUrl: `${service.url}/anchor`, signer: Keypair.random() });
    await expect(anchor.transfers.get('tx_1')).rejects.toBeInstanceOf(RedirectError);
    expect(service.requests.map((r) => r.url)).toEqual(['/.well-known/stellar.toml']);
    expect(attacker.requests).toEqual([]);
  });

  it('is refused when the client uses a fetch of its own that passes the request on', async () => {
    const { attacker, service } = await redirectingPair(302);
    const seen: string[] = [];
    const widget = new WidgetClient({
      baseUrl: service.url,
      secretKey: SECRET_KEY,
      fetch: (input, init) => {
        seen.push(input instanceof Request ? input.redirect : String(init?.redirect));
        return fetch(input, init);
      },
    });
    await expect(widget.customers.get('cus_1')).rejects.toBeInstanceOf(RedirectError);
    expect(seen).toEqual(['manual']);
    expect(attacker.requests).toEqual([]);
  });
});

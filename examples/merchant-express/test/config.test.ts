/**
 * The environment variables are listed in one place, src/config.ts, and the quickstart's table
 * shows the same names; loadConfig names every missing one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Keypair } from '@sikaramp/sdk/anchor';
import { DEMO_WALLET, ENVIRONMENT, loadConfig } from '../src/config.ts';

const QUICKSTART = readFileSync(new URL('../../../docs/guides/quickstart.md', import.meta.url), 'utf8');

describe('configuration', () => {
  it('documents exactly the variables config.ts reads, in the quickstart', () => {
    const documented = [...QUICKSTART.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(Object.keys(ENVIRONMENT));
  });

  it('names every missing required variable, and nothing secret', () => {
    expect(() => loadConfig({ SIKARAMP_BASE_URL: 'https://sandbox.example', SIKARAMP_SECRET_KEY: 'sk_secret_abc' })).toThrow(
      /^Missing environment variables: SIKARAMP_ANCHOR_URL, SIKARAMP_PUBLIC_KEY, SIKARAMP_WEBHOOK_SECRET, SIKARAMP_CUSTOMER_ID, SIKARAMP_CHECKOUT_API_KEY, SIKARAMP_CHECKOUT_WEBHOOK_SECRET, SIKARAMP_RAMP_PHONE\./,
    );
  });

  const sandbox = {
    SIKARAMP_BASE_URL: 'https://sandbox.example/',
    SIKARAMP_ANCHOR_URL: 'https://anchor.sandbox.example/',
    SIKARAMP_PUBLIC_KEY: 'pk',
    SIKARAMP_SECRET_KEY: 'sk',
    SIKARAMP_WEBHOOK_SECRET: 'whsec',
    SIKARAMP_CUSTOMER_ID: 'cus',
    SIKARAMP_CHECKOUT_API_KEY: 'ck',
    SIKARAMP_CHECKOUT_WEBHOOK_SECRET: 'cwhsec',
    SIKARAMP_RAMP_PHONE: '0241234567',
  };

  it('fills the defaults from the base URL and the port', () => {
    const config = loadConfig({ ...sandbox, PORT: '8080' });
    expect(config).toMatchObject({
      port: 8080,
      publicUrl: 'http://localhost:8080',
      baseUrl: 'https://sandbox.example',
      rampBaseUrl: 'https://sandbox.example',
      checkoutBaseUrl: 'https://sandbox.example',
      anchorUrl: 'https://anchor.sandbox.example',
      customer: { phone: '0241234567', network: 'MTN', wallet: DEMO_WALLET },
    });
    expect(config.mockUrl).toBeUndefined();
    // No SIKARAMP_STELLAR_SECRET: a new Stellar account for each start.
    expect(config.stellarAccount.publicKey()).not.toBe(loadConfig(sandbox).stellarAccount.publicKey());
  });

  it('signs in to the anchor as the account of SIKARAMP_STELLAR_SECRET, and never shows a wrong one', () => {
    const account = Keypair.random();
    expect(loadConfig({ ...sandbox, SIKARAMP_STELLAR_SECRET: account.secret() }).stellarAccount.publicKey()).toBe(account.publicKey());
    // A public key pasted by mistake, and a seed with a typo in its last character: named, not echoed.
    const seed = account.secret();
    for (const wrong of [account.publicKey(), `${seed.slice(0, -1)}${seed.endsWith('A') ? 'B' : 'A'}`]) {
      const error = (() => {
        try {
          loadConfig({ ...sandbox, SIKARAMP_STELLAR_SECRET: wrong });
        } catch (e) {
          return e as Error;
        }
      })();
      expect(error?.message).toBe('SIKARAMP_STELLAR_SECRET is not a Stellar secret seed (S…, 56 characters).');
    }
  });
});

/** Set-up of the ramp suites: a merchant activated for ramp, a RampClient, verified phones, and a wait clock on the mock's time. */
import { Keypair } from '@stellar/stellar-sdk';
import { RampClient, type RampClientOptions } from '../../src/clients/ramp.js';
import { AbortError, type RampOrder, type RampOrderCreateParams, type WaitClock } from '../../src/index.js';
import { newMerchant, recordingFetch } from './clients.js';
import type { MockEnv } from './mock.js';

export interface Ramp {
  client: RampClient;
  merchantId: string;
  secretKey: string;
  /** `METHOD /path` of every request the client sent. */
  sent: string[];
}

/** A registered merchant with a secret key, activated for ramp by the operator's control call. */
export async function newRamp(env: MockEnv, options: Partial<RampClientOptions> = {}, { enable = true } = {}): Promise<Ramp> {
  const merchant = await newMerchant(env);
  const { key } = await merchant.client.apiKeys.create({ key_type: 'secret' });
  if (enable) env.backend.control.merchants.enableRamp(merchant.id);
  const { fetch, sent } = recordingFetch();
  const client = new RampClient({ baseUrl: env.origin, secretKey: key, fetch, ...options });
  return { client, merchantId: merchant.id, secretKey: key, sent };
}

let phones = 0;
/** A local phone number, different for every call. */
export const newPhone = () => `024${String(1_000_000 + ++phones).slice(-7)}`;

/** A new phone through the merchant's ramp KYC (the mock's fixture: initiate, the code sent to it, verify). */
export async function verifiedPhone(env: MockEnv, ramp: Ramp): Promise<string> {
  const { phone } = await env.backend.control.fixtures.verifiedPhone({ secret_key: ramp.secretKey }, { phone: newPhone() });
  return phone;
}

export const user = (phone: string) => ({ first_name: 'Kwame', last_name: 'Mensah', phone, network: 'MTN' });

export const onRamp = (phone: string, fiat_amount = 100): RampOrderCreateParams => ({
  type: 'onramp',
  fiat_amount,
  destination_wallet: Keypair.random().publicKey(),
  user: user(phone),
});

export const offRamp = (phone: string, fiat_amount = 100): RampOrderCreateParams => ({ type: 'offramp', fiat_amount, user: user(phone) });

/** The user's wallet pays an off-ramp order's deposit, with its memo (control call). */
export async function payDeposit(env: MockEnv, order: RampOrder, from: string, amount = order.crypto_amount): Promise<{ hash: string }> {
  return env.backend.control.rails.sendStellarPayment({
    from,
    to: order.deposit!.stellar_address,
    amount: String(amount),
    asset_code: 'USDC',
    memo: order.deposit!.memo ?? null,
  });
}

export interface ManualWait {
  clock: WaitClock;
  /** Every wait asked for, ms, in order. */
  sleeps: number[];
}

/**
 * A WaitClock on the mock's manual clock: each sleep moves it forward by that long (running
 * whatever falls due), then runs `after(n)` for the n-th sleep (1-based): what the world does meanwhile.
 */
export function manualWait(env: MockEnv, after?: (n: number) => Promise<unknown> | unknown): ManualWait {
  const sleeps: number[] = [];
  const clock: WaitClock = {
    now: () => env.backend.clock.now(),
    async sleep(ms, signal) {
      if (signal?.aborted) throw new AbortError({ cause: signal.reason });
      sleeps.push(ms);
      await env.backend.clock.advance(ms / 1000);
      await after?.(sleeps.length);
    },
  };
  return { clock, sleeps };
}

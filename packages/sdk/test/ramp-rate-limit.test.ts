/**
 * The ramp API's rate limit as 001 section 8 states it: 100 requests a second per merchant.
 * A key's `rate_limit_rpm` (600 a minute) limits widget requests only (000 section 8), so a
 * merchant polling at the full ramp rate for two minutes of clock time is never refused,
 * while the 101st request within one second is, with `Retry-After`. Over real HTTP to the
 * standalone mock on 127.0.0.1 (keep-alive), through RampClient, on the manual clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitError } from '../src/index.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';
import { newRamp, onRamp, verifiedPhone, type Ramp } from './helpers/ramp.js';

const PER_SECOND = 100;
/** Two minutes: twice the window of `rate_limit_rpm`, which would have refused request 601. */
const SECONDS = 120;

describe('the ramp API rate limit, standalone (127.0.0.1)', () => {
  let env: MockEnv;
  let ramp: Ramp;
  let reference: string;
  beforeAll(async () => {
    env = await startStandalone({ seed: 41 });
    // No retries: a 429 must surface, not be waited out.
    ramp = await newRamp(env, { maxRetries: 0 });
    const phone = await verifiedPhone(env, ramp);
    reference = (await ramp.client.orders.create(onRamp(phone))).reference;
    // The set-up's requests belong to a second of their own.
    await env.backend.clock.advance(1);
  });
  afterAll(() => env.close());

  it('answers 100 lookups every second for two minutes without a 429, although the key reports rate_limit_rpm 600', async () => {
    // The first lookup opens the connection; it counts in the first second.
    expect((await ramp.client.orders.get(reference)).reference).toBe(reference);
    let answered = 1;
    for (let second = 0; second < SECONDS; second++) {
      const burst = second === 0 ? PER_SECOND - 1 : PER_SECOND;
      const orders = await Promise.all(Array.from({ length: burst }, () => ramp.client.orders.get(reference)));
      answered += orders.filter((o) => o.reference === reference).length;
      await env.backend.clock.advance(1);
    }
    expect(answered).toBe(PER_SECOND * SECONDS);
  });

  it('refuses the 101st request within one second with 429 RATE_LIMITED and Retry-After, and serves again a second later', async () => {
    const settled = await Promise.allSettled(Array.from({ length: PER_SECOND + 1 }, () => ramp.client.orders.get(reference)));
    const refused = settled.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(PER_SECOND);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(RateLimitError);
    expect(refused[0]).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 1 });

    await env.backend.clock.advance(1);
    await expect(ramp.client.orders.get(reference)).resolves.toMatchObject({ reference });
  });
});

/**
 * The rate limiters answer 429 exactly above their limits, in clock time (manual clock,
 * in-process): a key's `rate_limit_rpm` over a sliding minute at the widget backend, the ramp
 * API's 100 requests a second per merchant (and only that), and the interactive page's 5 codes per
 * transaction in 10 minutes. A model of each sliding window predicts every answer, and the
 * `Retry-After` of each 429.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertCustomer } from '../../src/customers.js';
import { issuePageToken } from '../../src/handlers/interactive/api.js';
import { createApiKey, createMerchant } from '../../src/merchants.js';
import type { MerchantRecord } from '../../src/store.js';
import { call, startInProcess, type MockEnv } from '../helpers/env.js';

/** A sliding window as the documents describe it: the request that would be number `limit + 1` within `windowMs` is refused. */
class Window {
  private hits: number[] = [];
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}
  /** Whether a request at `now` passes; a refused one is not counted. */
  admit(now: number): boolean {
    this.hits = this.hits.filter((t) => t > now - this.windowMs);
    if (this.hits.length >= this.limit) return false;
    this.hits.push(now);
    return true;
  }
  /** Whole seconds until a slot frees, at least 1. */
  retryAfter(now: number): number {
    return Math.max(1, Math.ceil((this.hits[0]! + this.windowMs - now) / 1000));
  }
}

/** Gaps between requests, ms: mostly short, sometimes right at the window's edge or beyond; multiples of 125 ms (exact in binary seconds). */
const gap = (windowMs: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: Math.min(80, windowMs / 125 / 4) }).map((n) => n * 125) },
    { weight: 2, arbitrary: fc.constantFrom(windowMs - 125, windowMs, windowMs + 125) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: (windowMs / 125) * 2 }).map((n) => n * 125) },
  );

describe('rate limits in clock time (in-process)', () => {
  let env: MockEnv;
  let merchant: MerchantRecord;
  let customerId: string;
  beforeAll(async () => {
    env = await startInProcess({ seed: 71 });
    merchant = await createMerchant(env.backend.context, { name: 'L', legal_name: 'L Ltd', email: 'limits@shop.example', password: 'correct horse battery' });
    customerId = upsertCustomer(env.backend.context, merchant.id, { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' }).customer.id;
    env.backend.control.merchants.enableRamp(merchant.id);
  });
  afterAll(() => env.close());

  const wait = (ms: number) => (ms > 0 ? env.backend.clock.advance(ms / 1000) : Promise.resolve());

  it('refuses a key exactly above its rate_limit_rpm over any sliding minute, with the right Retry-After', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.array(gap(60_000), { minLength: 1, maxLength: 60 }), async (rpm, gaps) => {
        const { key } = await createApiKey(env.backend.context, merchant, { key_type: 'secret', rate_limit_rpm: rpm });
        const model = new Window(rpm, 60_000);
        for (const ms of gaps) {
          await wait(ms);
          const now = env.backend.clock.now();
          const res = await call(env, 'GET', '/api/v1/widget/config', { headers: { 'x-api-key': key } });
          if (model.admit(now)) {
            expect(res.status).toBe(200);
          } else {
            expect(res.status).toBe(429);
            expect(res.body.error.code).toBe('RATE_LIMITED');
            expect(res.headers.get('retry-after')).toBe(String(model.retryAfter(now)));
          }
        }
      }),
      { numRuns: 30 },
    );
  });

  it('refuses the ramp API exactly above 100 requests a second per merchant, whatever its keys rate_limit_rpm says', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 600 }),
        fc.array(fc.record({ wait: gap(1_000), burst: fc.integer({ min: 1, max: 130 }) }), { minLength: 1, maxLength: 8 }),
        async (rpm, bursts) => {
          const { key } = await createApiKey(env.backend.context, merchant, { key_type: 'secret', rate_limit_rpm: rpm });
          // A fresh merchant window: earlier runs' requests are not this one's.
          env.backend.store.rateWindows.delete(`ramp:${merchant.id}`);
          const perMerchant = new Window(100, 1_000);
          for (const { wait: ms, burst } of bursts) {
            await wait(ms);
            const now = env.backend.clock.now();
            const answers = await Promise.all(
              Array.from({ length: burst }, () => call(env, 'GET', '/api/v1/ramp/orders/RMP-20260101-none', { headers: { authorization: `Bearer ${key}` } })),
            );
            const statuses = answers.map((a) => a.status).sort();
            // rate_limit_rpm is the widget backend's (000 section 8): only the merchant's window refuses here.
            const expected = Array.from({ length: burst }, () => (perMerchant.admit(now) ? 404 : 429)).sort();
            expect(statuses).toEqual(expected);
            for (const a of answers.filter((x) => x.status === 429)) {
              expect(a.body.error.code).toBe('RATE_LIMITED');
              expect(a.headers.get('retry-after')).toBe(String(perMerchant.retryAfter(now)));
            }
          }
        },
      ),
      { numRuns: 6 },
    );
  });

  it('sends at most 5 codes per transaction in 10 minutes from the interactive page', async () => {
    const { key: publicKey } = await createApiKey(env.backend.context, merchant, { key_type: 'public' });
    const { key: secretKey } = await createApiKey(env.backend.context, merchant, { key_type: 'secret' });
    await fc.assert(
      fc.asyncProperty(fc.array(gap(600_000), { minLength: 1, maxLength: 20 }), async (gaps) => {
        const started = await call(env, 'POST', '/api/v1/widget/deposit/interactive', {
          headers: { 'x-api-key': secretKey },
          body: { asset_code: 'USDC', user_id: customerId, api_key: publicKey },
        });
        const tx = env.backend.store.anchor.transactions.get(started.body.data.id)!;
        const token = await issuePageToken(env.backend.context, tx);
        const model = new Window(5, 600_000);
        for (const ms of gaps) {
          // Within the form's 30 minutes: afterwards the transaction has expired (409), which is another story.
          if (env.backend.clock.now() + ms >= tx.started_at + 30 * 60_000) break;
          await wait(ms);
          const now = env.backend.clock.now();
          const res = await call(env, 'POST', '/interactive/api/otp', { headers: { authorization: `Bearer ${token}` }, body: { phone: '+233201234567' } });
          if (model.admit(now)) {
            expect(res.status).toBe(200);
          } else {
            expect(res.status).toBe(429);
            expect(res.body.error).toMatchObject({ code: 'RATE_LIMITED', field: 'phone' });
            expect(res.headers.get('retry-after')).toBe(String(model.retryAfter(now)));
          }
        }
      }),
      { numRuns: 20 },
    );
  });
});

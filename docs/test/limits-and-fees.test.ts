/**
 * The numbers in docs/guides/limits-and-fees.md are the mock server's: each row of the worked
 * example and the smallest buy are computed here by the mock's own pricing and limits, for a
 * newly registered merchant, and must appear in the guide as written. When the mock's
 * pricing changes, this fails until the guide says the same.
 */
import { readFileSync } from 'node:fs';
import { createMockBackend } from '@sikaramp/mock-server';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '../../mock-server/src/merchants.js';
import { quoteBuy, quoteSell, quoteSellForFiat } from '../../mock-server/src/pricing.js';
import type { MerchantRecord } from '../../mock-server/src/store.js';
import { RAMP_RATE_LIMIT_PER_SECOND } from '../../mock-server/src/handlers/ramp/auth.js';
import { checkLimits } from '../../mock-server/src/volume.js';

const guide = readFileSync(new URL('../guides/limits-and-fees.md', import.meta.url), 'utf8');
const ctx = createMockBackend({ clock: 'manual', seed: 1 }).context;
const money = (n: number) => n.toFixed(2);

let merchant: MerchantRecord;
beforeAll(async () => {
  merchant = await createMerchant(ctx, { name: 'Shop', legal_name: 'Shop Ltd', email: 'shop@example.com', password: 'correct horse' });
});

describe('limits-and-fees.md', () => {
  it('shows the fees of a new merchant and the mock mid rate', () => {
    expect(merchant.fee_base_bps + merchant.fee_markup_bps).toBe(100);
    expect(ctx.options.exchangeRate).toBe(15.5);
    expect(guide).toContain('a new merchant has `fee_base_bps` 100 and `fee_markup_bps` 0: 1 %');
    expect(guide).toContain('The mid rate is 15.5 GHS per USDC');
  });

  it('works the example with the mock pricing: a buy, a sell and an off-ramp payout', () => {
    const buy = quoteBuy(ctx, merchant, 100);
    const sell = quoteSell(ctx, merchant, 10);
    const payout = quoteSellForFiat(ctx, merchant, 100);
    const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
    expect(guide).toContain(row(['rate, GHS per USDC', money(buy.rate), money(sell.rate), money(payout.rate)]));
    expect(guide).toContain(
      row([
        'platform fee (1 %)',
        `${money(buy.fees.platform_fee)} GHS`,
        `${money(sell.fees.platform_fee)} GHS (of ${money(sell.rate * 10)})`,
        `${money(payout.fees.platform_fee)} GHS`,
      ]),
    );
    expect(guide).toContain(row(['network fee', ...[buy, sell, payout].map((q) => `${money(q.fees.network_fee)} GHS`)]));
    expect(guide).toContain(
      row([
        'the customer gets',
        `${money(buy.crypto_amount)} USDC`,
        `${money(sell.fiat_amount)} GHS`,
        `${money(payout.fiat_amount)} GHS, for ${money(payout.crypto_amount)} USDC sent`,
      ]),
    );
  });

  it('names the smallest buy: the one that meets both minimums after fees', () => {
    const smallest = quoteBuy(ctx, merchant, 15.98);
    const below = quoteBuy(ctx, merchant, 15.97);
    expect(() => checkLimits(ctx, merchant, { fiat: smallest.fiat_amount, crypto: smallest.crypto_amount })).not.toThrow();
    expect(() => checkLimits(ctx, merchant, { fiat: below.fiat_amount, crypto: below.crypto_amount })).toThrow(
      expect.objectContaining({ status: 422, code: 'AMOUNT_OUT_OF_RANGE' }),
    );
    expect(guide).toContain(`${money(smallest.fiat_amount)} GHS at the mock's default rate (15.97 GHS would buy ${money(below.crypto_amount)} USDC)`);
  });

  it('lists the starter tier limits a new merchant gets', () => {
    expect(merchant.tier).toBe('starter');
    expect(merchant.limits).toEqual({ maxPerTransaction: 5_000, daily: 20_000, monthly: 100_000 });
    expect(guide).toContain('| maximum per transaction | 5,000 GHS (ours; starter tier) |');
    expect(guide).toContain('| daily volume | 20,000 GHS per UTC day (ours; starter tier) |');
    expect(guide).toContain('| monthly volume | 100,000 GHS per UTC month (ours; starter tier)');
  });

  it('gives the ramp API the per-merchant rate of the mock, and rate_limit_rpm to widget requests only', () => {
    expect(RAMP_RATE_LIMIT_PER_SECOND).toBe(100);
    expect(guide).toContain(`| ramp API, per merchant | ${RAMP_RATE_LIMIT_PER_SECOND} requests in any 1 second (001 section 8)`);
    expect(guide).toContain('| each API key, widget backend | `rate_limit_rpm` requests in any 60 seconds (000 section 8): 600 for a new key');
    expect(guide).toContain("A key's `rate_limit_rpm` limits widget requests only (000 section 8)");
  });
});

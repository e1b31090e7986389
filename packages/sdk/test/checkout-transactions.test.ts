import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError, type CheckoutTransaction, type CheckoutTransactionListParams } from '../src/index.js';
import { newCheckout, payment, type Checkout } from './helpers/checkout.js';
import { MODES, type MockEnv } from './helpers/mock.js';

describe.each(MODES)('checkout.transactions, %s', (_name, start) => {
  let env: MockEnv;
  let checkout: Checkout;
  /** References, newest first. */
  let references: string[];
  /** The clock when the later half of the payments began. */
  let midpoint: Date;
  beforeAll(async () => {
    env = await start({ seed: 93 });
    checkout = await newCheckout(env);
    references = [];
    for (let n = 0; n < 5; n++) {
      if (n === 3) midpoint = new Date(env.backend.clock.now());
      const result = await checkout.client.payments.create(payment({ amount: 1_000 + n }));
      if (result.outcome === 'in_progress') throw new Error('unexpected 202');
      references.unshift(result.data.reference!);
      await env.backend.clock.advance(60);
    }
    // Two are paid and verified, which synchronizes the service's record.
    for (const reference of references.slice(1, 3)) {
      env.backend.control.checkout.complete(reference, 'completed');
      await checkout.client.payments.verify(reference);
    }
  });
  afterAll(() => env.close());

  const all = async (params: CheckoutTransactionListParams) => {
    const seen: CheckoutTransaction[] = [];
    for await (const txn of checkout.client.transactions.list(params)) seen.push(txn);
    return seen;
  };
  const listings = () => checkout.wire.requests.filter((r) => r.path.startsWith('/api/v1/developer/transactions'));

  it('iterates every transaction of the organization across pages, newest first', async () => {
    const before = listings().length;
    const seen = await all({ limit: 2 });
    expect(seen.map((t) => t.reference)).toEqual(references);
    expect(listings().length - before).toBe(3);
    expect(seen[0]).toMatchObject({ id: expect.stringMatching(/^txn_/), status: 'pending', amount: 1_004, currency: 'GHS', source: 'checkout_api', synced_at: null });
  });

  it('filters by the status synchronized at verification', async () => {
    const paid = await all({ status: 'completed' });
    expect(paid.map((t) => t.reference)).toEqual(references.slice(1, 3));
    expect(paid.every((t) => t.final_amount === t.amount && t.synced_at !== null)).toBe(true);
  });

  it('filters by creation time, from inclusive and to exclusive, given as Date or ISO 8601', async () => {
    expect((await all({ from: midpoint })).map((t) => t.reference)).toEqual(references.slice(0, 2));
    expect((await all({ to: midpoint.toISOString() })).map((t) => t.reference)).toEqual(references.slice(2));
  });

  it('gives one page at a time, and an empty first page for an organization without payments', async () => {
    const first = await checkout.client.transactions.list({ limit: 3 });
    expect(first.data.map((t) => t.reference)).toEqual(references.slice(0, 3));
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second.data.map((t) => t.reference)).toEqual(references.slice(3));
    expect(second.hasNextPage()).toBe(false);
    const other = await newCheckout(env);
    await expect(other.client.transactions.list()).resolves.toMatchObject({ data: [], has_more: false, next_cursor: null });
  });

  it('refuses bad parameters before sending, from await and from for await alike', async () => {
    const before = checkout.wire.requests.length;
    const refused = async (params: unknown) => {
      await expect(checkout.client.transactions.list(params as CheckoutTransactionListParams)).rejects.toBeInstanceOf(ValidationError);
      await expect(all(params as CheckoutTransactionListParams)).rejects.toBeInstanceOf(ValidationError);
    };
    await refused({ limit: 0 });
    await refused({ limit: 101 });
    await refused({ status: 'paid' });
    await refused({ from: 'yesterday' });
    await refused({ organization_id: 'org_other' });
    expect(checkout.wire.requests.length).toBe(before);
  });
});

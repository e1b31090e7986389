import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { auth, complete, createKey, createPayment, PAYMENTS, type KeyInfo } from './helpers/checkout.js';

const TRANSACTIONS = '/api/v1/developer/transactions';

describe.each(MODES)('checkout developer transactions, %s', (_name, start) => {
  let env: MockEnv;
  let current: KeyInfo;
  beforeAll(async () => {
    env = await start({ seed: 60 });
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    await call(env, 'POST', '/_mock/reset');
    current = await createKey(env);
  });

  const list = (query = '', key = current.key) => call(env, 'GET', `${TRANSACTIONS}${query}`, { headers: auth(key) });

  it('lists the organization payments newest first, with the status of the last verification', async () => {
    const first = await createPayment(env, current.key, { amount: 1_000, meta: { order_id: '1' } });
    await env.backend.clock.advance(60);
    const second = await createPayment(env, current.key, { amount: 2_000 });
    await complete(env, first.reference, 'success');
    await call(env, 'GET', `${PAYMENTS}/${first.reference}`);
    const other = await createKey(env);
    await createPayment(env, other.key);

    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, has_more: false, next_cursor: null });
    expect(res.body.data.map((t: { reference: string }) => t.reference)).toEqual([second.reference, first.reference]);
    expect(res.body.data[1]).toEqual({
      id: expect.stringMatching(/^txn_/),
      organization_id: current.organization_id,
      reference: first.reference,
      session_id: first.session_id,
      status: 'success',
      amount: 1_000,
      final_amount: 1_000,
      currency: 'GHS',
      recipient: { name: 'Ama Mensah', email: 'ama@example.com' },
      meta: expect.objectContaining({ order_id: '1', organizationId: current.organization_id }),
      source: 'checkout_api',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      synced_at: expect.any(String),
    });
    expect(res.body.data[0]).toMatchObject({ status: 'pending', synced_at: null });
  });

  it('filters by status and by a from/to window of created_at', async () => {
    const start = env.backend.clock.now();
    const a = await createPayment(env, current.key);
    await env.backend.clock.advance(3600);
    const b = await createPayment(env, current.key);
    await complete(env, b.reference, 'failed');
    await call(env, 'GET', `${PAYMENTS}/${b.reference}`);

    const failed = await list('?status=failed');
    expect(failed.body.data.map((t: { reference: string }) => t.reference)).toEqual([b.reference]);
    const firstHour = await list(`?from=${new Date(start).toISOString()}&to=${new Date(start + 1800_000).toISOString()}`);
    expect(firstHour.body.data.map((t: { reference: string }) => t.reference)).toEqual([a.reference]);
  });

  it('pages with limit and next_cursor without skipping or repeating', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await createPayment(env, current.key)).reference);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { reference: string }[]; next_cursor: string | null; has_more: boolean } } = await list(
        `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      expect(page.body.has_more).toBe(page.body.next_cursor !== null);
      seen.push(...page.body.data.map((t) => t.reference));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...created].reverse());
  });

  it.each([
    ['?status=paid', /^status must be one of/],
    ['?limit=0', /^limit must be an integer from 1 to 100/],
    ['?limit=101', /^limit must be an integer from 1 to 100/],
    ['?from=yesterday', /^from must be an ISO 8601/],
    ['?cursor=garbage', /^cursor is not valid/],
  ])('refuses %s with 400', async (query, message) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('takes the same credentials as payment creation', async () => {
    expect((await call(env, 'GET', TRANSACTIONS)).status).toBe(401);
    const legacy = await createKey(env, { legacy: true });
    expect((await list('', legacy.key)).status).toBe(401);
    const fenced = await createKey(env, { allowed_ips: ['203.0.113.7'] });
    expect((await list('', fenced.key)).status).toBe(403);
    await call(env, 'POST', `/_mock/checkout/organizations/${current.organization_id}/deactivate`);
    expect((await list()).status).toBe(400);
  });
});

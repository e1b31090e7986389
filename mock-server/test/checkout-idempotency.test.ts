import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { auth, createKey, INITIATE, PAYMENTS, paymentBody, type KeyInfo } from './helpers/checkout.js';

describe.each(MODES)('checkout Idempotency-Key, %s', (_name, start) => {
  let env: MockEnv;
  let current: KeyInfo;
  beforeAll(async () => {
    env = await start({ seed: 128 });
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    await call(env, 'POST', '/_mock/reset');
    current = await createKey(env);
  });

  const create = (idempotencyKey: string | undefined, body: unknown = paymentBody(), path = PAYMENTS, key = current.key) =>
    call(env, 'POST', path, { body, headers: auth(key, idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) });
  const payments = () => env.backend.store.checkout.transactions.size;

  it('accepts a key of 128 characters and refuses 129 with 400, creating nothing', async () => {
    const tooLong = await create('k'.repeat(129));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBe('Idempotency-Key must be at most 128 characters');
    expect(payments()).toBe(0);
    expect((await create('k'.repeat(128))).status).toBe(201);
  });

  it('refuses an empty key with 400', async () => {
    const res = await create(' ');
    expect(res.status).toBe(400);
    expect(payments()).toBe(0);
  });

  it('returns the original payment for an identical repeat, whatever the order of keys', async () => {
    const first = await create('order-42');
    expect(first.status).toBe(201);
    const { recipient, ...rest } = paymentBody();
    const repeat = await create('order-42', { recipient: { email: recipient.email, name: recipient.name }, ...rest });
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);
    expect(payments()).toBe(1);
  });

  it('answers 409 for the same key with another body and creates nothing', async () => {
    await create('order-42');
    const conflict = await create('order-42', paymentBody({ amount: 20_000 }));
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toBe(conflict.body.message);
    expect(conflict.body.error).toMatch(/different request body/);
    expect(payments()).toBe(1);
  });

  it('creates a new payment on every call without a key, retries included', async () => {
    const refs = new Set<string>();
    for (let i = 0; i < 3; i++) refs.add((await create(undefined)).body.data.reference);
    expect(refs.size).toBe(3);
    expect(payments()).toBe(3);
  });

  it('remembers a key for 24 hours of clock time, then treats it as new work', async () => {
    const first = await create('daily');
    await env.backend.clock.advance(24 * 3600 - 1);
    expect((await create('daily')).body).toEqual(first.body);
    expect((await create('daily', paymentBody({ amount: 1 }))).status).toBe(409);
    await env.backend.clock.advance(1);
    const later = await create('daily', paymentBody({ amount: 1 }));
    expect(later.status).toBe(201);
    expect(later.body.data.reference).not.toBe(first.body.data.reference);
    expect(payments()).toBe(2);
  });

  it('forgets keys once their 24 hours are over, so a long-running mock does not keep every key', async () => {
    for (const key of ['a', 'b', 'c']) expect((await create(key)).status).toBe(201);
    await env.backend.clock.advance(12 * 3600);
    expect((await create('d')).status).toBe(201);
    expect(env.backend.store.checkout.idempotency.size).toBe(4);
    await env.backend.clock.advance(12 * 3600);
    // a, b and c are over; d has 12 hours left and still replays.
    expect((await create('d')).status).toBe(200);
    expect(env.backend.store.checkout.idempotency.size).toBe(1);
  });

  it('scopes a key to its endpoint: the same key at the earlier gateway route is separate work', async () => {
    const here = await create('shared');
    const there = await create('shared', paymentBody({ amount: 5 }), INITIATE);
    expect(there.status).toBe(201);
    expect(there.body.data.reference).not.toBe(here.body.data.reference);
    expect((await create('shared')).body).toEqual(here.body);
    expect(payments()).toBe(2);
  });

  it('keeps organizations apart: the same key from another organization is its own payment', async () => {
    const other = await createKey(env);
    const mine = await create('same-key');
    const theirs = await create('same-key', paymentBody(), PAYMENTS, other.key);
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.reference).not.toBe(mine.body.data.reference);
  });

  it('answers 202 to a repeat while the first is in flight, then replays its answer', async () => {
    await call(env, 'POST', '/_mock/checkout/gateway/hold');
    const first = create('slow');
    expect((await call(env, 'GET', '/_mock/checkout/gateway/held')).body).toEqual({ waiting: 1 });
    const during = await create('slow');
    expect(during.status).toBe(202);
    expect(during.headers.get('retry-after')).toBeNull();
    expect(payments()).toBe(0);
    await call(env, 'POST', '/_mock/checkout/gateway/release');
    const done = await first;
    expect(done.status).toBe(201);
    const after = await create('slow');
    expect(after.status).toBe(200);
    expect(after.body).toEqual(done.body);
    expect(payments()).toBe(1);
  });

  it('creates exactly one payment from N concurrent identical requests', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => create('burst')));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 200 || s === 202)).toBe(true);
    const original = results.find((r) => r.status === 201)!.body;
    for (const r of results.filter((x) => x.status === 200)) expect(r.body).toEqual(original);
    expect(payments()).toBe(1);
  });

  it('creates exactly one payment from N concurrent identical requests held in flight', async () => {
    await call(env, 'POST', '/_mock/checkout/gateway/hold');
    const pending = Array.from({ length: 8 }, () => create('held-burst'));
    // Release only once the first is held and the seven others have been answered.
    let answered = 0;
    const sevenAnswered = new Promise<void>((resolve) =>
      pending.forEach((p) => void p.then(() => ++answered === 7 && resolve())),
    );
    await call(env, 'GET', '/_mock/checkout/gateway/held');
    await sevenAnswered;
    await call(env, 'POST', '/_mock/checkout/gateway/release');
    const statuses = (await Promise.all(pending)).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 202, 202, 202, 202, 202, 202, 202]);
    expect(payments()).toBe(1);
  });

  it('forgets a key whose creation failed at the gateway, so that a retry with it creates the payment once', async () => {
    await call(env, 'POST', '/_mock/checkout/gateway/faults', { body: { status: 502, count: 1 } });
    expect((await create('retry-me')).status).toBe(502);
    const retried = await create('retry-me');
    expect(retried.status).toBe(201);
    expect((await create('retry-me')).body).toEqual(retried.body);
    expect(payments()).toBe(1);
  });
});

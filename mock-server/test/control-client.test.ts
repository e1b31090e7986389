/**
 * `@sikaramp/mock-server/client`: the control API over HTTP, same shape as `backend.control`,
 * against the standalone mock on 127.0.0.1 and in-process (msw/node intercepting fetch).
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createMockBackend, type MockBackend } from '../src/backend.js';
import { createControlClient, HttpError, type ControlClient } from '../src/client.js';
import { HttpError as ServerHttpError } from '../src/http/errors.js';
import { startMockServer } from '../src/server.js';
import { createPayment, auth, PAYMENTS, paymentBody } from './helpers/checkout.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { registerMerchant } from './helpers/merchant.js';

/** The path of every function of an object tree, e.g. `checkout.gateway.hold`. */
function functionPaths(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'function' ? [`${prefix}${key}`] : value && typeof value === 'object' ? functionPaths(value, `${prefix}${key}.`) : [],
  );
}

describe('the control client type', () => {
  it('is backend.control with every result a promise', () => {
    expectTypeOf<ControlClient['clock']['now']>().toEqualTypeOf<() => Promise<string>>();
    expectTypeOf<ControlClient['checkout']['gateway']['held']>().toEqualTypeOf<MockBackend['control']['checkout']['gateway']['held']>();
    expectTypeOf<Parameters<ControlClient['anchor']['completeInteractive']>>().toEqualTypeOf<
      Parameters<MockBackend['control']['anchor']['completeInteractive']>
    >();
    expectTypeOf<ReturnType<ControlClient['rails']['otp']>>().toEqualTypeOf<Promise<ReturnType<MockBackend['control']['rails']['otp']>>>();
    expectTypeOf<keyof ControlClient>().toEqualTypeOf<keyof MockBackend['control']>();
  });
});

describe.each(MODES)('the control client, %s', (_mode, start) => {
  let env: MockEnv;
  let control: ControlClient;
  beforeAll(async () => {
    env = await start();
    control = createControlClient({ baseUrl: `${env.origin}/` });
  });
  afterAll(() => env.close());

  it('has every call backend.control has, and nothing else', () => {
    expect(functionPaths(control).toSorted()).toEqual(functionPaths(env.backend.control).toSorted());
  });

  it('moves the mock clock and reads it back as the in-process control does', async () => {
    const before = Date.parse(await control.clock.now());
    const after = await control.clock.advance(90);
    expect(Date.parse(after) - before).toBe(90_000);
    expect(await control.clock.now()).toBe(env.backend.control.clock.now());
  });

  it('issues a checkout key that the checkout API accepts, completes a payment with it, and rotates it', async () => {
    const issued = await control.checkout.createKey();
    expect(issued).toMatchObject({ key: expect.any(String), key_id: expect.any(String), organization_id: expect.stringMatching(/^org_/) });
    const payment = await createPayment(env, issued.key);
    const session = await control.checkout.complete(payment.reference, 'completed');
    expect(session).toMatchObject({ reference: payment.reference });

    const rotated = await control.checkout.rotateKey(issued.key);
    expect(rotated.organization_id).toBe(issued.organization_id);
    expect((await call(env, 'POST', PAYMENTS, { body: paymentBody(), headers: auth(issued.key) })).status).toBe(401);
    expect((await call(env, 'POST', PAYMENTS, { body: paymentBody(), headers: auth(rotated.key) })).status).toBe(201);
  });

  it('approves a merchant registered through the public API, and lists its deliveries', async () => {
    const merchant = await registerMerchant(env);
    const approved = await control.merchants.approveKyb(merchant.id);
    expect(approved).toMatchObject({ id: merchant.id, status: env.backend.store.merchants.get(merchant.id)!.status });
    expect(await control.merchants.enableRamp(merchant.id)).toEqual({ id: merchant.id, ramp_enabled: true });
    expect(await control.webhooks.list({ merchantId: merchant.id })).toEqual([]);
    await expect(control.webhooks.settle()).resolves.toBeUndefined();
  });

  it('rejects a refused call with the HttpError the in-process control throws, status and code', async () => {
    expect(HttpError).toBe(ServerHttpError);
    await expect(control.merchants.approveKyb('mer_missing')).rejects.toMatchObject({ name: 'HttpError', status: 404, code: 'NOT_FOUND' });
    expect(() => env.backend.control.merchants.approveKyb('mer_missing')).toThrow(expect.objectContaining({ status: 404, code: 'NOT_FOUND' }));
    await expect(control.rails.otp('+233200000000')).rejects.toBeInstanceOf(HttpError);
    await expect(control.customers.setStatus('cus_missing', 'ACCEPTED')).rejects.toMatchObject({ status: 404 });
    await expect(control.clock.advance(-1)).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('resets the mock', async () => {
    await control.checkout.createKey();
    expect(env.backend.store.checkout.organizations.size).toBeGreaterThan(0);
    await control.reset();
    expect(env.backend.store.checkout.organizations.size).toBe(0);
  });
});

describe.each(MODES)('reset({ seed }), %s', (_mode, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 1 });
  });
  afterAll(() => env.close());

  /** The ids a short scenario makes: a merchant, its customer, a checkout organization and key. */
  async function scenario(control: Pick<ControlClient, 'fixtures'>) {
    const merchant = await control.fixtures.merchant();
    const customer = await control.fixtures.customer(merchant);
    const checkout = await control.fixtures.checkout();
    return { merchant: merchant.id, email: merchant.email, customer: customer.id, organization: checkout.organization_id, key_id: checkout.key_id, secret: merchant.secret_key };
  }

  it('makes the same ids after it whatever ran before, in-process and over the client, as a new backend with that seed', async () => {
    const client = createControlClient({ baseUrl: env.origin });
    await scenario(client);
    await client.reset({ seed: 42 });
    const first = await scenario(client);
    await scenario(client);
    await scenario(client);
    env.backend.control.reset({ seed: 42 });
    const again = await scenario(env.backend.control);
    const { secret, ...ids } = first;
    expect({ ...again, secret: undefined }).toEqual({ ...ids, secret: undefined });
    // Secrets never take the seed.
    expect(again.secret).not.toBe(secret);

    // A new backend's fixtures need no listener: they go to its own handlers.
    const fresh = createMockBackend({ clock: 'manual', seed: 42 });
    const { secret: _secret, ...freshIds } = await scenario(fresh.control);
    fresh.clock.stop();
    expect(freshIds).toEqual(ids);
    await client.reset({ seed: 43 });
    expect((await scenario(client)).merchant).not.toBe(first.merchant);
  });

  it('refuses a seed that is not a 32-bit unsigned integer and resets nothing', async () => {
    const client = createControlClient({ baseUrl: env.origin });
    await client.fixtures.checkout();
    const organizations = env.backend.store.checkout.organizations.size;
    await expect(client.reset({ seed: -1 })).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    await expect(client.reset({ seed: 1.5 })).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(() => env.backend.control.reset({ seed: 2 ** 32 })).toThrow(expect.objectContaining({ status: 400, code: 'VALIDATION_ERROR' }));
    expect(env.backend.store.checkout.organizations.size).toBe(organizations);
  });
});

describe('the control client of a mock closed with a control token', () => {
  const token = 'a-control-token-of-32-characters';
  let server: Awaited<ReturnType<typeof startMockServer>>;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, clock: 'manual', controlToken: token });
  });
  afterAll(() => server.close());

  it('sends the token as a bearer token, and is refused without it', async () => {
    await expect(createControlClient({ baseUrl: server.url }).clock.now()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    await expect(createControlClient({ baseUrl: server.url, token: 'wrong-token-of-enough-length' }).clock.now()).rejects.toMatchObject({ status: 401 });
    expect(await createControlClient({ baseUrl: server.url, token }).clock.now()).toBe(server.backend.control.clock.now());
  });
});

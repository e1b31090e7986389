/**
 * The three polling helpers (waitForOrder, waitForCustomer, watchTransaction) take the same
 * options, `clock` and `interval` included (on the mock's manual clock a wait of minutes of
 * clock time ends in milliseconds of real time), and resolve with the same WaitResult.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { AnchorClient, WatchTransactionOptions } from '../src/anchor/index.js';
import { poll } from '../src/core/poll.js';
import { AbortError, ValidationError, WaitTimeoutError, type RequestOptions, type WaitOptions, type WaitResult } from '../src/index.js';
import type { AnchorTransaction, AnchorTransfers } from '../src/resources/anchor/sep24.js';
import type { RampOrder, RampOrders, RampOrderStatus, WaitForOrderOptions } from '../src/resources/ramp/orders.js';
import type { Customer, Customers, CustomerStatus, WaitForCustomerOptions } from '../src/resources/widget/customers.js';
import { customerInput, newWidget } from './helpers/clients.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';
import { manualWait, newRamp, onRamp, verifiedPhone } from './helpers/ramp.js';

let env: MockEnv;
beforeAll(async () => {
  env = await startStandalone({ seed: 18 });
});
afterAll(() => env.close());

describe('polling helpers', () => {
  it('waitForCustomer waits on the given clock: PROCESSING to ACCEPTED after 60 s of clock time, in well under a second', async () => {
    const { widget } = await newWidget(env);
    const { id, status } = await widget.customers.create(customerInput('Processing'));
    expect(status).toBe('PROCESSING');
    const { clock, sleeps } = manualWait(env);
    const seen: string[] = [];
    const clockStart = env.backend.clock.now();
    const realStart = performance.now();
    const result = await widget.customers.waitForCustomer(id, { clock, onStatus: (c) => seen.push(c.status) });
    const realMs = performance.now() - realStart;
    expect(result).toEqual({ succeeded: true, status: 'ACCEPTED', value: expect.objectContaining({ id, status: 'ACCEPTED' }) });
    expect(seen).toEqual(['PROCESSING', 'ACCEPTED']);
    expect(sleeps).toEqual(Array.from({ length: 12 }, () => 5_000));
    expect(env.backend.clock.now() - clockStart).toBe(60_000);
    expect(realMs).toBeLessThan(2_000);
  });

  it('waitForCustomer gives up on the clock too: maxDuration is clock time', async () => {
    const { widget } = await newWidget(env);
    const { id } = await widget.customers.create(customerInput('Processing'));
    const { clock, sleeps } = manualWait(env);
    const error = await widget.customers.waitForCustomer(id, { clock, interval: 20, maxDuration: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ lastStatus: 'PROCESSING' });
    expect(sleeps).toEqual([20_000, 20_000, 10_000]);
  });

  it.each([
    ['interval 0', { interval: 0, maxDuration: 1 }],
    ['interval -5', { interval: -5, maxDuration: 1 }],
    ['interval NaN', { interval: Number.NaN, maxDuration: 1 }],
    ['maxDuration NaN', { interval: 0.02, maxDuration: Number.NaN }],
  ])('refuses %s with ValidationError, rather than asking the service without a pause or without an end', async (_name, options) => {
    const { widget } = await newWidget(env);
    const { id } = await widget.customers.create(customerInput('Processing'));
    const started = performance.now();
    const error = await widget.customers.waitForCustomer(id, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(performance.now() - started).toBeLessThan(500);
  }, 5_000);

  it('does not look again at once when asked to wait longer than a timer holds (24.8 days)', async () => {
    let looks = 0;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const waiting = poll({
      fetch: async () => (looks++, 'PENDING'),
      status: (value) => value,
      isFinal: () => false,
      succeeded: () => false,
      interval: () => 30 * 24 * 3600,
      defaultMaxDuration: Number.POSITIVE_INFINITY,
      signal: controller.signal,
    });
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
    expect(looks).toBe(1);
  });

  it('waitForOrder takes interval as the other two do, in place of its per-status table', async () => {
    const ramp = await newRamp(env);
    const order = await ramp.client.orders.create(onRamp(await verifiedPhone(env, ramp)));
    const { clock, sleeps } = manualWait(env);
    await expect(ramp.client.orders.waitForOrder(order.reference, { clock, interval: 30, maxDuration: 60 })).rejects.toBeInstanceOf(WaitTimeoutError);
    expect(sleeps).toEqual([30_000, 30_000]);
  });

  it('a customer and an order that end in failure resolve the same way: succeeded false, the status, the resource', async () => {
    const { widget } = await newWidget(env);
    const { id } = await widget.customers.create(customerInput('Rejected'));
    const customer = await widget.customers.waitForCustomer(id, { clock: manualWait(env).clock });
    expect(customer).toEqual({ succeeded: false, status: 'REJECTED', value: expect.objectContaining({ id, status: 'REJECTED' }) });

    const ramp = await newRamp(env);
    const order = await ramp.client.orders.create(onRamp(await verifiedPhone(env, ramp)));
    await env.backend.control.rails.declinePrompt(order.reference);
    const ended = await ramp.client.orders.waitForOrder(order.reference, { clock: manualWait(env).clock });
    expect(ended).toEqual({ succeeded: false, status: 'failed', value: expect.objectContaining({ reference: order.reference, status: 'failed' }) });
    expect(Object.keys(customer).sort()).toEqual(Object.keys(ended).sort());
  });

  it('the three result types are the same WaitResult, typed by the resource and its statuses', () => {
    expectTypeOf<Awaited<ReturnType<Customers['waitForCustomer']>>>().toEqualTypeOf<WaitResult<Customer, CustomerStatus>>();
    expectTypeOf<Awaited<ReturnType<RampOrders['waitForOrder']>>>().toEqualTypeOf<WaitResult<RampOrder, RampOrderStatus>>();
    expectTypeOf<Awaited<ReturnType<AnchorTransfers['watch']>>>().toEqualTypeOf<WaitResult<AnchorTransaction, AnchorTransaction['status']>>();
    expectTypeOf<Awaited<ReturnType<AnchorClient['watchTransaction']>>>().toEqualTypeOf<WaitResult<AnchorTransaction, AnchorTransaction['status']>>();
    expectTypeOf<keyof WaitResult<unknown>>().toEqualTypeOf<'succeeded' | 'status' | 'value'>();
  });

  it('the three option types are the same WaitOptions with the call options', () => {
    expectTypeOf<WaitForCustomerOptions>().toExtend<WaitOptions<Customer> & RequestOptions>();
    expectTypeOf<keyof WaitForCustomerOptions>().toEqualTypeOf<keyof (WaitOptions<Customer> & RequestOptions)>();
    expectTypeOf<WaitForOrderOptions>().toExtend<WaitOptions<RampOrder> & RequestOptions>();
    expectTypeOf<keyof WaitForOrderOptions>().toEqualTypeOf<keyof (WaitOptions<RampOrder> & RequestOptions)>();
    expectTypeOf<WatchTransactionOptions>().toExtend<WaitOptions<AnchorTransaction> & RequestOptions>();
    expectTypeOf<keyof WaitOptions<unknown>>().toEqualTypeOf<'signal' | 'maxDuration' | 'interval' | 'onStatus' | 'clock'>();
  });
});

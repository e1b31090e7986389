/**
 * `withResponse()`: the result of a call together with its HTTP answer and request id,
 * through real calls to the standalone mock server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { SikarampError, type APIPromise, type Customer, type PaymentCreateResult, type WithResponse } from '../src/index.js';
import { newCheckout, payment } from './helpers/checkout.js';
import { customerInput, newWidget } from './helpers/clients.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';

let env: MockEnv;
beforeAll(async () => {
  env = await startStandalone();
});
afterAll(() => env.close());

describe('withResponse()', () => {
  it('gives the parsed result, the answer with its status and headers, and the request id of the body', async () => {
    const { widget } = await newWidget(env);
    const { id } = await widget.customers.create(customerInput());
    const promise = widget.customers.get(id);
    expectTypeOf(promise).toEqualTypeOf<APIPromise<Customer>>();
    const { data, response, requestId } = await promise.withResponse();
    expectTypeOf(data).toEqualTypeOf<Customer>();
    expect(data.id).toBe(id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(requestId).toMatch(/^req_[0-9a-f]+$/);
    // The same promise still awaits to the result alone, and each call has its own request id.
    expect((await promise).id).toBe(id);
    const again = await widget.customers.get(id).withResponse();
    expect(again.requestId).not.toBe(requestId);
  });

  it('works on a checkout creation, whose answer carries the status the outcome came from', async () => {
    const { client } = await newCheckout(env);
    const created: WithResponse<PaymentCreateResult> = await client.payments.create(payment(), { idempotencyKey: 'order-wr-1' }).withResponse();
    expect(created.data.outcome).toBe('created');
    expect(created.response.status).toBe(201);
    const replayed = await client.payments.create(payment(), { idempotencyKey: 'order-wr-1' }).withResponse();
    expect(replayed.data.outcome).toBe('replayed');
    expect([200, 201]).toContain(replayed.response.status);
  });

  it('calls running at the same time each get their own answer', async () => {
    const { widget } = await newWidget(env);
    const ids = await Promise.all([1, 2, 3].map(async (n) => (await widget.customers.create(customerInput('Mensah', 1000 + n))).id));
    const answers = await Promise.all(ids.map((id) => widget.customers.get(id).withResponse()));
    expect(answers.map((a) => a.data.id)).toEqual(ids);
    expect(new Set(answers.map((a) => a.requestId)).size).toBe(3);
  });

  it('rejects as the call does when it fails', async () => {
    const { widget } = await newWidget(env);
    await expect(widget.customers.get('cus_unknown').withResponse()).rejects.toMatchObject({ status: 404 });
  });

  it('says so on a method that makes no single request of its own (a wait polls many times)', async () => {
    const { widget } = await newWidget(env);
    const { id } = await widget.customers.create(customerInput());
    await expect(widget.customers.waitForCustomer(id).withResponse()).rejects.toThrow(SikarampError);
  });
});

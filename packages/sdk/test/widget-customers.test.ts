import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, NotFoundError, PermissionDeniedError, ValidationError, WaitTimeoutError, type Customer } from '../src/index.js';
import { customerInput, newWidget } from './helpers/clients.js';
import { MODES, type MockEnv } from './helpers/mock.js';

describe.each(MODES)('widget.customers and widget.sessions, %s', (_name, start) => {
  let env: MockEnv;
  let widget: Awaited<ReturnType<typeof newWidget>>['widget'];
  let sent: string[];
  beforeAll(async () => {
    env = await start({ seed: 32 });
    ({ widget, sent } = await newWidget(env));
  });
  afterAll(() => env.close());

  it('creates an ACCEPTED customer and reads it back with its provided fields', async () => {
    const created = await widget.customers.create({ ...customerInput(), mobile_number: '+233201234567', birth_date: '1990-05-17' });
    expect(created).toEqual({ id: expect.any(String), status: 'ACCEPTED' });
    const customer = await widget.customers.get(created.id);
    expect(customer.status).toBe('ACCEPTED');
    expect(customer.provided_fields?.first_name).toMatchObject({ type: 'string', status: 'ACCEPTED' });
    expect(customer.provided_fields?.birth_date).toMatchObject({ type: 'date' });
    expect(customer.provided_fields?.mobile_number?.status).toBe('VERIFICATION_REQUIRED');
  });

  it('updates the same record when created again with the missing fields', async () => {
    const input = customerInput('NeedsInfo');
    const first = await widget.customers.create(input);
    expect(first.status).toBe('NEEDS_INFO');
    const needs = await widget.customers.get(first.id);
    expect(Object.keys(needs.fields ?? {})).toEqual(['birth_date', 'address', 'city', 'address_country_code', 'mobile_number']);
    const again = await widget.customers.create({ ...input, birth_date: '1990-01-01', address: '1 Oxford St', city: 'Accra', address_country_code: 'GHA', mobile_number: '+233201234567' });
    expect(again).toEqual({ id: first.id, status: 'ACCEPTED' });
  });

  it('refuses malformed fields before sending, naming each', async () => {
    const before = sent.length;
    const error = await widget.customers
      .create({ first_name: 'Ama', last_name: '', email_address: 'not-an-email', birth_date: '1990-02-30', address_country_code: 'GH', mobile_number: '0201234567' })
      .catch((e: unknown) => e as ValidationError);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path.join('.'))).toEqual(['last_name', 'email_address', 'birth_date', 'address_country_code', 'mobile_number']);
    expect(sent.length).toBe(before);
  });

  it('deletes a customer, whose id is then unknown', async () => {
    const { id } = await widget.customers.create(customerInput());
    await expect(widget.customers.delete(id)).resolves.toEqual({ deleted: true });
    await expect(widget.customers.get(id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(widget.customers.delete(id)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('waits while PROCESSING and stops on ACCEPTED, reporting each status', async () => {
    const { id, status } = await widget.customers.create(customerInput('Processing'));
    expect(status).toBe('PROCESSING');
    const seen: string[] = [];
    const done = widget.customers.waitForCustomer(id, { interval: 0.02, onStatus: (c) => seen.push(c.status) });
    await waitUntil(() => seen.length === 1);
    await env.backend.clock.advance(60);
    await expect(done).resolves.toMatchObject({ succeeded: true, status: 'ACCEPTED', value: { id, status: 'ACCEPTED' } });
    expect(seen).toEqual(['PROCESSING', 'ACCEPTED']);
  });

  it('waits while NEEDS_INFO until the missing fields arrive', async () => {
    const input = customerInput('NeedsInfo');
    const { id } = await widget.customers.create(input);
    const seen: Customer[] = [];
    const done = widget.customers.waitForCustomer(id, { interval: 0.02, onStatus: (c) => seen.push(c) });
    await waitUntil(() => seen.length === 1);
    expect(seen[0]!.fields).toHaveProperty('birth_date');
    await widget.customers.create({ ...input, birth_date: '1990-01-01', address: '1 Oxford St', city: 'Accra', address_country_code: 'GHA', mobile_number: '+233201234567' });
    await expect(done).resolves.toMatchObject({ succeeded: true, status: 'ACCEPTED' });
  });

  it('stops on REJECTED and resolves with it, not succeeded', async () => {
    const { id } = await widget.customers.create(customerInput('Rejected'));
    await expect(widget.customers.waitForCustomer(id, { interval: 0.02 })).resolves.toMatchObject({ succeeded: false, status: 'REJECTED', value: { id, status: 'REJECTED' } });
  });

  it('gives up after maxDuration with the last status, and stops when aborted', async () => {
    const { id } = await widget.customers.create(customerInput('Processing'));
    const error = await widget.customers.waitForCustomer(id, { interval: 0.02, maxDuration: 0.1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ lastStatus: 'PROCESSING' });
    const controller = new AbortController();
    const waiting = widget.customers.waitForCustomer(id, { interval: 5, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
  });

  it('starts a 30-minute session for an ACCEPTED customer', async () => {
    const { id } = await widget.customers.create(customerInput());
    const session = await widget.sessions.create({ user_id: id });
    expect(session).toMatchObject({ session_id: expect.any(String), session_token: expect.any(String) });
    expect(Date.parse(session.expires_at) - env.backend.clock.now()).toBe(30 * 60 * 1000);
  });

  it('refuses a session for a customer not yet ACCEPTED with PermissionDeniedError KYC_NOT_APPROVED', async () => {
    const { id } = await widget.customers.create(customerInput('Processing'));
    const error = await widget.sessions.create({ user_id: id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'KYC_NOT_APPROVED' });
  });

  it('answers a session for an unknown customer with NotFoundError', async () => {
    await expect(widget.sessions.create({ user_id: 'no-such-customer' })).rejects.toBeInstanceOf(NotFoundError);
  });
});

async function waitUntil(condition: () => boolean) {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error('condition not met');
}

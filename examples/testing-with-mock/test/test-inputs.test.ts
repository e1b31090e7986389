/**
 * The test inputs the package exports, used as a merchant's tests use them: KYC_TRIGGERS pick
 * a new customer's review, TEST_PHONES pick what the customer does with a Mobile Money prompt,
 * with no control call, in-process on the manual clock.
 */
import { KYC_TRIGGERS, PROMPT_DECLINE_SECONDS, startInProcessMock, TEST_PHONES, type InProcessMock } from '@sikaramp/mock-server';
import { RampClient, WidgetClient } from '@sikaramp/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';

let mock: InProcessMock;
beforeAll(async () => {
  mock = await startInProcessMock({ clock: 'manual', onUnhandledFrame: 'error' });
});
afterAll(() => mock.close());

it('KYC_TRIGGERS.rejected makes a REJECTED customer, any other last name an ACCEPTED one', async () => {
  const merchant = await mock.backend.control.fixtures.merchant();
  const widget = new WidgetClient({ baseUrl: mock.backend.urls.base, secretKey: merchant.secret_key });
  const rejected = await widget.customers.create({ first_name: 'Ama', last_name: KYC_TRIGGERS.rejected, email_address: 'ama@example.com' });
  const accepted = await widget.customers.create({ first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' });
  expect([rejected.status, accepted.status]).toEqual(['REJECTED', 'ACCEPTED']);
});

it('a buy for TEST_PHONES.decline fails on its own once the customer declines the prompt', async () => {
  const merchant = await mock.backend.control.fixtures.merchant();
  const { phone } = await mock.backend.control.fixtures.verifiedPhone(merchant, { phone: TEST_PHONES.decline });
  const ramp = new RampClient({ baseUrl: mock.backend.urls.ramp[0]!, secretKey: merchant.secret_key });
  const order = await ramp.orders.create({
    type: 'onramp',
    fiat_amount: 50,
    destination_wallet: 'GBXEIQBGM3ECPAZDP3AK2ETT6ZEJIOK6KBITRD6GETEVNLAGTP627FQ7',
    user: { first_name: 'Kwame', last_name: 'Mensah', phone, network: 'MTN' },
  });
  // The prompt goes out 2 s after the order; the customer declines it PROMPT_DECLINE_SECONDS later.
  await mock.backend.control.clock.advance(2 + PROMPT_DECLINE_SECONDS);
  expect(await ramp.orders.get(order.reference)).toMatchObject({ status: 'failed' });
});

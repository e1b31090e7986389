// test/top-ups.test.mjs
import { afterAll, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { startInProcessMock } from '@sikaramp/mock-server';
import { WidgetClient } from '@sikaramp/sdk';

let mock;
beforeAll(async () => {
  mock = await startInProcessMock({ clock: 'manual', onUnhandledFrame: 'error' });
});
beforeEach(() => mock.backend.control.reset({ seed: 1 }));
afterAll(() => mock.close());

it('opens a buy for an accepted customer', async () => {
  const merchant = await mock.backend.control.fixtures.merchant();
  const customer = await mock.backend.control.fixtures.customer(merchant);
  const widget = new WidgetClient({ baseUrl: mock.url, secretKey: merchant.secret_key, publicKey: merchant.public_key });
  const { url } = await widget.interactive.deposit({ user_id: customer.id, fiat_amount: 100 });
  expect(url.startsWith(`${mock.url}/interactive`)).toBe(true);
});

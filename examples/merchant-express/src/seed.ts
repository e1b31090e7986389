/**
 * Test mode: sets up, on a fresh mock server, everything a merchant gets from Sikaramp's
 * onboarding, with the SDK where a merchant would use it and the mock's control API where
 * Sikaramp's staff or the outside world would act (KYB approval, ramp activation, the SMS
 * code, the checkout key from the developer dashboard). Returns the shop's configuration.
 */
import { CheckoutClient, MerchantClient, RampClient, WidgetClient } from '@sikaramp/sdk';
import { Keypair } from '@sikaramp/sdk/anchor';
import { DEMO_WALLET, type Config } from './config.ts';

export interface SeedOptions {
  /** The mock server, e.g. `http://127.0.0.1:4010`. */
  mockUrl: string;
  /** Where the shop listens, as the browser and the mock reach it. */
  publicUrl: string;
  port: number;
  databasePath: string;
}

export interface Seeded {
  config: Config;
  /** What was done, one readable line each. */
  steps: string[];
}

const CUSTOMER = { firstName: 'Ama', lastName: 'Mensah', email: 'ama@example.com', phone: '0241234567', network: 'MTN' };

export async function seedMock({ mockUrl, publicUrl, port, databasePath }: SeedOptions): Promise<Seeded> {
  const control = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${mockUrl}/_mock${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`mock control ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };

  // The merchant signs up in the dashboard, and Sikaramp approves the business.
  const email = `kofi+${Date.now()}@shop.example`;
  const password = 'demo password, not a real one';
  const dashboard = new MerchantClient({ baseUrl: mockUrl, email, password });
  const merchant = await dashboard.auth.register({ name: 'Kofi Shop', legal_name: 'Kofi Shop Ltd', email, password });
  await control('POST', `/merchants/${merchant.id}/kyb/approve`);
  await control('POST', `/merchants/${merchant.id}/ramp/enable`);

  // Keys: the public one only for the shop's own origins (both spellings of this machine).
  const origins = [...new Set([new URL(publicUrl).origin, `http://localhost:${port}`, `http://127.0.0.1:${port}`])];
  const { key: publicKey } = await dashboard.apiKeys.create({ key_type: 'public', domains: origins });
  const { key: secretKey } = await dashboard.apiKeys.create({ key_type: 'secret' });
  const { secret: webhookSecret } = await dashboard.webhook.set({ url: `${publicUrl}/webhooks/sikaramp` });
  await dashboard.widgetConfig.update({ theme: { primary_color: '#0f766e', border_radius: '10px' } });

  // A customer who passed KYC for the widget, and whose phone passed ramp KYC (the SMS code
  // comes from the mock: in real life the customer types it).
  const widget = new WidgetClient({ baseUrl: mockUrl, secretKey, publicKey });
  const customer = await widget.customers.create({
    first_name: CUSTOMER.firstName,
    last_name: CUSTOMER.lastName,
    email_address: CUSTOMER.email,
    mobile_number: `+233${CUSTOMER.phone.slice(1)}`,
  });
  const ramp = new RampClient({ baseUrl: mockUrl, secretKey });
  const { kyc_id } = await ramp.kyc.initiate({
    first_name: CUSTOMER.firstName,
    last_name: CUSTOMER.lastName,
    phone: CUSTOMER.phone,
    provider_name: CUSTOMER.network,
  });
  const { code } = await control('GET', `/otp?phone=${CUSTOMER.phone}`);
  await ramp.kyc.verify({ kyc_id, otp_code: code });

  // Checkout: a key from the developer dashboard, and a webhook subscription.
  const { key: checkoutApiKey } = await control('POST', '/checkout/keys', {});
  const checkout = new CheckoutClient({ baseUrl: mockUrl, apiKey: checkoutApiKey });
  const { secret: checkoutWebhookSecret } = await checkout.webhooks.create({ url: `${publicUrl}/webhooks/checkout` });

  if (!webhookSecret) throw new Error('the mock answered no webhook secret');
  return {
    config: {
      port,
      publicUrl,
      databasePath,
      baseUrl: mockUrl,
      rampBaseUrl: mockUrl,
      checkoutBaseUrl: mockUrl,
      // The mock serves the anchor under /anchor of the same port.
      anchorUrl: `${mockUrl}/anchor`,
      stellarAccount: Keypair.random(),
      publicKey,
      secretKey,
      webhookSecret,
      checkoutApiKey,
      checkoutWebhookSecret,
      customer: {
        id: customer.id,
        firstName: CUSTOMER.firstName,
        lastName: CUSTOMER.lastName,
        phone: CUSTOMER.phone,
        network: CUSTOMER.network,
        wallet: DEMO_WALLET,
      },
      mockUrl,
    },
    steps: [
      `merchant   Kofi Shop registered, KYB approved, ramp enabled; public and secret keys issued`,
      `checkout   checkout API key issued for a new organization`,
      `webhooks   order and payment webhooks to /webhooks/sikaramp, checkout webhooks to /webhooks/checkout`,
      `customer   ${CUSTOMER.firstName} ${CUSTOMER.lastName}, KYC ${customer.status}, phone ${CUSTOMER.phone} verified for ramp orders`,
    ],
  };
}

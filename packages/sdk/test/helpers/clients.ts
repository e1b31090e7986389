/** Set-up shared by the client suites: SDK clients pointed at a mock, and a record of what they sent. */
import { MerchantClient, type MerchantClientOptions } from '../../src/clients/merchant.js';
import { WidgetClient } from '../../src/clients/widget.js';
import type { MockEnv } from './mock.js';

/** A fetch that records `METHOD /path` of every request, then sends it. */
export function recordingFetch(): { fetch: typeof fetch; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    fetch: (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      sent.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(input, init);
    },
  };
}

let counter = 0;

export interface Merchant {
  client: MerchantClient;
  id: string;
  email: string;
  password: string;
  sent: string[];
}

/** Registers a merchant through the SDK and returns a client that logs in by itself, on the mock's clock. */
export async function newMerchant(env: MockEnv, options: Partial<MerchantClientOptions> = {}): Promise<Merchant> {
  const email = `merchant${++counter}-${env.mode}@example.com`;
  const password = 'correct horse battery';
  const { fetch, sent } = recordingFetch();
  const client = new MerchantClient({ baseUrl: env.origin, email, password, fetch, now: () => env.backend.clock.now(), ...options });
  const merchant = await client.auth.register({ name: 'Ama Shop', legal_name: 'Ama Shop Ltd', email, password });
  return { client, id: merchant.id, email, password, sent };
}

/** A merchant with a secret and a public key, and a WidgetClient using them. */
export async function newWidget(env: MockEnv) {
  const merchant = await newMerchant(env);
  const secret = await merchant.client.apiKeys.create({ key_type: 'secret' });
  const pub = await merchant.client.apiKeys.create({ key_type: 'public' });
  const { fetch, sent } = recordingFetch();
  const widget = new WidgetClient({ baseUrl: env.origin, secretKey: secret.key, publicKey: pub.key, fetch });
  return { merchant, widget, secretKey: secret.key, publicKey: pub.key, sent };
}

/** Customer input that the mock reviews to ACCEPTED at once; `last_name` picks another outcome. */
export const customerInput = (lastName = 'Mensah', n = ++counter) => ({
  first_name: 'Ama',
  last_name: lastName,
  email_address: `ama${n}@example.com`,
});

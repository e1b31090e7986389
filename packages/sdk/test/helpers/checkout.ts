/**
 * Set-up of the checkout suites: a checkout key from the mock's control API, a CheckoutClient
 * whose fetch records every request (and can lose an answer on purpose, see ./wire.ts), and a
 * webhook receiver on 127.0.0.1 that keeps each raw body.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CheckoutClient, type CheckoutClientOptions } from '../../src/clients/checkout.js';
import type { PaymentCreated, PaymentCreateParams } from '../../src/index.js';
import type { MockEnv } from './mock.js';
import { wireFetch, type Wire } from './wire.js';

export interface Checkout {
  client: CheckoutClient;
  key: string;
  organizationId: string;
  wire: Wire;
}

/** A checkout key for a new organization, and a CheckoutClient using it. */
export async function newCheckout(env: MockEnv, options: Partial<CheckoutClientOptions> = {}): Promise<Checkout> {
  const { key, organization_id } = await env.backend.control.checkout.createKey();
  const wire = wireFetch();
  const client = new CheckoutClient({ baseUrl: env.origin, apiKey: key, fetch: wire.fetch, ...options });
  return { client, key, organizationId: organization_id!, wire };
}

export const payment = (overrides: Partial<PaymentCreateParams> = {}): PaymentCreateParams => ({
  amount: 10_000,
  currency: 'GHS',
  recipient: { name: 'Ama Mensah', email: 'ama@example.com' },
  redirect_url: 'https://shop.example/return?order=42',
  ...overrides,
});

/** Creates a payment with `payment(overrides)` and gives its references; a 202 (in progress) fails the test. */
export async function created(checkout: Checkout, overrides: Partial<PaymentCreateParams> = {}): Promise<PaymentCreated> {
  const result = await checkout.client.payments.create(payment(overrides));
  if (result.outcome === 'in_progress') throw new Error('unexpected 202');
  return result.data;
}

/** The organization's transactions in the mock's store, oldest first. */
export function transactionsOf(env: MockEnv, organizationId: string): { reference: string; session_id: string; status: string }[] {
  return [...env.backend.store.checkout.transactions.values()]
    .filter((t) => t.organization_id === organizationId)
    .map(({ reference, session_id, status }) => ({ reference, session_id, status }));
}

export interface Received {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent. */
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status answered to the next deliveries. Default 200. */
  status: number;
  close(): Promise<void>;
}

/** A merchant's webhook endpoint: a real node:http server on 127.0.0.1, port 0. */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], status: 200, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(receiver.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

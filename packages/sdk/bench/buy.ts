/**
 * A whole buy in-process on the mock's manual clock: the customer is created, the buy started
 * at the widget backend, the customer's form and Mobile Money prompt answered, the clock moved
 * through the chain's payment, and the signed `order.completed` verified by the merchant's
 * webhook endpoint (a node:http server on 127.0.0.1 using `verifyWebhook`). The SDK clients
 * reach the mock through msw/node, as in a merchant's own tests. The live service takes 1-4
 * minutes for the same.
 */
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createMockBackend } from '@sikaramp/mock-server';
import { Keypair } from '@stellar/stellar-sdk';
import { MerchantClient, WidgetClient } from '../dist/index.js';
import { verifyWebhook } from '../dist/webhooks/node.js';

const RUNS = 20;
const PHONE = '+233201234567';

/** msw is the mock server's dependency: load its copy, so that the mock's handlers and this server share one msw. */
async function setupServer(handlers: unknown[]) {
  const fromMock = createRequire(new URL('../node_modules/@sikaramp/mock-server/package.json', import.meta.url));
  const msw = (await import(pathToFileURL(fromMock.resolve('msw/node')).href)) as {
    setupServer(...h: unknown[]): { listen(o?: { onUnhandledFrame?: 'bypass' }): void; close(): void };
  };
  return msw.setupServer(...handlers);
}

export async function benchBuy() {
  const backend = createMockBackend({ clock: 'manual', seed: 7 });
  const msw = await setupServer(backend.handlers);
  msw.listen({ onUnhandledFrame: 'bypass' });

  // The merchant's webhook endpoint: resolves the waiter of each order once its order.completed verifies.
  let secret = '';
  const waiting = new Map<string, () => void>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const event = await verifyWebhook({ body: Buffer.concat(chunks), headers: req.headers, secret, now: backend.clock.now() });
        res.writeHead(200).end();
        if (event.event === 'order.completed' && 'order_id' in event) waiting.get(event.order_id)?.();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

  try {
    const origin = backend.urls.origin;
    const email = 'bench@example.com';
    const password = 'correct horse battery';
    const merchant = new MerchantClient({ baseUrl: origin, email, password, now: () => backend.clock.now() });
    await merchant.auth.register({ name: 'Ama Shop', legal_name: 'Ama Shop Ltd', email, password });
    const secretKey = (await merchant.apiKeys.create({ key_type: 'secret' })).key;
    const publicKey = (await merchant.apiKeys.create({ key_type: 'public' })).key;
    secret = (await merchant.webhook.set({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` })).secret!;
    const widget = new WidgetClient({ baseUrl: origin, secretKey, publicKey });
    const wallet = Keypair.random().publicKey();

    const buy = async (n: number) => {
      const start = performance.now();
      const customer = await widget.customers.create({ first_name: 'Ama', last_name: 'Mensah', email_address: `ama${n}@example.com` });
      const { id } = await widget.interactive.deposit({ user_id: customer.id, fiat_amount: 100, destination_address: wallet });
      await backend.control.anchor.completeInteractive(id, { provider: 'mtn', phone: PHONE });
      await backend.control.rails.approvePrompt(id);
      const orderId = backend.control.anchor.transaction(id).order_id!;
      const completed = new Promise<void>((resolve) => waiting.set(orderId, resolve));
      // The Mobile Money payment settles, then the USDC payment confirms on the chain.
      for (const seconds of [2, 5]) {
        await backend.clock.advance(seconds);
        await backend.control.webhooks.settle();
      }
      await completed;
      return performance.now() - start;
    };
    await buy(0);
    const times: number[] = [];
    for (let n = 1; n <= RUNS; n++) times.push(await buy(n));
    times.sort((a, b) => a - b);
    const median = times[Math.floor(RUNS / 2)]!;
    return {
      rows: [[`customer create -> verified order.completed (${RUNS} runs)`, `${median.toFixed(1)} ms`, `${times[0]!.toFixed(1)} ms`, `${times.at(-1)!.toFixed(1)} ms`]],
      summary: [`a whole buy in-process: median ${median.toFixed(1)} ms (target < 100 ms); the live service: 1-4 minutes, ${(60_000 / median).toFixed(0)}x to ${(240_000 / median).toFixed(0)}x faster`],
    };
  } finally {
    backend.clock.stop();
    msw.close();
    receiver.closeAllConnections();
    receiver.close();
  }
}

/**
 * The test world: the whole Sikaramp service in this process (msw/node intercepts the SDK's
 * fetch), on a manual clock, with a merchant set up as onboarding would leave it; and the
 * shop's webhook endpoint as a real HTTP server on 127.0.0.1, which the mock POSTs to.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startInProcessMock } from '@sikaramp/mock-server';
import type { WaitClock } from '@sikaramp/sdk';
import { createTopUps, type TopUpUser } from '../src/top-ups.ts';

export interface ReceivedWebhook {
  body: string;
  headers: IncomingHttpHeaders;
  /** What the shop's code made of it, or why it refused it. */
  outcome: string;
  /** The HTTP status the endpoint answered. */
  status: number;
}

export const USER: TopUpUser = {
  firstName: 'Ama',
  lastName: 'Mensah',
  phone: '0241234567',
  network: 'MTN',
  wallet: 'GBXEIQBGM3ECPAZDP3AK2ETT6ZEJIOK6KBITRD6GETEVNLAGTP627FQ7',
};

export async function startWorld() {
  // A manual clock without a seed starts at the wall clock, so signed timestamps look fresh.
  // Strict: a request to anything the mock does not serve fails the test.
  const mock = await startInProcessMock({ clock: 'manual', onUnhandledFrame: 'error' });
  const { backend } = mock;

  // The shop's webhook endpoint: answers with `failNext` 500s first, to exercise retries.
  const received: ReceivedWebhook[] = [];
  let failNext = 0;
  const receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let outcome: string;
    let status = 200;
    try {
      outcome = await topUps.receiveWebhook(body, req.headers);
      // Recorded, then the process fails before answering: the service will deliver it again.
      if (failNext > 0) (failNext--, (status = 500));
    } catch (error) {
      outcome = (error as Error).message;
      status = 400;
    }
    received.push({ body: body.toString('utf8'), headers: req.headers, outcome, status });
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

  // The merchant, as onboarding leaves it (verified, activated for ramp, keys and webhook URL),
  // and the user's phone through ramp KYC: one fixture each, made through the service's routes.
  const merchant = await backend.control.fixtures.merchant({ webhook_url: webhookUrl });
  const secretKey = merchant.secret_key;
  const webhookSecret = merchant.webhook!.secret;
  await backend.control.fixtures.verifiedPhone(merchant, { phone: USER.phone, provider: USER.network });

  // The shop's code waits on the mock's time: each pause between two looks moves the clock.
  const clock: WaitClock = {
    now: () => backend.clock.now(),
    sleep: (ms) => backend.control.clock.advance(ms / 1000).then(() => undefined),
  };
  const topUps = createTopUps({ rampBaseUrl: backend.urls.ramp[0]!, secretKey, webhookSecret, clock });

  return {
    backend,
    topUps,
    webhookUrl,
    webhookSecret,
    received,
    /** The endpoint answers 500 to the next `n` deliveries (after handling them). */
    failNextWebhooks: (n: number) => void (failNext = n),
    /** Resolves once every webhook attempt under way has been answered. */
    settled: () => backend.control.webhooks.settle(),
    async close() {
      await mock.close();
      await new Promise((resolve) => receiver.close(resolve));
    },
  };
}

export type World = Awaited<ReturnType<typeof startWorld>>;

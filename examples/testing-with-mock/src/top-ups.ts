/**
 * A merchant's own code, the thing under test: wallet top-ups. A user tops up their USDC
 * wallet with cedis from Mobile Money; the shop creates an on-ramp order with the ramp API,
 * follows it to the end, and credits the wallet only when it completed. The fiat leg's
 * payment webhooks are verified and kept, once each, for the support team.
 */
import { RampClient, type WaitClock } from '@sikaramp/sdk';
import { isRampPaymentEvent, verifyWebhook, type HeadersInput } from '@sikaramp/sdk/webhooks';
import { webhookEventKey } from '@sikaramp/sdk/webhooks/dedupe';

export interface TopUpUser {
  firstName: string;
  lastName: string;
  /** Local format, `0241234567`, verified by the ramp API's phone KYC. */
  phone: string;
  /** `MTN`, `Telecel` or `AirtelTigo`. */
  network: string;
  /** The user's Stellar address. */
  wallet: string;
}

export interface TopUpResult {
  reference: string;
  /** True only when the order completed: the wallet was credited. */
  credited: boolean;
  status: string;
  /** USDC credited. */
  usdc: number;
  failureReason?: string;
}

export interface TopUpsOptions {
  rampBaseUrl: string;
  secretKey: string;
  webhookSecret: string;
  /** How the waits read and spend time. Default real time; tests pass the mock's manual clock. */
  clock?: WaitClock;
}

export function createTopUps({ rampBaseUrl, secretKey, webhookSecret, clock }: TopUpsOptions) {
  const ramp = new RampClient({ baseUrl: rampBaseUrl, secretKey });
  const balances = new Map<string, number>();
  const wallets = new Map<string, string>();
  const payments = new Map<string, { event: string; reference: string; amount: number }>();

  return {
    /** USDC credited to a wallet so far. */
    balance: (wallet: string) => balances.get(wallet) ?? 0,
    /** The payment webhooks received, once each, by de-duplication key. */
    payments,

    /**
     * Starts a top-up of `ghs` cedis: the Mobile Money prompt goes to the user's phone. Call
     * it from the request handler; `settle` runs in the background.
     */
    async start(user: TopUpUser, ghs: number): Promise<string> {
      const order = await ramp.orders.create({
        type: 'onramp',
        fiat_amount: ghs,
        destination_wallet: user.wallet,
        user: { first_name: user.firstName, last_name: user.lastName, phone: user.phone, network: user.network },
      });
      wallets.set(order.reference, user.wallet);
      return order.reference;
    },

    /** Follows the order to its end and credits the wallet if, and only if, it completed. */
    async settle(reference: string): Promise<TopUpResult> {
      const { succeeded, status, value: order } = await ramp.orders.waitForOrder(reference, { clock });
      const usdc = succeeded ? (order.crypto_amount ?? 0) : 0;
      const wallet = wallets.get(reference)!;
      if (succeeded) balances.set(wallet, (balances.get(wallet) ?? 0) + usdc);
      return { reference, credited: succeeded, status, usdc, failureReason: order.failure_reason ?? undefined };
    },

    /** The webhook endpoint's logic: verify the raw body, keep each payment event once. Throws when not authentic. */
    async receiveWebhook(body: string | Uint8Array, headers: HeadersInput): Promise<'recorded' | 'duplicate' | 'ignored'> {
      const event = await verifyWebhook({ body, headers, secret: webhookSecret });
      if (!isRampPaymentEvent(event)) return 'ignored';
      const key = webhookEventKey(event);
      if (payments.has(key)) return 'duplicate';
      payments.set(key, { event: event.event, reference: event.data.reference, amount: event.data.amount });
      return 'recorded';
    },
  };
}

import { StrKey } from '@stellar/stellar-sdk';
import { http } from 'msw';
import { z } from 'zod';
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { badRequest, HttpError, notFound } from '../../http/errors.js';
import { requirePermission } from '../../http/auth.js';
import { ok, route } from '../../http/respond.js';
import { PROVIDERS } from '../../mobile-money.js';
import { quoteBuy, quoteSellForFiat } from '../../pricing.js';
import type { RampOrderRecord } from '../../state/ramp.js';
import type { MerchantRecord } from '../../store.js';
import { checkLimits } from '../../volume.js';
import { requireRampKey } from './auth.js';
import { readRampBody } from './body.js';
import { isPhoneVerified, LocalPhoneSchema, ProviderSchema } from './kyc.js';
import { cancelOrder, confirmOrder, startOrder } from './lifecycle.js';
import { depositMemo, rampOrderReference } from './references.js';

/** Longest `X-Idempotency-Key` accepted, characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const StellarAddress = z.string().refine((s) => StrKey.isValidEd25519PublicKey(s), 'must be a Stellar public key (G...)');
const name = z.string().trim().min(1).max(100);
const twoDecimals = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

const CreateBody = z
  .object({
    type: z.enum(['onramp', 'offramp']),
    fiat_amount: z.number().positive().finite().refine(twoDecimals, 'must have at most 2 decimal places'),
    destination_wallet: StellarAddress.optional(),
    payment_method: z.literal('mobile_money', 'must be mobile_money'),
    user: z.object({ first_name: name, last_name: name, phone: LocalPhoneSchema, network: ProviderSchema }),
  })
  .refine((b) => b.type === 'offramp' || b.destination_wallet !== undefined, {
    path: ['destination_wallet'],
    message: 'is required for an onramp order',
  });

const ConfirmBody = z.object({ source_wallet: StellarAddress });

/** The creation response of design.md section 4: `quote_locked` until the service starts payment (./lifecycle.ts). */
function creationView(o: RampOrderRecord) {
  return {
    id: o.id,
    reference: o.reference,
    type: o.type,
    status: o.status,
    fiat_amount: o.fiat_amount,
    crypto_amount: o.crypto_amount,
    rate: o.rate,
    fees: { ...o.fees },
    expires_at: iso(o.expires_at),
    ...(o.deposit ? { deposit: { ...o.deposit } } : {}),
  };
}

/** The order as the lookup shows it (001 section 2): everything the merchant needs to follow it. */
export function rampOrderView(o: RampOrderRecord) {
  return {
    ...creationView(o),
    fiat_currency: 'GHS',
    crypto_currency: 'USDC',
    payment_method: o.payment_method,
    destination_wallet: o.destination_wallet,
    source_wallet: o.source_wallet,
    deposit: o.deposit ? { ...o.deposit } : null,
    user: { ...o.user, network: PROVIDERS[o.user.network] },
    crypto_tx_hash: o.crypto_tx_hash,
    completed_at: o.completed_at,
    failure_reason: o.failure_reason,
    refunds: o.refunds.map(({ method, amount, reason, status, created_at }) => ({ method, amount, reason, status, created_at })),
    created_at: o.created_at,
    updated_at: o.updated_at,
  };
}

/** The merchant's order with this reference, else 404 NOT_FOUND (another merchant's order too). */
function findRampOrder(ctx: MockContext, merchant: MerchantRecord, reference: string): RampOrderRecord {
  for (const order of ctx.store.ramp.orders.values()) {
    if (order.reference === reference && order.merchant_id === merchant.id) return order;
  }
  throw notFound('order');
}

/**
 * Ramp orders (001 section 4, design.md section 4):
 * - `POST /api/v1/ramp/orders` with `X-Idempotency-Key` (missing: 400 MISSING_HEADER; used
 *   before by this merchant: 409 DUPLICATE_ORDER) and a key with the `onramp` or `offramp`
 *   permission for the order's type (else 403 FORBIDDEN): 201 `{ id, reference, type, status:
 *   "quote_locked", fiat_amount, crypto_amount, rate, fees, expires_at, deposit? }`;
 *   422 PHONE_NOT_VERIFIED for a phone without KYC, 422 AMOUNT_OUT_OF_RANGE outside the limits;
 * - `GET /api/v1/ramp/orders/{reference}`: 200 the order;
 * - `POST /api/v1/ramp/orders/{reference}/confirm {source_wallet}` (off-ramp) and `/cancel`: 200 the order.
 */
export function orderHandlers(ctx: MockContext, base: string) {
  const orders = `${base}/api/v1/ramp/orders`;
  return [
    http.post(
      orders,
      route(ctx, 'envelope', async ({ request }) => {
        const { merchant, key: apiKey } = await requireRampKey(ctx, request);
        const key = request.headers.get('x-idempotency-key')?.trim();
        if (!key) throw new HttpError(400, 'MISSING_HEADER', 'the X-Idempotency-Key header is required');
        if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
          throw badRequest(`X-Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
        }
        const input = await readRampBody(request, CreateBody);
        requirePermission(apiKey, input.type);
        // From here on nothing awaits, so two requests with one key cannot both pass this check.
        const used = ctx.store.ramp.idempotencyKeys.get(`${merchant.id} ${key}`);
        if (used) {
          const earlier = ctx.store.ramp.orders.get(used);
          throw new HttpError(409, 'DUPLICATE_ORDER', `this X-Idempotency-Key was already used for order ${earlier?.reference ?? used}`);
        }
        if (!isPhoneVerified(ctx, merchant, input.user.phone)) {
          throw new HttpError(422, 'PHONE_NOT_VERIFIED', "verify the user's phone (POST /api/v1/ramp/kyc/initiate, then /verify) before ordering");
        }
        const quote = input.type === 'onramp' ? quoteBuy(ctx, merchant, input.fiat_amount) : quoteSellForFiat(ctx, merchant, input.fiat_amount);
        checkLimits(ctx, merchant, { fiat: quote.fiat_amount, crypto: quote.crypto_amount });
        const now = ctx.clock.now();
        const order: RampOrderRecord = {
          id: ctx.random.uuid(),
          reference: rampOrderReference(ctx),
          merchant_id: merchant.id,
          type: input.type,
          status: 'quote_locked',
          fiat_amount: quote.fiat_amount,
          crypto_amount: quote.crypto_amount,
          rate: quote.rate,
          fees: quote.fees,
          payment_method: 'mobile_money',
          destination_wallet: input.type === 'onramp' ? (input.destination_wallet ?? null) : null,
          user: input.user,
          deposit: input.type === 'offramp' ? { stellar_address: merchant.stellar_public_key, memo: depositMemo(ctx) } : null,
          source_wallet: null,
          received: null,
          collection_id: null,
          payout_id: null,
          send_tx_hash: null,
          attempts: 0,
          crypto_tx_hash: null,
          completed_at: null,
          failure_reason: null,
          expires_at: now + ctx.options.rateLifetimeSeconds * 1000,
          refunds: [],
          created_at: iso(now),
          updated_at: iso(now),
        };
        ctx.store.ramp.orders.set(order.id, order);
        ctx.store.ramp.idempotencyKeys.set(`${merchant.id} ${key}`, order.id);
        startOrder(ctx, order);
        return ok(ctx, creationView(order), 201);
      }),
    ),
    http.get(
      `${orders}/:reference`,
      route(ctx, 'envelope', async ({ request, params }) => {
        const { merchant } = await requireRampKey(ctx, request);
        return ok(ctx, rampOrderView(findRampOrder(ctx, merchant, String(params.reference))));
      }),
    ),
    http.post(
      `${orders}/:reference/confirm`,
      route(ctx, 'envelope', async ({ request, params }) => {
        const { merchant } = await requireRampKey(ctx, request);
        const order = findRampOrder(ctx, merchant, String(params.reference));
        const { source_wallet } = await readRampBody(request, ConfirmBody);
        confirmOrder(ctx, order, source_wallet);
        return ok(ctx, rampOrderView(order));
      }),
    ),
    http.post(
      `${orders}/:reference/cancel`,
      route(ctx, 'envelope', async ({ request, params }) => {
        const { merchant } = await requireRampKey(ctx, request);
        const order = findRampOrder(ctx, merchant, String(params.reference));
        cancelOrder(ctx, order);
        return ok(ctx, rampOrderView(order));
      }),
    ),
  ];
}

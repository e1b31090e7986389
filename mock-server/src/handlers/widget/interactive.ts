import { Keypair, TransactionBuilder } from '@stellar/stellar-sdk';
import { http, type HttpHandler } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../../context.js';
import { adoptCustomer, findAcceptedCustomer } from '../../customers.js';
import { readBody } from '../../http/body.js';
import { findKey, openSession, requireKey, requirePermission } from '../../http/auth.js';
import { badRequest, HttpError } from '../../http/errors.js';
import { ok, route } from '../../http/respond.js';
import type { MerchantRecord } from '../../store.js';
import type { TransactionKind } from '../../state/anchor.js';
import { isStellarAccount } from '../../transactions/accounts.js';
import { buildChallenge, exchangeChallenge, networkPassphrase, readSep10Token } from '../anchor/sep10.js';
import { startInteractive } from '../anchor/sep24.js';

const common = {
  asset_code: z.literal('USDC', { error: 'only USDC is offered' }),
  user_id: z.string().trim().min(1).max(100),
  api_key: z.string().trim().min(1).max(200),
  lang: z.string().trim().regex(/^[a-z]{2}(-[A-Za-z]{2})?$/, 'must be a language code such as en').optional(),
};
const positive = z.number().positive('must be greater than 0').finite();

/** Buy USDC: `fiat_amount` (GHS) and `destination_address` may be left for the customer to enter. */
export const DepositInteractiveSchema = z.object({
  ...common,
  fiat_amount: positive.optional(),
  destination_address: z.string().trim().refine(isStellarAccount, 'must be a Stellar account (G… or M…)').optional(),
});

/** Sell USDC: `onchain_amount` (USDC) may be left for the customer to enter. */
export const WithdrawInteractiveSchema = z.object({ ...common, onchain_amount: positive.optional() });

/**
 * The widget backend does the anchor's work for the merchant, as the service does: SEP-10 with
 * the merchant's own Stellar key (which no merchant holds), a widget session for the customer,
 * then the same SEP-24 request with the five merchant fields. Returns the SEP-10 token's client
 * and the session.
 */
async function actAsMerchant(ctx: MockContext, merchant: MerchantRecord, userId: string) {
  const keypair = Keypair.fromSecret(merchant.stellar_secret);
  const challenge = TransactionBuilder.fromXDR(buildChallenge(ctx, keypair.publicKey()), networkPassphrase(ctx));
  challenge.sign(keypair);
  const client = await readSep10Token(ctx, await exchangeChallenge(ctx, challenge.toXDR()));
  if (!client) throw new HttpError(500, 'INTERNAL_ERROR', 'internal error');
  const session = openSession(ctx, merchant.id, userId);
  const challengeHash = Array.from(challenge.hash(), (b) => b.toString(16).padStart(2, '0')).join('');
  /** Takes back the session and the spent challenge when the anchor then refuses the request. */
  const undo = () => {
    ctx.store.sessions.delete(session.session_id);
    ctx.store.anchor.usedChallenges.delete(challengeHash);
  };
  return { client, session, undo };
}

/**
 * `POST /api/v1/widget/deposit/interactive` and `/withdraw/interactive`: the secret key in
 * `X-API-Key`, the merchant's public key in `api_key`, an ACCEPTED customer of the merchant (or
 * one without an owner, which the merchant adopts) in `user_id` (403 KYC_NOT_APPROVED otherwise). Answers the anchor's `{type, url, id}` in the envelope.
 */
export function interactiveHandlers(ctx: MockContext): HttpHandler[] {
  const handler = (kind: TransactionKind) =>
    route(ctx, 'envelope', async ({ request }) => {
      const { merchant, key } = await requireKey(ctx, request, { type: 'secret', from: 'x-api-key' });
      requirePermission(key, kind === 'deposit' ? 'onramp' : 'offramp');
      const body =
        kind === 'deposit' ? await readBody(request, DepositInteractiveSchema) : await readBody(request, WithdrawInteractiveSchema);
      const publicKey = await findKey(ctx, body.api_key);
      if (!publicKey || publicKey.key.key_type !== 'public' || publicKey.merchant.id !== merchant.id) {
        throw badRequest('api_key: must be an active public key of this merchant');
      }
      const customer = findAcceptedCustomer(ctx, merchant.id, body.user_id);
      const { client, session, undo } = await actAsMerchant(ctx, merchant, customer.id);
      const unadopt = adoptCustomer(customer, merchant.id);
      const amount = 'fiat_amount' in body ? body.fiat_amount : 'onchain_amount' in body ? body.onchain_amount : undefined;
      const result = await startInteractive(
        ctx,
        kind,
        {
          asset_code: body.asset_code,
          ...(amount === undefined ? {} : { amount }),
          ...('destination_address' in body && body.destination_address ? { account: body.destination_address } : {}),
          merchant_id: merchant.id,
          session_id: session.session_id,
          session_token: session.session_token,
          api_key: body.api_key,
          user_id: customer.id,
          ...(body.lang ? { lang: body.lang } : {}),
        },
        client,
        // The merchant's key authenticated, but the USDC is the customer's: they enter the address if it is not given.
        { defaultAccount: false },
      ).catch((error: unknown) => {
        // A refused request changes nothing: not the session opened on the merchant's behalf, nor who owns the customer.
        undo();
        unadopt();
        throw error;
      });
      return ok(ctx, result);
    });
  return [
    http.post(`${ctx.urls.base}/api/v1/widget/deposit/interactive`, handler('deposit')),
    http.post(`${ctx.urls.base}/api/v1/widget/withdraw/interactive`, handler('withdrawal')),
  ];
}

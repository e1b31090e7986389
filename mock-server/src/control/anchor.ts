/**
 * Control of interactive transactions, so that merchants' tests need no browser:
 *   POST /_mock/transactions/{id}/complete-interactive {provider, phone, amount?, destination_address?}
 *        finishes the interactive form as the customer would: sends the OTP to the phone,
 *        reads it and enters it, then confirms (amount: GHS for a deposit, USDC for a withdrawal)
 *   GET  /_mock/transactions[?status=]   every transaction, newest first
 *   GET  /_mock/transactions/{id}        one transaction, with the account that started it, its order,
 *                                        prompt and payout ids and the number of payout attempts (refunds
 *                                        are in the transaction)
 */
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../context.js';
import { readBody } from '../http/body.js';
import { HttpError, notFound } from '../http/errors.js';
import { route } from '../http/respond.js';
import { lastOtp } from '../otp.js';
import type { TransactionRecord } from '../state/anchor.js';
import { checkCompletion, completeInteractive, sendInteractiveOtp, type CompleteInteractiveInput } from '../transactions/complete.js';
import { findTransaction } from '../transactions/create.js';
import { transactionView } from '../transactions/view.js';

const CompleteBody = z.object({
  provider: z.string().min(1).max(40),
  phone: z.string().min(1).max(40),
  amount: z.number().positive().finite().optional(),
  destination_address: z.string().min(1).max(69).optional(),
});

export function anchorControl(ctx: MockContext) {
  const find = (id: string) => {
    const tx = findTransaction(ctx, id);
    if (!tx) throw notFound('transaction');
    return tx;
  };
  const detail = (tx: TransactionRecord) => ({
    transaction: transactionView(ctx, tx),
    /** The SEP-10 `sub` that started it: the only account GET /transaction answers. */
    account: tx.account,
    merchant_id: tx.merchant_id,
    customer_id: tx.customer_id,
    order_id: tx.order_id,
    collection_id: tx.collection_id,
    payout_id: tx.payout_id,
    payout_attempts: tx.payout_attempts,
  });
  const api = {
    /** Finishes the form like the customer, OTP included; returns the SEP-24 transaction. */
    async completeInteractive(id: string, input: Omit<CompleteInteractiveInput, 'otp_code'>) {
      const tx = find(id);
      // Refuse bad input before a code goes out: a refused call must not replace the phone's code.
      checkCompletion(ctx, tx, input);
      const { phone } = sendInteractiveOtp(ctx, tx, input.phone);
      const otp = lastOtp(ctx, phone);
      if (!otp) throw new HttpError(500, 'INTERNAL_ERROR', 'internal error');
      await completeInteractive(ctx, tx, { ...input, otp_code: otp.code });
      return transactionView(ctx, tx);
    },
    /** One transaction with the ids of what it started. */
    transaction: (id: string) => detail(find(id)),
    /** Every transaction, newest first; optionally only those in `status`. */
    transactions: (status?: string) =>
      [...ctx.store.anchor.transactions.values()].filter((t) => !status || t.status === status).reverse().map(detail),
  };
  const base = `${ctx.urls.control}/transactions`;
  const handlers = [
    http.post(
      `${base}/:id/complete-interactive`,
      route(ctx, 'envelope', async ({ params, request }) => {
        const body = await readBody(request, CompleteBody);
        return HttpResponse.json({ transaction: await api.completeInteractive(String(params.id), body) });
      }),
    ),
    http.get(base, ({ request }) => HttpResponse.json({ data: api.transactions(new URL(request.url).searchParams.get('status') ?? undefined) })),
    http.get(`${base}/:id`, route(ctx, 'envelope', ({ params }) => HttpResponse.json(api.transaction(String(params.id))))),
  ];
  return { api, handlers };
}

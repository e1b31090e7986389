/**
 * Control of ramp orders, for what only the simulated world can do to them:
 *   GET  /_mock/ramp/orders/{id}                 the order as the lookup shows it, plus its attempts, its
 *                                                refunds' rail ids, and every record of the rails it owns:
 *                                                Mobile Money `collections` and `payouts`, `stellar_payments`
 *   POST /_mock/ramp/orders/{id}/send/fail {reason?}   the on-ramp USDC send under way fails; it is retried, and
 *                                                the order fails after the last attempt
 *   POST /_mock/ramp/orders/{id}/fail {reason?}  an unrecoverable error while sending: the order fails now
 * `id` is the order's id or its reference. Prompts, payouts and inbound USDC are the shared
 * rails' (./rails.ts): `/_mock/mobile-money/{id}/approve`, `/_mock/payouts/{id}/fail` and
 * `/_mock/stellar/payments` take a ramp order's id or reference too.
 */
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import type { MockContext } from '../context.js';
import { readOptionalBody } from '../http/body.js';
import { notFound } from '../http/errors.js';
import { route } from '../http/respond.js';
import { failOrder, failSend, findRampOrder } from '../handlers/ramp/lifecycle.js';
import { rampOrderView } from '../handlers/ramp/orders.js';
import type { RampOrderRecord } from '../state/ramp.js';

const ReasonBody = z.object({ reason: z.string().trim().min(1).max(200).optional() });

export function rampControl(ctx: MockContext) {
  const find = (id: string): RampOrderRecord => {
    const order = findRampOrder(ctx, id);
    if (!order) throw notFound('ramp order');
    return order;
  };
  // Where the money went: on-ramp payouts are refunds and outbound USDC is the delivery; off-ramp
  // payouts are the delivery and outbound USDC is refunds; inbound USDC is what the user sent.
  const rails = (order: RampOrderRecord) => {
    const mine = (owner: { kind: string; id: string } | null) => owner?.kind === 'ramp_order' && owner.id === order.id;
    return {
      collections: [...ctx.store.mobileMoney.collections.values()].filter((c) => mine(c.owner)).map((c) => ({ ...c })),
      payouts: [...ctx.store.mobileMoney.payouts.values()].filter((p) => mine(p.owner)).map((p) => ({ ...p })),
      stellar_payments: [...ctx.store.stellar.payments.values()].filter((p) => mine(p.matched)).map((p) => ({ ...p })),
    };
  };
  const view = (order: RampOrderRecord) => ({
    ...rampOrderView(order),
    refunds: order.refunds.map((r) => ({ ...r })),
    attempts: order.attempts,
    collection_id: order.collection_id,
    payout_id: order.payout_id,
    send_tx_hash: order.send_tx_hash,
    rails: rails(order),
  });
  const api = {
    order: (id: string) => view(find(id)),
    failSend: (id: string, reason = 'Stellar transaction failed') => {
      const order = find(id);
      failSend(ctx, order, reason);
      return view(order);
    },
    fail: async (id: string, reason = 'unrecoverable error') => {
      const order = find(id);
      await failOrder(ctx, order, reason);
      return view(order);
    },
  };
  const base = `${ctx.urls.control}/ramp/orders/:id`;
  const handlers = [
    http.get(base, route(ctx, 'envelope', ({ params }) => HttpResponse.json(api.order(String(params.id))))),
    http.post(
      `${base}/send/fail`,
      route(ctx, 'envelope', async ({ params, request }) => {
        const { reason } = await readOptionalBody(request, ReasonBody);
        return HttpResponse.json(api.failSend(String(params.id), reason));
      }),
    ),
    http.post(
      `${base}/fail`,
      route(ctx, 'envelope', async ({ params, request }) => {
        const { reason } = await readOptionalBody(request, ReasonBody);
        return HttpResponse.json(await api.fail(String(params.id), reason));
      }),
    ),
  ];
  return { api, handlers };
}

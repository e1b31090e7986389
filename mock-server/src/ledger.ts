/**
 * The simulated Stellar ledger: USDC payments that customers send to the anchor or the
 * merchant (control `POST /_mock/stellar/payments`), and USDC the service sends out, which
 * confirms on the clock after `chainSeconds`. Owners learn of both through `ctx.hooks`.
 */
import { iso } from './clock.js';
import type { MockContext } from './context.js';
import type { OwnerKind, StellarPaymentRecord } from './types.js';

export type { StellarPaymentRecord } from './types.js';

/** How long an outgoing payment takes to confirm when auto-advance does not set it, seconds. */
export const DEFAULT_CHAIN_SECONDS = 5;

/** An amount in stroops, Stellar's smallest unit (10^-7): two amounts are equal on the ledger when these are. */
export const toStroops = (amount: string | number) => Math.round(Number(amount) * 1e7);


/** A payment arriving from a customer's wallet. Hooks are asked in turn until one claims it. */
export async function receivePayment(
  ctx: MockContext,
  input: Pick<StellarPaymentRecord, 'from' | 'to' | 'amount' | 'asset_code' | 'memo'>,
): Promise<StellarPaymentRecord> {
  const record: StellarPaymentRecord = {
    ...input,
    hash: ctx.random.hex(32),
    direction: 'inbound',
    status: 'confirmed',
    matched: null,
    created_at: iso(ctx.clock.now()),
  };
  ctx.store.stellar.payments.set(record.hash, record);
  for (const [kind, hook] of ctx.hooks.stellarPayment) {
    const id = await hook(record);
    if (id) {
      record.matched = { kind, id };
      break;
    }
  }
  return record;
}

/** Sends USDC on behalf of the service; `ctx.hooks.sendConfirmed` hears of it after `chainSeconds`. */
export function sendPayment(
  ctx: MockContext,
  owner: { kind: OwnerKind; id: string },
  input: Pick<StellarPaymentRecord, 'from' | 'to' | 'amount' | 'memo'>,
): StellarPaymentRecord {
  const now = ctx.clock.now();
  const record: StellarPaymentRecord = {
    ...input,
    asset_code: 'USDC',
    hash: ctx.random.hex(32),
    direction: 'outbound',
    status: 'pending',
    matched: owner,
    created_at: iso(now),
  };
  ctx.store.stellar.payments.set(record.hash, record);
  const seconds = ctx.options.autoAdvance ? ctx.options.autoAdvance.chainSeconds : DEFAULT_CHAIN_SECONDS;
  ctx.clock.schedule(now + seconds * 1000, async () => {
    const p = ctx.store.stellar.payments.get(record.hash);
    if (p?.status !== 'pending') return;
    p.status = 'confirmed';
    await ctx.hooks.sendConfirmed.get(owner.kind)?.(p);
  });
  return record;
}

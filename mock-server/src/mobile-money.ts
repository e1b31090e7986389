/**
 * The simulated Mobile Money rail, shared by interactive transactions and ramp orders.
 *
 * What a person does waits for a control call (or auto-advance): a collection prompt is
 * approved or declined by the customer, or times out (PROMPT_TIMEOUT_SECONDS unless its
 * owner keeps it open longer). What the
 * system does runs on the clock: a payout succeeds after `payoutSeconds` unless a control
 * call fails that attempt first. Owners (the transaction or order that started it) learn the
 * outcome through the hook they registered in `ctx.hooks`. Every status change goes through
 * the tables of machines/mobile-money.ts and is noted in the record's history.
 */
import { iso } from './clock.js';
import type { MockContext } from './context.js';
import { notFound } from './http/errors.js';
import { canTransition, moveRecord } from './machines/machine.js';
import { mobileMoneyPayout, mobileMoneyPrompt, type PayoutEvent, type PromptEvent } from './machines/mobile-money.js';
import type { CollectionRecord, Owner, PayoutRecord, ProviderId, RailRecord } from './types.js';

export type { CollectionRecord, Owner, PayoutRecord, ProviderId } from './types.js';

/** The three supported providers (000 section 1): id -> display name. */
export const PROVIDERS = { mtn: 'MTN MoMo', telecel: 'Telecel Cash', airteltigo: 'AirtelTigo Money' } as const satisfies Record<ProviderId, string>;

/** Accepts an id or a display name in any case ("MTN", "mtn", "Telecel Cash"). */
export function parseProvider(value: string): ProviderId | undefined {
  const v = value.trim().toLowerCase().replace(/[\s_-]+/g, '');
  if (v === '') return undefined;
  for (const [id, name] of Object.entries(PROVIDERS)) {
    const compact = name.toLowerCase().replace(/\s+/g, '');
    if (v === id || v === compact || (v.length >= 3 && compact.startsWith(v))) return id as ProviderId;
  }
  return undefined;
}

/** A prompt nobody answers times out after this long, seconds, unless its owner gives another time. */
export const PROMPT_TIMEOUT_SECONDS = 120;
/**
 * Test phones, like the KYC `last_name` triggers: a prompt to TEST_PHONES.decline is declined
 * by the customer after PROMPT_DECLINE_SECONDS (or auto-advance's time); one to
 * TEST_PHONES.timeout is never answered and times out, auto-advance notwithstanding. Any
 * format matches (`0240000001`, `+233240000001`): the last nine digits count.
 */
export const TEST_PHONES = { decline: '0240000001', timeout: '0240000002' } as const;
export const PROMPT_DECLINE_SECONDS = 5;

function phoneTrigger(phone: string): keyof typeof TEST_PHONES | undefined {
  const national = phone.replace(/\D/g, '').slice(-9);
  if (national === TEST_PHONES.decline.slice(-9)) return 'decline';
  if (national === TEST_PHONES.timeout.slice(-9)) return 'timeout';
  return undefined;
}

/** How long a payout takes when auto-advance does not set it, seconds. */
export const DEFAULT_PAYOUT_SECONDS = 5;

/** What the owner gives to start a prompt or a payout. */
type Start = Pick<RailRecord, 'merchant_id' | 'owner' | 'provider' | 'phone' | 'amount'>;

/** A new pending record on the rail: its id (`prefix_<uuid>`) and the provider's reference. */
function pending(ctx: MockContext, prefix: 'mmc' | 'mmp', input: Start, now: number) {
  return {
    ...input,
    id: `${prefix}_${ctx.random.uuid()}`,
    status: 'pending' as const,
    provider_ref: `${input.provider.toUpperCase()}-${ctx.random.digits(10)}`,
    created_at: iso(now),
  };
}

/** The record with this id, else the newest one whose owner has this id or reference (control calls name either). */
function findByIdOrOwner<R extends { owner: Owner }>(records: Map<string, R>, id: string): R | undefined {
  return records.get(id) ?? [...records.values()].reverse().find((r) => r.owner.id === id || r.owner.reference === id);
}

/** How a prompt ends, and the event of machines/mobile-money.ts that ends it so. */
export type PromptOutcome = Exclude<CollectionRecord['status'], 'pending'>;
const PROMPT_EVENTS: Readonly<Record<PromptOutcome, PromptEvent>> = { approved: 'approve', declined: 'decline', timed_out: 'time_out' };

/**
 * Sends a payment prompt to the customer's phone; unanswered, it times out at `timeoutAt`
 * (ms since the epoch), by default PROMPT_TIMEOUT_SECONDS from now.
 */
export function startCollection(ctx: MockContext, input: Start, timeoutAt?: number): CollectionRecord {
  const now = ctx.clock.now();
  const record: CollectionRecord = pending(ctx, 'mmc', input, now);
  ctx.store.mobileMoney.collections.set(record.id, record);
  const auto = ctx.options.autoAdvance;
  const trigger = phoneTrigger(input.phone);
  if (trigger === 'decline') {
    const seconds = auto ? auto.mobileMoneySeconds : PROMPT_DECLINE_SECONDS;
    ctx.clock.schedule(now + seconds * 1000, () => settleIfPending(ctx, record.id, 'declined'));
  } else if (auto && trigger !== 'timeout') {
    ctx.clock.schedule(now + auto.mobileMoneySeconds * 1000, () => settleIfPending(ctx, record.id, 'approved'));
  }
  ctx.clock.schedule(timeoutAt ?? now + PROMPT_TIMEOUT_SECONDS * 1000, () => settleIfPending(ctx, record.id, 'timed_out'));
  return record;
}

/** What the clock does when a scheduled outcome comes due: nothing once the prompt has been answered. */
function settleIfPending(ctx: MockContext, id: string, outcome: PromptOutcome) {
  const record = ctx.store.mobileMoney.collections.get(id);
  if (record && canTransition(mobileMoneyPrompt, record.status, PROMPT_EVENTS[outcome])) return settleCollection(ctx, id, outcome);
}

/** Finds a collection by its id, or the newest one of an owner (transaction id, order id or reference). */
export function findCollection(ctx: MockContext, id: string): CollectionRecord {
  const found = findByIdOrOwner(ctx.store.mobileMoney.collections, id);
  if (!found) throw notFound('Mobile Money prompt');
  return found;
}

/**
 * The customer answers the prompt (or it times out). Only a pending prompt can be settled:
 * anything else is refused (409 INVALID_STATE) and changes nothing.
 */
export async function settleCollection(ctx: MockContext, id: string, outcome: PromptOutcome): Promise<CollectionRecord> {
  const record = findCollection(ctx, id);
  const now = ctx.clock.now();
  moveRecord(mobileMoneyPrompt, record, PROMPT_EVENTS[outcome], now);
  record.settled_at = iso(now);
  await ctx.hooks.collection.get(record.owner.kind)?.(record);
  return record;
}

/** Starts a disbursement; it succeeds after `payoutSeconds` of clock time unless failed first. */
export function startPayout(ctx: MockContext, input: Start): PayoutRecord {
  const now = ctx.clock.now();
  const record: PayoutRecord = pending(ctx, 'mmp', input, now);
  ctx.store.mobileMoney.payouts.set(record.id, record);
  const seconds = ctx.options.autoAdvance ? ctx.options.autoAdvance.payoutSeconds : DEFAULT_PAYOUT_SECONDS;
  ctx.clock.schedule(now + seconds * 1000, async () => {
    // A control call may have failed the attempt first.
    if (canTransition(mobileMoneyPayout, record.status, 'succeed')) await settlePayout(ctx, record, 'succeed');
  });
  return record;
}

/** Finds a payout by its id, or the newest one of an owner (transaction id, order id or reference). */
export function findPayout(ctx: MockContext, id: string): PayoutRecord {
  const found = findByIdOrOwner(ctx.store.mobileMoney.payouts, id);
  if (!found) throw notFound('payout');
  return found;
}

/** Fails the pending payout attempt (control): the owner decides whether to retry. Refused (409 INVALID_STATE) once it has ended. */
export async function failPayout(ctx: MockContext, id: string, reason = 'Mobile Money disbursement failed'): Promise<PayoutRecord> {
  const record = findPayout(ctx, id);
  await settlePayout(ctx, record, 'fail', reason);
  return record;
}

async function settlePayout(ctx: MockContext, record: PayoutRecord, event: PayoutEvent, reason?: string) {
  const now = ctx.clock.now();
  moveRecord(mobileMoneyPayout, record, event, now);
  record.settled_at = iso(now);
  if (reason) record.failure_reason = reason;
  await ctx.hooks.payout.get(record.owner.kind)?.(record);
}

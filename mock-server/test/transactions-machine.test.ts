import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/http/errors.js';
import { canTransition, transition, type Machine } from '../src/machines/machine.js';
import { depositTransaction, withdrawTransaction, type TransactionEvent, type TransactionStatus } from '../src/machines/transaction.js';

const EVENTS: TransactionEvent[] = [
  'complete_form',
  'expire',
  'prompt_approved',
  'prompt_declined',
  'prompt_timed_out',
  'submit_payment',
  'payment_confirmed',
  'usdc_received',
  'usdc_refused',
  'start_payout',
  'payout_confirmed',
  'payout_failed',
  'retry_payout',
  'payouts_exhausted',
];

const FINAL: TransactionStatus[] = ['completed', 'expired', 'error'];

// 000 section 3, plus ours (expiry of an unfinished form; a declined prompt is an error and an
// unanswered one expires, as 000 section 6 names order.failed and order.expired) and
// ours (a withdrawal without USDC expires; a failed payout is retried, the last failure is an
// error; USDC the withdrawal cannot take is sent back in any status that has shown the memo).
const DEPOSIT_ROWS: [TransactionStatus, TransactionEvent, TransactionStatus][] = [
  ['incomplete', 'complete_form', 'pending_user_transfer_start'],
  ['incomplete', 'expire', 'expired'],
  ['pending_user_transfer_start', 'prompt_approved', 'pending_anchor'],
  ['pending_user_transfer_start', 'prompt_declined', 'error'],
  ['pending_user_transfer_start', 'prompt_timed_out', 'expired'],
  ['pending_anchor', 'submit_payment', 'pending_stellar'],
  ['pending_stellar', 'payment_confirmed', 'completed'],
];
const WITHDRAW_ROWS: [TransactionStatus, TransactionEvent, TransactionStatus][] = [
  ['incomplete', 'complete_form', 'pending_user_transfer_start'],
  ['incomplete', 'expire', 'expired'],
  ['pending_user_transfer_start', 'usdc_received', 'pending_external'],
  ['pending_user_transfer_start', 'usdc_refused', 'pending_user_transfer_start'],
  ['pending_user_transfer_start', 'expire', 'expired'],
  ['pending_external', 'start_payout', 'pending_payout_confirmation'],
  ['pending_external', 'usdc_refused', 'pending_external'],
  ['pending_payout_confirmation', 'payout_confirmed', 'completed'],
  ['pending_payout_confirmation', 'payout_failed', 'pending_payout_confirmation'],
  ['pending_payout_confirmation', 'retry_payout', 'pending_payout_confirmation'],
  ['pending_payout_confirmation', 'payouts_exhausted', 'error'],
  ['pending_payout_confirmation', 'usdc_refused', 'pending_payout_confirmation'],
  ['completed', 'usdc_refused', 'completed'],
  ['expired', 'usdc_refused', 'expired'],
  ['error', 'usdc_refused', 'error'],
];

const machines = [
  ['deposit', depositTransaction as Machine<TransactionStatus, TransactionEvent>, DEPOSIT_ROWS],
  ['withdrawal', withdrawTransaction as Machine<TransactionStatus, TransactionEvent>, WITHDRAW_ROWS],
] as const;

describe.each(machines)('the %s lifecycle table', (_kind, machine, rows) => {
  const states = Object.keys(machine) as TransactionStatus[];

  it.each(rows)('moves %s on %s to %s', (from, event, to) => {
    expect(transition(machine, from, event)).toBe(to);
  });

  it('has exactly these rows, and none that leaves a final state', () => {
    const actual = states.flatMap((from) => Object.entries(machine[from]).map(([event, to]) => [from, event, to]));
    expect(actual).toEqual(rows);
    for (const final of FINAL) for (const to of Object.values(machine[final])) expect(to).toBe(final);
  });

  const refused = states.flatMap((from) =>
    EVENTS.filter((event) => !rows.some(([f, e]) => f === from && e === event)).map((event) => [from, event] as const),
  );

  it.each(refused)('refuses %s on %s with 409 INVALID_STATE', (from, event) => {
    expect(canTransition(machine, from, event)).toBe(false);
    let error: unknown;
    try {
      transition(machine, from, event);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 409, code: 'INVALID_STATE', message: `cannot ${event.replace(/_/g, ' ')} when status is ${from}` });
  });

  it('keeps any sequence of events inside the table, ending at most once', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EVENTS), { maxLength: 30 }), (events) => {
        let status: TransactionStatus = 'incomplete';
        let finals = 0;
        for (const event of events) {
          if (!canTransition(machine, status, event)) continue;
          const from = status;
          status = transition(machine, status, event);
          expect(states).toContain(status);
          if (FINAL.includes(from)) expect(status).toBe(from);
          else if (FINAL.includes(status)) finals++;
        }
        expect(finals).toBeLessThanOrEqual(1);
      }),
    );
  });
});

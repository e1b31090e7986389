import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/http/errors.js';
import { historyOf } from '../src/history.js';
import {
  canMoveRampOrder,
  moveRampOrder,
  RAMP_ORDER_MACHINES,
  type RampOrderEvent,
  type RampOrderStatus,
  type RampType,
} from '../src/machines/ramp-order.js';

const STATUSES: RampOrderStatus[] = [
  'quote_locked', 'fiat_pending', 'crypto_pending', 'fiat_confirmed', 'crypto_confirmed', 'crypto_sending', 'fiat_sending',
  'fiat_retry', 'completed', 'expired', 'cancelled', 'failed', 'fiat_refunded', 'crypto_refunded',
];
const TYPES: RampType[] = ['onramp', 'offramp'];
const table = (type: RampType) => RAMP_ORDER_MACHINES[type] as Record<string, Record<string, string>>;
const EVENTS = [...new Set(TYPES.flatMap((t) => Object.values(table(t)).flatMap((row) => Object.keys(row))))] as RampOrderEvent[];
/** An order of `type` in `from` moved by `event` as the lifecycle moves orders: its new status. */
const movedTo = (type: RampType, from: RampOrderStatus, event: RampOrderEvent) => moveRampOrder({ type, status: from }, event, 0);

// The rows of 001 section 3 ("Transitions shown"), each as [type, from, to].
const SHOWN: [RampType, RampOrderStatus, RampOrderStatus][] = [
  ['onramp', 'quote_locked', 'fiat_pending'],
  ['onramp', 'fiat_pending', 'fiat_confirmed'],
  ['onramp', 'fiat_confirmed', 'crypto_sending'],
  ['onramp', 'crypto_sending', 'completed'],
  ['onramp', 'crypto_sending', 'failed'],
  ['offramp', 'crypto_pending', 'crypto_confirmed'],
  ['offramp', 'crypto_confirmed', 'fiat_sending'],
  ['offramp', 'fiat_sending', 'completed'],
  ['offramp', 'fiat_sending', 'fiat_retry'],
  ['offramp', 'fiat_retry', 'fiat_sending'],
  ['offramp', 'fiat_retry', 'failed'],
  ['offramp', 'fiat_sending', 'failed'],
  ['onramp', 'quote_locked', 'expired'],
  ['onramp', 'fiat_pending', 'expired'],
  ['offramp', 'quote_locked', 'expired'],
  ['offramp', 'crypto_pending', 'expired'],
  ['onramp', 'quote_locked', 'cancelled'],
  ['onramp', 'fiat_pending', 'cancelled'],
  ['offramp', 'quote_locked', 'cancelled'],
  ['offramp', 'crypto_pending', 'cancelled'],
  ['onramp', 'expired', 'fiat_refunded'],
  ['offramp', 'expired', 'crypto_refunded'],
];

describe('ramp order transition tables', () => {
  it('hold every transition the ramp document shows', () => {
    for (const [type, from, to] of SHOWN) {
      expect(Object.values(table(type)[from] ?? {}), `${type} ${from} -> ${to}`).toContain(to);
    }
  });

  it('reach the off-ramp from quote_locked only through crypto_pending and the on-ramp through fiat_pending', () => {
    expect(movedTo('offramp', 'quote_locked', 'await_crypto')).toBe('crypto_pending');
    expect(movedTo('onramp', 'quote_locked', 'collect')).toBe('fiat_pending');
    expect(canMoveRampOrder('offramp', 'quote_locked', 'collect')).toBe(false);
    expect(canMoveRampOrder('onramp', 'quote_locked', 'await_crypto')).toBe(false);
  });

  it('give every row its next status and refuse every other status and event with 409 INVALID_STATE', () => {
    let refused = 0;
    for (const type of TYPES) {
      for (const from of STATUSES) {
        for (const event of EVENTS) {
          const to = table(type)[from]?.[event];
          if (to) {
            expect(movedTo(type, from, event)).toBe(to);
            continue;
          }
          refused++;
          expect(canMoveRampOrder(type, from, event)).toBe(false);
          const order = { type, status: from };
          try {
            moveRampOrder(order, event, 0);
            expect.unreachable(`${type} ${from} ${event} should be refused`);
          } catch (error) {
            expect(order.status).toBe(from);
            expect(historyOf(order)).toEqual([]);
            expect(error).toBeInstanceOf(HttpError);
            expect((error as HttpError).status).toBe(409);
            expect((error as HttpError).code).toBe('INVALID_STATE');
            expect((error as HttpError).message).toBe(`cannot ${event.replace(/_/g, ' ')} when status is ${from}`);
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(300);
  });

  it('keep each direction to its own statuses', () => {
    const onOnly = ['fiat_pending', 'fiat_confirmed', 'crypto_sending', 'fiat_refunded'];
    const offOnly = ['crypto_pending', 'crypto_confirmed', 'fiat_sending', 'fiat_retry', 'crypto_refunded'];
    const reachable = (type: RampType) => new Set(Object.entries(table(type)).flatMap(([from, row]) => [from, ...Object.values(row)]));
    for (const s of offOnly) expect(reachable('onramp').has(s), s).toBe(false);
    for (const s of onOnly) expect(reachable('offramp').has(s), s).toBe(false);
  });

  it('let nothing leave completed, failed and the refund statuses, and cancel only before payment', () => {
    for (const type of TYPES) {
      for (const s of ['completed', 'failed', 'fiat_refunded', 'crypto_refunded'] as const) {
        expect(Object.keys(table(type)[s] ?? {}), `${type} ${s}`).toEqual([]);
      }
      const cancellable = STATUSES.filter((s) => canMoveRampOrder(type, s, 'cancel'));
      expect(cancellable).toEqual(type === 'onramp' ? ['quote_locked', 'fiat_pending'] : ['quote_locked', 'crypto_pending']);
      const expirable = STATUSES.filter((s) => canMoveRampOrder(type, s, 'expire'));
      expect(expirable).toEqual(cancellable);
    }
  });

  it("give up only once the user's money is in, so that a failed order always has a payment to refund", () => {
    for (const type of TYPES) {
      const from = STATUSES.filter((s) => canMoveRampOrder(type, s, 'give_up'));
      expect(from, type).toEqual(type === 'onramp' ? ['crypto_sending'] : ['fiat_sending', 'fiat_retry']);
    }
  });

  it('keep any sequence of events inside the table, completing at most once', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TYPES), fc.array(fc.constantFrom(...EVENTS), { maxLength: 40 }), (type, events) => {
        let status: RampOrderStatus = 'quote_locked';
        let completions = 0;
        for (const event of events) {
          if (!canMoveRampOrder(type, status, event)) {
            expect(() => movedTo(type, status, event)).toThrow(HttpError);
            continue;
          }
          status = movedTo(type, status, event);
          if (status === 'completed') completions++;
          expect(Object.keys(table(type))).toContain(status);
        }
        expect(completions).toBeLessThanOrEqual(1);
      }),
    );
  });
});

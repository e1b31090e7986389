/**
 * How `watchTransaction` (AnchorTransfers.watch) ends: a scripted anchor, a real node:http
 * server on 127.0.0.1, answers `GET /transaction` with the next status of a script on each
 * look, and the watch waits on a clock of the test's own, so no time passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnchorTransfers, FINAL_TRANSACTION_STATUSES } from '../src/anchor/index.js';
import { WaitTimeoutError } from '../src/index.js';
import { HttpCore } from '../src/core/http.js';
import type { WaitClock } from '../src/core/poll.js';
import { json, startTestServer, type TestServer } from './helpers/http-server.js';

/** Statuses each scripted transaction goes through, one a look; the last one repeats. */
const scripts = new Map<string, string[]>();
let anchor: TestServer;
let transfers: AnchorTransfers;

beforeAll(async () => {
  anchor = await startTestServer((req, res) => {
    const id = new URL(req.url, 'http://x').searchParams.get('id')!;
    const script = scripts.get(id);
    if (!script) return json(res, 404, { error: 'transaction not found' });
    const status = script.length > 1 ? script.shift()! : script[0]!;
    json(res, 200, { transaction: { id, kind: 'deposit', status, started_at: '2026-01-01T00:00:00Z' } });
  });
  transfers = new AnchorTransfers(new HttpCore({ baseUrl: anchor.url }));
});
afterAll(() => anchor.close());

/** A clock that moves only when the watch sleeps, and remembers how long each sleep was, ms. */
function testClock(): WaitClock & { slept: number[] } {
  let now = Date.UTC(2026, 0, 1);
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

const looks = (id: string) => anchor.requests.filter((r) => r.url === `/transaction?id=${id}`).length;

/** SEP-24's final statuses, and 000 section 2's `failed`, its other spelling of `error`. */
const FINAL = ['completed', 'refunded', 'expired', 'error', 'failed', 'no_market', 'too_small', 'too_large'];

describe('watchTransaction', () => {
  it.each(FINAL)('ends on %s, having reported each status on the way', async (status) => {
    const id = `tx-${status}`;
    scripts.set(id, ['incomplete', 'pending_user_transfer_start', 'pending_anchor', status]);
    const seen: string[] = [];
    const final = await transfers.watch(id, { clock: testClock(), onStatus: (tx) => seen.push(tx.status) });
    expect(final).toEqual({ succeeded: status === 'completed', status, value: expect.objectContaining({ id, status }) });
    expect(seen).toEqual(['incomplete', 'pending_user_transfer_start', 'pending_anchor', status]);
    // Not one look more: the final answer ended the watch.
    expect(looks(id)).toBe(4);
  });

  it('keeps watching through every other status, one SEP-24 may add later included', async () => {
    const going = [
      'incomplete',
      'pending_user_transfer_start',
      'pending_user_transfer_complete',
      'pending_external',
      'pending_anchor',
      'pending_stellar',
      'pending_trust',
      'pending_user',
      'pending_customer_info_update',
      'pending_transaction_info_update',
      'pending_payout_confirmation',
      'pending_something_new',
    ];
    scripts.set('tx-long', [...going, 'completed']);
    const seen: string[] = [];
    await expect(transfers.watch('tx-long', { clock: testClock(), onStatus: (tx) => seen.push(tx.status) })).resolves.toMatchObject({ succeeded: true, status: 'completed' });
    expect(seen).toEqual([...going, 'completed']);
  });

  it('publishes exactly those statuses as FINAL_TRANSACTION_STATUSES', () => {
    expect([...FINAL_TRANSACTION_STATUSES].sort()).toEqual([...FINAL].sort());
  });

  it('waits on the clock it is given: the interval between looks, and maxDuration in that clock', async () => {
    scripts.set('tx-clock', ['incomplete']);
    const clock = testClock();
    const error = await transfers.watch('tx-clock', { clock, interval: 7, maxDuration: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    // Looks at 0, 7, 14, 21, 28 and 30 s: the last wait is cut to the 2 s left.
    expect(clock.slept).toEqual([7000, 7000, 7000, 7000, 2000]);
    expect(looks('tx-clock')).toBe(6);
  });
});

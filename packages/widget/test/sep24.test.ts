import { describe, expect, it } from 'vitest';
import { FINAL } from '../src/sep24.js';

describe('SEP-24 statuses, as the widget reads them', () => {
  it('ends a transaction (events, redirect memory, polling) on every SEP-24 final status', () => {
    // SEP-24's final statuses, and 000 section 2's `failed`, the other spelling of `error`.
    for (const status of ['completed', 'refunded', 'expired', 'error', 'failed', 'no_market', 'too_small', 'too_large']) {
      expect(FINAL.test(status), status).toBe(true);
    }
  });

  it('keeps following a transaction in any other status', () => {
    const going = ['incomplete', 'pending_user_transfer_start', 'pending_user_transfer_complete', 'pending_anchor', 'pending_stellar', 'pending_external', 'pending_trust', 'pending_user', 'pending_payout_confirmation', 'pending_customer_info_update', 'pending_transaction_info_update'];
    for (const status of [...going, '', 'too_small_', 'not_completed', 'Completed']) expect(FINAL.test(status), status).toBe(false);
  });
});

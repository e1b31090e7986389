import type { KybStatus } from '../store.js';
import type { Machine } from './machine.js';

export type KybEvent = 'submit' | 'approve' | 'reject';

/**
 * A merchant's business verification (design.md section 4). A rejected merchant may submit
 * again; the operator may approve without a submission (the quick path for tests and the demo),
 * but rejects only what was submitted. Approval is final.
 */
export const kyb = {
  not_submitted: { submit: 'submitted', approve: 'approved' },
  submitted: { approve: 'approved', reject: 'rejected' },
  rejected: { submit: 'submitted' },
  approved: {},
} as const satisfies Machine<KybStatus, KybEvent>;

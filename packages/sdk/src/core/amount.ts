/**
 * How a Stellar amount is written, without zod: `stellarAmount` (core/schema.ts) and the ramp
 * handlers (which load no schema library) check amounts by this one rule.
 */

/** A Stellar amount written out: at most 15 digits, then at most 7 places (a stroop is 10^-7). */
export const STELLAR_AMOUNT_PATTERN = /^\d{1,15}(\.\d{1,7})?$/;

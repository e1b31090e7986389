/** What the widget must know of SEP-24, apart from the element so that it can be tested in Node. */

/** SEP-24's final statuses, after which a transaction no longer changes; `failed` is 000's other spelling of `error`. */
export const FINAL = /^(completed|refunded|expired|error|failed|no_market|too_(small|large))$/;

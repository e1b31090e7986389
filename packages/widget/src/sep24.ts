/** What the widget must know of SEP-24, apart from the element so that it can be tested in Node. */

/** SEP-24's final statuses, after which a transaction no longer changes; `failed` is 000's other spelling of `error`. */
export const FINAL = /^(completed|refunded|expired|error|failed|no_market|too_(small|large))$/;

/**
 * The `lang` the service takes (two letters, an optional two-letter region) for a BCP 47 tag,
 * lower-cased (tags ignore case): the tag when it is of that form (`EN-gb` → `en-gb`), else its
 * language when that has two letters (`zh-Hant-TW` → `zh`), else none (`fil`): English.
 */
export const langParam = (tag = ''): string | undefined => /^[a-z]{2}(-[a-z]{2}$|(?![^-]))/.exec(tag.toLowerCase())?.[0];

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnchorInteractiveParamsSchema } from '../../sdk/src/resources/anchor/sep24.js';
import { FINAL, langParam } from '../src/sep24.js';

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

describe('the lang the widget sends to the merchant backend', () => {
  /** What the SDK (and so the merchant backend) accepts as `lang`, the anchor's own rule. */
  const accepted = (lang: string) => AnchorInteractiveParamsSchema.safeParse({ lang }).success;

  it('sends a language with a region as it is, in lower case', () => {
    expect(langParam('fr')).toBe('fr');
    expect(langParam('fr-GH')).toBe('fr-gh');
    expect(langParam('EN-gb')).toBe('en-gb');
    expect(langParam('EN')).toBe('en');
  });

  it('sends only the two-letter language of a longer tag, a form every anchor takes', () => {
    expect(langParam('zh-Hant-TW')).toBe('zh');
    expect(accepted(langParam('zh-Hant-TW')!)).toBe(true);
    expect(langParam('sr-Latn')).toBe('sr');
    expect(langParam('es-419')).toBe('es');
    expect(langParam('en-GB-oxendict')).toBe('en');
    expect(langParam('de-DE-u-co-phonebk')).toBe('de');
  });

  it('sends nothing for a language without a two-letter code, or no language at all: the flow is in English', () => {
    for (const tag of ['fil', 'yue-Hant-HK', 'haw', 'x-klingon', 'i-default', 'e', '-en', 'en_GB', '', ' ', undefined]) {
      expect(langParam(tag), String(tag)).toBeUndefined();
    }
  });

  it('never sends a value that would fail the session', () => {
    const subtag = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
    const tags = fc.oneof(fc.array(subtag, { minLength: 1, maxLength: 4 }).map((s) => s.join('-')), fc.string());
    fc.assert(
      fc.property(tags, (tag) => {
        const lang = langParam(tag);
        if (lang === undefined) return !/^[a-z]{2}(-|$)/i.test(tag);
        return accepted(lang) && tag.toLowerCase().startsWith(lang);
      }),
    );
  });
});

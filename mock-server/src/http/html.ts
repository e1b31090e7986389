/**
 * HTML written with one auto-escaping tagged template, so no page can forget to escape:
 *
 *   html`<p class="${cls}">${name}</p>`   every interpolation is escaped as text
 *   html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`   fragments nest; arrays join
 *   html`<style>${trustedHtml(css)}</style>`   what the page itself made (CSS, a script, JSON) goes in as it is
 *
 * `null`, `undefined` and `false` render nothing, for `${cond && html`…`}`. Escaped text is safe
 * in element content and in quoted attribute values (always quote attributes).
 */

/** Markup that goes into a page as it is: made by `html`, or vouched for with `trustedHtml`. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What may be interpolated: text (escaped), safe markup, nothing, or a list of these. */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and quoted attribute values. */
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let text = strings[0]!;
  values.forEach((value, i) => (text += render(value) + strings[i + 1]!));
  return new SafeHtml(text);
}

/** Markup the page made itself and vouches for, e.g. its own CSS or script: not escaped. */
export const trustedHtml = (text: string): SafeHtml => new SafeHtml(text);

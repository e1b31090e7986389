/**
 * The pages' one way to write HTML: the `html` tagged template escapes every interpolated value
 * (`& < > " '`), so text from an order, a URL or the service can never become markup. Only a
 * nested `html` template, or markup a developer marks with `safe(...)`, goes in as it is.
 * Values go in text and quoted attributes only; never inside `<script>` or an unquoted attribute.
 */

/** Markup that is already HTML: a template's result, or `safe(...)`. */
export class SafeHtml {
  readonly #markup: string;
  constructor(markup: string) {
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}

/** What a template takes: text (escaped), safe markup, a list of them (joined); null and undefined are nothing. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const render = (value: HtmlValue): string =>
  value instanceof SafeHtml
    ? value.toString()
    : Array.isArray(value)
      ? value.map(render).join('')
      : value == null
        ? ''
        : String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, text, i) => out + render(values[i - 1]) + text));
}

/** Markup the developer wrote, trusted as it is: never anything a request or the service sent. */
export const safe = (markup: string): SafeHtml => new SafeHtml(markup);

const STYLES = safe(`
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1.5rem; color: #1f2937; }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
  h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
  section { border: 1px solid #e5e7eb; border-radius: 12px; padding: 1rem 1.25rem; margin: 1rem 0; }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(18rem, 100%), 1fr)); gap: 1rem; }
  .grid section { margin: 0; }
  .muted { color: #6b7280; font-size: .9rem; }
  .ok { color: #047857; font-weight: 600; }
  .bad { color: #b91c1c; font-weight: 600; }
  ol, ul { padding-left: 1.25rem; margin: .5rem 0; }
  li { margin: .15rem 0; }
  code, .mono { font-family: ui-monospace, monospace; font-size: .85rem; overflow-wrap: anywhere; }
  button { font: inherit; min-height: 2.75rem; padding: .45em 1em; border-radius: 10px; border: 1px solid #0f766e; background: #fff; color: #0f766e; cursor: pointer; }
  .banner { background: #fef3c7; border-radius: 8px; padding: .5rem .75rem; font-size: .9rem; }
  .deposit { background: #f3f4f6; border-radius: 8px; padding: .5rem .75rem; margin: .5rem 0; }
  @media (max-width: 30rem) { body { padding: 1rem; } section { padding: .75rem 1rem; } }
`);

/** A whole page, as the string Express sends. */
export function layout(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Kofi Shop</title><style>${STYLES}</style></head>
<body>
${body}
</body>
</html>`.toString();
}

/** The pages' `html` template: every value is escaped unless it is a template or marked safe. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { html, layout, safe } from '../src/html.ts';

/** What a browser reads back from escaped text: the five entities the template writes. */
const unescape = (text: string) =>
  text.replace(/&(lt|gt|quot|#39|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name]!);

describe('html', () => {
  it('escapes text and attribute values, and keeps nested templates and safe markup as they are', () => {
    const name = `<img src=x onerror="alert('x')"> & co`;
    expect(String(html`<p title="${name}">${name}</p>`)).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; co">&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; co</p>',
    );
    const item = (text: string) => html`<li>${text}</li>`;
    expect(String(html`<ul>${['a<b', 'c&d'].map(item)}</ul>`)).toBe('<ul><li>a&lt;b</li><li>c&amp;d</li></ul>');
    expect(String(html`<b>${safe('<i>mine</i>')}</b>`)).toBe('<b><i>mine</i></b>');
    expect(String(html`${null}${undefined}${0}${false}`)).toBe('0false');
  });

  it('never lets a value open a tag or leave its attribute, whatever it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const out = String(html`<p title="${value}">${value}</p>`);
        const [, attribute, text] = /^<p title="([^"]*)">([^<]*)<\/p>$/.exec(out) ?? [];
        expect(attribute).toBeDefined();
        expect([unescape(attribute!), unescape(text!)]).toEqual([value, value]);
      }),
      { numRuns: 200 },
    );
  });

  it('writes the page title escaped in the layout', () => {
    const page = layout('Order <1>', html`<p>ok</p>`);
    expect(page).toContain('<title>Order &lt;1&gt; · Kofi Shop</title>');
    expect(page).toContain('<body>\n<p>ok</p>\n</body>');
  });
});

/** The mock's one HTML template helper: every interpolation escaped unless it is markup already. */
import { describe, expect, it } from 'vitest';
import { html, SafeHtml, trustedHtml } from '../src/http/html.js';

const HOSTILE = `"><script>alert('x')</script>&amp;`;
const ESCAPED = '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;';

describe('html`…`', () => {
  it('escapes every interpolation, in content and in quoted attributes alike', () => {
    const out = html`<a title="${HOSTILE}" href="/x?a=1&b=${HOSTILE}">${HOSTILE}</a>${HOSTILE}`;
    expect(out).toBeInstanceOf(SafeHtml);
    expect(out.text).toBe(`<a title="${ESCAPED}" href="/x?a=1&b=${ESCAPED}">${ESCAPED}</a>${ESCAPED}`);
    expect(String(out)).toBe(out.text);
  });

  it('keeps the template\'s own markup and writes numbers as text', () => {
    expect(html`<p class="n">${42} & ${1.5}</p>`.text).toBe('<p class="n">42 & 1.5</p>');
    expect(html`plain`.text).toBe('plain');
  });

  it('inserts nested fragments as they are, escaping what they interpolate once', () => {
    const item = (name: string) => html`<li data-name="${name}">${name}</li>`;
    const out = html`<ul>${item('<b>')}</ul>`;
    expect(out.text).toBe('<ul><li data-name="&lt;b&gt;">&lt;b&gt;</li></ul>');
    expect(html`<div>${out}</div>`.text).toBe('<div><ul><li data-name="&lt;b&gt;">&lt;b&gt;</li></ul></div>');
  });

  it('joins arrays without separators, each element by the same rules, nested arrays too', () => {
    const out = html`<ol>${['<a>', html`<li>b</li>`, 3, [html`<i>c</i>`, '&']]}</ol>`;
    expect(out.text).toBe('<ol>&lt;a&gt;<li>b</li>3<i>c</i>&amp;</ol>');
    expect(html`<ol>${[]}</ol>`.text).toBe('<ol></ol>');
  });

  it('renders nothing for null, undefined and false, so a condition can guard a fragment', () => {
    const shown = (yes: boolean) => html`<p>${yes && html`<b>yes</b>`}${null}${undefined}</p>`.text;
    expect(shown(true)).toBe('<p><b>yes</b></p>');
    expect(shown(false)).toBe('<p></p>');
    expect(html`${''}|${0}`.text).toBe('|0');
  });

  it('takes trusted markup as it is, and only when it is asked to', () => {
    const css = 'a > b { content: "&" }';
    expect(html`<style>${trustedHtml(css)}</style>`.text).toBe(`<style>${css}</style>`);
    expect(html`<style>${css}</style>`.text).toBe('<style>a &gt; b { content: &quot;&amp;&quot; }</style>');
  });
});

/** The dashboard's DOM helpers: elements from calls and text nodes, never from HTML strings. */
import type { HistoryEntry } from '../model.js';

export type Child = Node | string | null | undefined | false;
export type Props = Record<string, string | number | boolean | undefined>;

/** An element with attributes and children (strings become text nodes). */
export function h(tag: string, props: Props = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

export function $<E extends HTMLElement = HTMLElement>(id: string): E {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing`);
  return element as E;
}

/** `2026-03-02 10:00:12 UTC`: the mock's clock time, as the control API gives it. */
export const time = (iso: string | null | undefined) => (iso ? `${iso.replace('T', ' ').replace(/(\.\d+)?Z$/, '')} UTC` : '—');
export const amount = (n: number | null) => (n === null ? '—' : n.toFixed(2));
export const empty = (text: string) => h('p', { class: 'empty' }, text);
export const status = (text: string) => h('span', { class: 'status' }, text);

/** A button whose click the page sends to the control API (see `act`). */
export function action(label: string, act: string, id: string, secondary = false, extra: Props = {}) {
  return h('button', { type: 'button', class: secondary ? 'secondary' : undefined, 'data-action': act, 'data-id': id, 'data-key': `${act}:${id}`, ...extra }, label);
}

export function table(caption: string, head: string[], rows: HTMLElement[]): HTMLElement {
  return h(
    'div',
    { class: 'scroll' },
    h('table', {}, h('caption', { class: 'visually-hidden' }, caption), h('thead', {}, h('tr', {}, ...head.map((t) => h('th', { scope: 'col' }, t)))), h('tbody', {}, ...rows)),
  );
}

export const row = (key: string, ...cells: Child[]) => h('tr', { 'data-row': key }, ...cells.map((c) => h('td', {}, c)));

/** A record's history in a disclosure: each change with its clock time. */
export function history(key: string, entries: HistoryEntry[]): HTMLElement {
  const changes = entries.length - 1;
  return h(
    'details',
    { 'data-key': `history:${key}` },
    h('summary', { 'data-key': `history-summary:${key}` }, `History (${changes} ${changes === 1 ? 'change' : 'changes'})`),
    h(
      'ol',
      {},
      ...entries.map((e) =>
        h(
          'li',
          {},
          h('time', { datetime: e.at }, time(e.at)),
          ': ',
          e.from === null ? `created as ${e.to}` : `${e.field === 'status' ? '' : `${e.field} `}${e.from} → ${e.to} (${e.event})`,
        ),
      ),
    ),
  );
}

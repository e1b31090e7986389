/**
 * The dashboard's script, sent inline and bundled by mock-server/scripts/browser-scripts.ts.
 * It renders the snapshot that the page carries into the page's sections, asks
 * `GET /_mock/snapshot` for news every `pollMs` (304 while nothing changed; see docs/choices.md
 * for why polling), and turns its buttons into control calls. Everything is built with DOM
 * calls and text nodes, never HTML strings, so a record's text cannot become markup.
 * A section is redrawn only when its part of the snapshot changed, keeping the focused control
 * and the open disclosures, so that live updates do not take a keyboard user's place away.
 */
import type { DashboardConfig, DashboardSnapshot } from '../model.js';
import { $, time } from './dom.js';
import { chosen, SECTIONS } from './sections.js';

const config = JSON.parse($('dashboard-config').textContent ?? '') as DashboardConfig;
const announce = $('announce');

/** The JSON of each section's part of the last snapshot drawn. */
const drawn = new Map<string, string>();
const PARTS: Record<string, (s: DashboardSnapshot) => unknown> = {
  phones: (s) => s.phones,
  transactions: (s) => s.transactions,
  'ramp-orders': (s) => s.ramp_orders,
  'checkout-sessions': (s) => s.checkout_sessions,
  webhooks: (s) => s.webhooks,
  customers: (s) => [s.customers, s.phone_kyc],
  triggers: (s) => s.triggers,
  merchants: (s) => s.merchants,
  keys: (s) => s.keys,
};

/** Replaces a section's content, keeping the focused control (or the section's heading) and the open disclosures. */
function redraw(container: HTMLElement, nodes: Node[]) {
  const active = document.activeElement;
  const focusKey = active instanceof HTMLElement && container.contains(active) ? (active.dataset.key ?? '') : null;
  const open = new Set([...container.querySelectorAll<HTMLDetailsElement>('details[open]')].map((d) => d.dataset.key));
  container.replaceChildren(...nodes);
  for (const d of container.querySelectorAll<HTMLDetailsElement>('details')) if (open.has(d.dataset.key)) d.open = true;
  if (focusKey === null) return;
  const again = focusKey ? [...container.querySelectorAll<HTMLElement>('[data-key]')].find((e) => e.dataset.key === focusKey) : undefined;
  (again ?? $(`${container.id}-heading`)).focus();
}

function render(s: DashboardSnapshot) {
  $('clock-now').textContent = time(s.clock.now);
  $('clock-kind').textContent = s.clock.kind === 'manual' ? 'manual: stands still until advanced' : 'real: follows the wall clock';
  for (const [id, draw] of Object.entries(SECTIONS)) {
    const part = JSON.stringify(PARTS[id]!(s));
    if (drawn.get(id) === part) continue;
    drawn.set(id, part);
    redraw($(id), draw(s));
  }
}

let etag: string | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Asks for the snapshot (304 while nothing changed) and asks again after pollMs. */
async function refresh() {
  clearTimeout(timer);
  try {
    const res = await fetch(`${config.control}/snapshot`, { headers: etag ? { 'if-none-match': etag } : {}, cache: 'no-store' });
    if (res.status === 200) {
      etag = res.headers.get('etag');
      render((await res.json()) as DashboardSnapshot);
    }
  } catch {
    // The mock stopped or restarts: keep asking.
  } finally {
    timer = setTimeout(refresh, config.pollMs);
  }
}

/** A control call; says in the live region what happened, and draws the news at once. */
async function control(method: 'POST' | 'PUT', path: string, body: unknown, done: string) {
  try {
    const res = await fetch(`${config.control}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
    if (res.ok) announce.textContent = done;
    else {
      const error = ((await res.json().catch(() => ({}))) as { error?: { message?: string } }).error;
      announce.textContent = `Refused (${res.status}): ${error?.message ?? res.statusText}`;
    }
  } catch {
    announce.textContent = 'The mock did not answer.';
  }
  await refresh();
}

const ACTIONS: Record<string, (id: string) => Promise<void>> = {
  approve: (id) => control('POST', `/mobile-money/${encodeURIComponent(id)}/approve`, {}, `Prompt ${id} approved.`),
  decline: (id) => control('POST', `/mobile-money/${encodeURIComponent(id)}/decline`, {}, `Prompt ${id} declined.`),
  timeout: (id) => control('POST', `/mobile-money/${encodeURIComponent(id)}/timeout`, {}, `Prompt ${id} timed out.`),
  'set-status': (id) => {
    const value = $<HTMLSelectElement>(`status-${id}`).value;
    chosen.delete(`status-${id}`);
    return control('PUT', `/customers/${encodeURIComponent(id)}/status`, { status: value }, `Customer ${id} is now ${value}.`);
  },
  'fail-payout': (id) => control('POST', `/payouts/${encodeURIComponent(id)}/fail`, {}, `Payout ${id} failed.`),
  redeliver: (id) => control('POST', `/webhooks/${encodeURIComponent(id)}/redeliver`, {}, `Webhook ${id} sent again.`),
};

/** Calls under way, by button key: a second press waits. (Not `disabled`, which would drop the focus.) */
const busy = new Set<string>();

document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-action]') : null;
  const run = button && ACTIONS[button.dataset.action ?? ''];
  const key = button?.dataset.key ?? '';
  if (!button || !run || busy.has(key)) return;
  busy.add(key);
  button.setAttribute('aria-disabled', 'true');
  void run(button.dataset.id ?? '').finally(() => {
    busy.delete(key);
    button.removeAttribute('aria-disabled');
  });
});

document.addEventListener('change', (event) => {
  if (event.target instanceof HTMLSelectElement && event.target.id.startsWith('status-')) chosen.set(event.target.id, event.target.value);
});

$<HTMLFormElement>('advance-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = Number($<HTMLInputElement>('advance-amount').value);
  const seconds = value * Number($<HTMLSelectElement>('advance-unit').value);
  if (!Number.isFinite(seconds) || seconds < 0 || $<HTMLInputElement>('advance-amount').value.trim() === '') {
    announce.textContent = 'Enter how much to advance, a number of at least 0.';
    return;
  }
  void control('POST', '/clock/advance', { seconds }, `Clock advanced by ${value} ${$<HTMLSelectElement>('advance-unit').selectedOptions[0]?.textContent ?? ''}.`);
});

render(config.snapshot);
timer = setTimeout(refresh, config.pollMs);

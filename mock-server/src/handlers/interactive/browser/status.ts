/**
 * The transaction's status: shown, reported to the page that opened or frames this one
 * (./embedder.ts), and polled from the page's API until a final status, which ends the form
 * and, in the page's own window, shows the way back to the merchant.
 * Timers here are the browser's own: this code runs in the customer's page, not in the mock.
 */
import type { PageConfig } from '../model.js';
import { format } from '../strings.js';
import { api } from './api.js';
import { $ } from './dom.js';
import { embedder, report } from './embedder.js';

/** The SEP-24 transaction object, with the fields the page reads. */
export type Transaction = PageConfig['transaction'] & {
  message?: string | null;
  amount_in?: string | null;
  withdraw_anchor_account?: string | null;
  withdraw_memo?: string | null;
};

export interface Status {
  /** The newest transaction object taken. */
  current(): Transaction;
  /** Takes the newest transaction object; a status not seen before is shown and reported. */
  update(next: Transaction): void;
}

const TERMINAL = ['completed', 'expired', 'error'];
/** Each poll failed in a row doubles the wait before the next, up to this. */
const MAX_POLL_WAIT_MS = 30_000;
/** A poll not answered by then failed (a connection left hanging by a server going away). */
const POLL_TIMEOUT_MS = 10_000;

/** Shows and reports the transaction the page loaded with, then follows it to a final status. */
export function followStatus(config: PageConfig): Status {
  const t = config.strings;
  let tx = config.transaction as Transaction;
  const seen = new Set<string>([tx.status]);
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  /** Polls in a row that failed. */
  let pollFailures = 0;

  function statusText(transaction: Transaction): string {
    const status = transaction.status;
    if (status === 'error') {
      return transaction.message ? format(t.status_error_message, { message: transaction.message }) : t.status_error;
    }
    const texts = t as unknown as Record<string, string | undefined>;
    return texts['status_' + status + '_' + config.kind] || texts['status_' + status] || status;
  }

  function update(next: Transaction) {
    if (seen.has(next.status)) {
      if (next.status === tx.status) tx = next;
      return;
    }
    seen.add(next.status);
    tx = next;
    $('status').textContent = statusText(tx);
    report(config.targetOrigin, tx);
    if (TERMINAL.includes(tx.status)) finish();
  }

  function finish() {
    clearTimeout(pollTimer);
    $('form').hidden = true;
    if (!embedder() && config.redirectUrl) {
      const url = new URL(config.redirectUrl);
      url.searchParams.set('transaction_id', tx.id);
      url.searchParams.set('status', tx.status);
      $<HTMLAnchorElement>('back-link').href = url.href;
      $('back').hidden = false;
    }
  }

  // Statuses can pass between two polls (the anchor sends the USDC 2 s after the cedis arrive):
  // the API returns each status since the one last seen, so that every one is reported.
  // A poll that fails (the network, a server restarting, an answer of another shape) never
  // ends the polling, which goes on, less often, until a final status.
  async function poll() {
    let answered = false;
    try {
      const res = await api<{ history: Transaction[] }>(config, 'GET', 'transaction?since=' + encodeURIComponent(tx.status), undefined, POLL_TIMEOUT_MS);
      if (res.ok) for (const each of res.data.history) update(each);
      answered = res.ok;
    } catch {
      // Counted as a failure below.
    }
    pollFailures = answered ? 0 : pollFailures + 1;
    if (!TERMINAL.includes(tx.status)) pollTimer = setTimeout(poll, Math.min(config.pollMs * 2 ** pollFailures, MAX_POLL_WAIT_MS));
  }

  $('status').textContent = statusText(tx);
  report(config.targetOrigin, tx);
  if (TERMINAL.includes(tx.status)) finish();
  else pollTimer = setTimeout(poll, config.pollMs);
  return { current: () => tx, update };
}

/** The dashboard's sections: each draws its part of the snapshot. */
import type { DashboardSnapshot, DeliveryView } from '../model.js';
import { action, amount, empty, h, history, row, status, table, time } from './dom.js';

function phones(s: DashboardSnapshot): Node[] {
  if (s.phones.length === 0) return [empty('No code, prompt or money has been sent to a phone yet.')];
  return s.phones.map((p) =>
    h(
      'article',
      { class: 'phone', 'aria-label': `Phone ${p.number}`, 'data-phone': p.number },
      h('h3', {}, `Phone ${p.number}`),
      h('h4', {}, 'SMS inbox'),
      p.sms.length === 0
        ? empty('No SMS.')
        : h(
            'ul',
            {},
            ...p.sms.map((m) =>
              h(
                'li',
                { 'data-sms': m.id },
                'Code ',
                h('span', { class: 'code' }, m.code),
                ` for ${m.purpose}, sent ${time(m.sent_at)}, expires ${time(m.expires_at)}${m.used ? ' (used)' : ''}`,
              ),
            ),
          ),
      h('h4', {}, 'Mobile Money prompts'),
      p.prompts.length === 0
        ? empty('No prompt.')
        : h(
            'ul',
            {},
            ...p.prompts.map((c) =>
              h(
                'li',
                { 'data-prompt': c.id },
                `${c.provider.toUpperCase()}: pay GHS ${amount(c.amount)} for ${c.owner}, sent ${time(c.sent_at)} `,
                status(c.status),
                c.settled_at ? ` at ${time(c.settled_at)}` : '',
                c.status === 'pending' &&
                  h(
                    'span',
                    { class: 'actions' },
                    action('Approve', 'approve', c.id),
                    action('Decline', 'decline', c.id, true),
                    action('Let it time out', 'timeout', c.id, true),
                  ),
                history(`prompt:${c.id}`, c.history),
              ),
            ),
          ),
      p.payouts.length > 0 && h('h4', {}, 'Mobile Money received'),
      p.payouts.length > 0 &&
        h(
          'ul',
          {},
          ...p.payouts.map((m) =>
            h(
              'li',
              { 'data-payout': m.id },
              `${m.provider.toUpperCase()}: GHS ${amount(m.amount)} from ${m.owner}, sent ${time(m.sent_at)} `,
              status(m.status),
              m.settled_at ? ` at ${time(m.settled_at)}` : '',
              m.failure_reason ? ` (${m.failure_reason})` : '',
              m.status === 'pending' && h('span', { class: 'actions' }, action('Fail this payout', 'fail-payout', m.id, true)),
              history(`payout:${m.id}`, m.history),
            ),
          ),
        ),
    ),
  );
}

function merchants(s: DashboardSnapshot): Node[] {
  if (s.merchants.length === 0) return [empty('No merchant yet.')];
  return [
    table(
      'Merchants',
      ['Name', 'Status', 'KYB', 'Ramp', 'Webhook URL', 'History'],
      s.merchants.map((m) =>
        row(
          m.id,
          h('span', {}, m.name, h('br'), h('small', {}, m.email), h('br'), h('code', {}, m.id)),
          status(m.status),
          m.kyb_status,
          m.ramp_enabled ? 'enabled' : 'not enabled',
          m.webhook_url ?? '—',
          history(`merchant:${m.id}`, m.history),
        ),
      ),
    ),
  ];
}

function keys(s: DashboardSnapshot): Node[] {
  if (s.keys.length === 0) return [empty('No key yet.')];
  return [
    table(
      'API keys',
      ['Prefix', 'Kind', 'Owner', 'Active', 'Created'],
      s.keys.map((k) => row(k.id, h('code', {}, `${k.prefix}…`), k.kind, h('code', {}, k.owner), k.active ? 'yes' : 'no', time(k.created_at))),
    ),
  ];
}

const KYC_STATUSES = ['ACCEPTED', 'PROCESSING', 'NEEDS_INFO', 'REJECTED'];
/** What the viewer picked in a status select and has not sent yet, so that a redraw keeps it. */
export const chosen = new Map<string, string>();

function customers(s: DashboardSnapshot): Node[] {
  const out: Node[] = [];
  if (s.customers.length === 0) out.push(empty('No customer yet.'));
  else
    out.push(
      table(
        'Customers',
        ['Customer', 'KYC status', 'Verified phones', 'History', 'Set the status'],
        s.customers.map((c) => {
          const selectId = `status-${c.id}`;
          const picked = chosen.get(selectId) ?? c.status;
          return row(
            c.id,
            h('span', {}, c.name || '—', h('br'), h('small', {}, c.email), h('br'), h('code', {}, c.id)),
            status(c.status),
            c.verified_phones.join(', ') || '—',
            history(`customer:${c.id}`, c.history),
            h(
              'span',
              { class: 'inline' },
              h('label', { for: selectId, class: 'visually-hidden' }, `New KYC status of ${c.name || c.id}`),
              h('select', { id: selectId, 'data-key': `select:${c.id}` }, ...KYC_STATUSES.map((v) => h('option', { value: v, selected: v === picked }, v))),
              action('Set status', 'set-status', c.id, true, { 'aria-label': `Set status of ${c.name || c.id}` }),
            ),
          );
        }),
      ),
    );
  if (s.phone_kyc.length > 0) {
    out.push(
      h('h3', {}, 'Phone KYC (ramp API)'),
      table(
        'Phone KYC',
        ['Phone', 'Status', 'Merchant', 'History'],
        s.phone_kyc.map((k) => row(k.id, k.phone, status(k.status), h('code', {}, k.merchant_id), history(`kyc:${k.id}`, k.history))),
      ),
    );
  }
  return out;
}

function triggers(s: DashboardSnapshot): Node[] {
  return [
    h('h3', {}, 'Customer last_name'),
    table('KYC triggers', ['last_name', 'Outcome'], s.triggers.kyc.map((t) => row(t.last_name, h('code', {}, t.last_name), t.outcome))),
    h('h3', {}, 'Mobile Money numbers'),
    table('Phone triggers', ['Number', 'Outcome'], s.triggers.phones.map((t) => row(t.number, h('code', {}, t.number), t.outcome))),
  ];
}

function transactions(s: DashboardSnapshot): Node[] {
  if (s.transactions.length === 0) return [empty('No transaction yet.')];
  return [
    table(
      'Transactions',
      ['Transaction', 'Kind', 'Status', 'Amount', 'Phone', 'Started', 'History'],
      s.transactions.map((t) =>
        row(
          t.id,
          h('span', {}, h('code', {}, t.id), t.message ? h('small', {}, h('br'), t.message) : null),
          t.kind === 'deposit' ? 'buy (deposit)' : 'sell (withdrawal)',
          status(t.status),
          t.amount === null ? '—' : `${amount(t.amount)} ${t.currency}`,
          t.phone ?? '—',
          time(t.started_at),
          history(`transaction:${t.id}`, t.history),
        ),
      ),
    ),
  ];
}

function rampOrders(s: DashboardSnapshot): Node[] {
  if (s.ramp_orders.length === 0) return [empty('No ramp order yet.')];
  return [
    table(
      'Ramp orders',
      ['Reference', 'Type', 'Status', 'GHS', 'USDC', 'Phone', 'Created', 'History'],
      s.ramp_orders.map((o) =>
        row(
          o.id,
          h('span', {}, h('code', {}, o.reference), o.failure_reason ? h('small', {}, h('br'), o.failure_reason) : null),
          o.type,
          status(o.status),
          amount(o.fiat_amount),
          amount(o.crypto_amount),
          o.phone,
          time(o.created_at),
          history(`ramp:${o.id}`, o.history),
        ),
      ),
    ),
  ];
}

function checkoutSessions(s: DashboardSnapshot): Node[] {
  if (s.checkout_sessions.length === 0) return [empty('No checkout session yet.')];
  return [
    table(
      'Checkout sessions',
      ['Reference', 'Status', 'Amount', 'Paid', 'Created', 'Expires', 'History'],
      s.checkout_sessions.map((c) =>
        row(
          c.id,
          h('span', {}, h('code', {}, c.reference), h('br'), h('small', {}, c.id)),
          status(c.status),
          `${c.amount} ${c.currency}`,
          `${c.final_amount} ${c.currency}`,
          time(c.created_at),
          time(c.expires_at),
          history(`checkout:${c.id}`, c.history),
        ),
      ),
    ),
  ];
}

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

function attempt(d: DeliveryView, a: DeliveryView['attempts'][number], n: number): HTMLElement {
  const outcome = a.status !== undefined ? `answered HTTP ${a.status}` : `failed: ${a.error ?? 'no answer'}`;
  const timing = a.duration_ms === undefined ? '' : ` in ${a.duration_ms} ms`;
  const retry = a.next_attempt_at ? `; next retry ${time(a.next_attempt_at)}` : '';
  return h(
    'li',
    {},
    `Sent ${time(a.at)}${a.manual ? ' (on request)' : ''}, ${outcome}${timing}${retry}`,
    a.request &&
      h(
        'details',
        { 'data-key': `request:${d.id}:${n}` },
        h('summary', { 'data-key': `request-summary:${d.id}:${n}` }, `Request of attempt ${n}`),
        h('pre', {}, headerLines(a.request.headers)),
        h('pre', {}, a.request.body),
      ),
    a.response &&
      h(
        'details',
        { 'data-key': `response:${d.id}:${n}` },
        h('summary', { 'data-key': `response-summary:${d.id}:${n}` }, `Response to attempt ${n}`),
        h('pre', {}, headerLines(a.response.headers)),
        h('pre', {}, a.response.body + (a.response.truncated ? '\n… (cut)' : '')),
      ),
  );
}

/** Each delivery with its attempts; Redeliver sends one more attempt now (control.webhooks.redeliver). */
function webhooks(s: DashboardSnapshot): Node[] {
  if (s.webhooks.length === 0) return [empty('No webhook sent yet.')];
  return s.webhooks.map((d) =>
    h(
      'article',
      { 'data-delivery': d.id, 'aria-label': `Webhook ${d.event} to ${d.url}` },
      h('h3', {}, `${d.event} to ${d.url}`),
      h(
        'dl',
        {},
        h('dt', {}, 'State'),
        h('dd', {}, status(d.state)),
        h('dt', {}, 'Kind'),
        h('dd', {}, d.kind),
        h('dt', {}, 'Event id'),
        h('dd', {}, h('code', {}, d.event_id)),
        h('dt', {}, 'Created'),
        h('dd', {}, time(d.created_at)),
        h('dt', {}, 'Next retry'),
        h('dd', {}, d.next_attempt_at ? time(d.next_attempt_at) : 'none'),
      ),
      h('p', {}, action('Redeliver', 'redeliver', d.id, true, { 'aria-label': `Redeliver ${d.event} to ${d.url}` })),
      h('details', { 'data-key': `body:${d.id}` }, h('summary', { 'data-key': `body-summary:${d.id}` }, 'Body as sent'), h('pre', {}, d.body)),
      h('h4', {}, `Attempts (${d.attempts.length})`),
      d.attempts.length === 0 ? empty('None yet.') : h('ol', {}, ...d.attempts.map((a, i) => attempt(d, a, i + 1))),
    ),
  );
}

export const SECTIONS: Record<string, (s: DashboardSnapshot) => Node[]> = {
  phones,
  transactions,
  'ramp-orders': rampOrders,
  'checkout-sessions': checkoutSessions,
  webhooks,
  customers,
  triggers,
  merchants,
  keys,
};

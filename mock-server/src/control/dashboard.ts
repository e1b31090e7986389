/**
 * What the dashboard shows, as one JSON snapshot, and the dashboard itself:
 *   GET /_mock/             the page (../handlers/dashboard)
 *   GET /_mock/snapshot     the whole simulated world, newest records first, each with its
 *                           history of state changes (../history.ts); an ETag lets a poller
 *                           ask again cheaply (304 while nothing changed)
 * Built field by field from the records, never by copying one whole: nothing of a secret
 * (API key texts or hashes, passwords, session and interactive tokens, webhook secrets, the
 * merchant's Stellar seed) is in it.
 */
import { http, HttpResponse } from 'msw';
import { iso } from '../clock.js';
import type { MockContext } from '../context.js';
import { NEEDS_INFO_FIELDS, PROCESSING_SECONDS } from '../customers.js';
import { historyOf } from '../history.js';
import { route } from '../http/respond.js';
import { PROMPT_DECLINE_SECONDS, PROMPT_TIMEOUT_SECONDS, TEST_PHONES } from '../mobile-money.js';
import { dashboardPageHandlers } from '../handlers/dashboard/index.js';
import type { DashboardSnapshot, DeliveryView, HistoryEntry } from '../handlers/dashboard/model.js';

const newestFirst = <T>(values: Iterable<T>) => [...values].reverse();

/** The record's history with its creation first: the status it started in is the first change's `from`. */
function historyWith(record: { status: string }, createdAt: string): HistoryEntry[] {
  const changes = historyOf(record);
  const initial = changes.find((c) => c.field === 'status')?.from ?? record.status;
  return [
    // Some records keep nanosecond ISO times; the history speaks one format.
    { field: 'status', from: null, to: initial, event: 'created', at: iso(Date.parse(createdAt)) },
    ...changes.map((c) => ({ field: c.field, from: c.from, to: c.to, event: c.event, at: iso(c.at) })),
  ];
}

export function dashboardControl(ctx: MockContext, webhooks: { list(): DeliveryView[] }) {
  const snapshot = (): DashboardSnapshot => {
    const { store } = ctx;
    const phones = new Map<string, DashboardSnapshot['phones'][number]>();
    const phone = (number: string) => {
      let entry = phones.get(number);
      if (!entry) phones.set(number, (entry = { number, sms: [], prompts: [], payouts: [] }));
      return entry;
    };
    for (const otp of newestFirst(store.otps.values())) {
      phone(otp.phone).sms.push({ id: otp.id, code: otp.code, purpose: otp.purpose, sent_at: otp.created_at, expires_at: iso(otp.expires_at), used: otp.used });
    }
    for (const c of newestFirst(store.mobileMoney.collections.values())) {
      phone(c.phone).prompts.push({
        id: c.id,
        provider: c.provider,
        amount: c.amount,
        status: c.status,
        owner: c.owner.reference ?? c.owner.id,
        sent_at: c.created_at,
        settled_at: c.settled_at ?? null,
        history: historyWith(c, c.created_at),
      });
    }
    for (const p of newestFirst(store.mobileMoney.payouts.values())) {
      phone(p.phone).payouts.push({
        id: p.id,
        provider: p.provider,
        amount: p.amount,
        status: p.status,
        owner: p.owner.reference ?? p.owner.id,
        sent_at: p.created_at,
        settled_at: p.settled_at ?? null,
        failure_reason: p.failure_reason ?? null,
        history: historyWith(p, p.created_at),
      });
    }
    const merchantKeys = [...store.apiKeys.values()].map((k) => ({
      id: k.id,
      owner: k.merchant_id,
      kind: k.key_type,
      prefix: k.key_prefix,
      active: k.is_active,
      created_at: k.created_at,
    }));
    const checkoutKeys = [...store.checkout.keys.values()].map((k) => ({
      id: k.id,
      owner: k.organization_id ?? k.user_id,
      kind: 'checkout',
      prefix: k.key_prefix,
      active: k.is_active,
      created_at: k.created_at,
    }));
    return {
      clock: { now: iso(ctx.clock.now()), kind: ctx.clock.kind },
      phones: [...phones.values()],
      merchants: newestFirst(store.merchants.values()).map((m) => ({
        id: m.id,
        name: m.name,
        email: m.email,
        status: m.status,
        kyb_status: m.kyb.status,
        ramp_enabled: m.ramp_enabled,
        webhook_url: m.webhook.url,
        created_at: m.created_at,
        history: historyWith(m, m.created_at),
      })),
      keys: newestFirst([...merchantKeys, ...checkoutKeys]),
      customers: newestFirst(store.customers.values()).map((c) => ({
        id: c.id,
        merchant_id: c.merchant_id,
        name: [c.fields.first_name, c.fields.last_name].filter(Boolean).join(' '),
        email: c.fields.email_address ?? '',
        status: c.status,
        verified_phones: c.verified_phones,
        created_at: c.created_at,
        history: historyWith(c, c.created_at),
      })),
      phone_kyc: newestFirst(store.ramp.kyc.values()).map((k) => ({
        id: k.id,
        merchant_id: k.merchant_id,
        phone: k.phone,
        status: k.status,
        created_at: k.created_at,
        history: historyWith(k, k.created_at),
      })),
      triggers: TRIGGERS,
      transactions: newestFirst(store.anchor.transactions.values()).map((t) => ({
        id: t.id,
        kind: t.kind,
        status: t.status,
        merchant_id: t.merchant_id,
        amount: t.quote ? (t.kind === 'deposit' ? t.quote.fiat_amount : t.quote.crypto_amount) : t.requested_amount,
        currency: t.kind === 'deposit' ? 'GHS' : 'USDC',
        phone: t.phone,
        message: t.message,
        started_at: iso(t.started_at),
        history: historyWith(t, iso(t.started_at)),
      })),
      ramp_orders: newestFirst(store.ramp.orders.values()).map((o) => ({
        id: o.id,
        reference: o.reference,
        type: o.type,
        status: o.status,
        merchant_id: o.merchant_id,
        fiat_amount: o.fiat_amount,
        crypto_amount: o.crypto_amount,
        phone: o.user.phone,
        failure_reason: o.failure_reason,
        created_at: o.created_at,
        history: historyWith(o, o.created_at),
      })),
      checkout_sessions: newestFirst(store.checkout.sessions.values()).map((s) => ({
        id: s.id,
        reference: s.reference,
        status: s.status,
        organization_id: s.organization_id,
        amount: s.amount,
        final_amount: s.final_amount,
        currency: s.currency,
        created_at: s.created_at,
        expires_at: iso(s.expires_at),
        history: historyWith(s, s.created_at),
      })),
      webhooks: newestFirst(webhooks.list()),
    };
  };

  const api = { snapshot };
  const handlers = [
    ...dashboardPageHandlers(ctx, snapshot),
    http.get(
      `${ctx.urls.control}/snapshot`,
      route(ctx, 'envelope', async ({ request }) => {
        const body = JSON.stringify(snapshot());
        const etag = `"${await sha256Hex(body)}"`;
        const headers = { etag, 'cache-control': 'no-cache' };
        if (request.headers.get('if-none-match') === etag) return new HttpResponse(null, { status: 304, headers });
        return new HttpResponse(body, { headers: { ...headers, 'content-type': 'application/json' } });
      }),
    ),
  ];
  return { api, handlers };
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

const TRIGGERS: DashboardSnapshot['triggers'] = {
  kyc: [
    { last_name: 'Processing', outcome: `PROCESSING, then ACCEPTED after ${PROCESSING_SECONDS} s of clock time` },
    { last_name: 'NeedsInfo', outcome: `NEEDS_INFO until ${NEEDS_INFO_FIELDS.join(', ')} are given, then ACCEPTED` },
    { last_name: 'Rejected', outcome: 'REJECTED' },
    { last_name: 'any other', outcome: 'ACCEPTED' },
  ],
  phones: [
    { number: TEST_PHONES.decline, outcome: `the prompt is declined after ${PROMPT_DECLINE_SECONDS} s` },
    { number: TEST_PHONES.timeout, outcome: `the prompt is never answered and times out after ${PROMPT_TIMEOUT_SECONDS} s` },
  ],
};

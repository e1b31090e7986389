/**
 * The interactive page's script, sent inline (the page loads nothing else, so it works
 * offline). Plain ES2022 for evergreen browsers. It reads its settings from the
 * `#ramp-config` JSON element that ./page.ts writes, calls the page's API (./index.ts) with
 * the token (and confirms a merchant's order at the widget backend), and reports every status it sees to the opener or parent window with SEP-24's
 * `{ transaction }` message, addressed to one origin (never `*`). In a frame, Escape asks the
 * parent to close it with `{ type: 'sikaramp:close', transaction_id }`, addressed the same way.
 * Timers here are the browser's own: this code runs in the customer's page, not in the mock.
 */
export const PAGE_SCRIPT = String.raw`(() => {
'use strict';
const config = JSON.parse(document.getElementById('ramp-config').textContent);
const t = config.strings;
const $ = (id) => document.getElementById(id);
const form = $('form');
const deposit = config.kind === 'deposit';
const TERMINAL = ['completed', 'expired', 'error'];
const PHONE = /^\+\d{7,15}$/;
const STELLAR_ADDRESS = /^G[A-Z2-7]{55}$/;
const numbers = new Intl.NumberFormat(config.lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const percents = new Intl.NumberFormat(config.lang, { style: 'percent', maximumFractionDigits: 2 });
const money = (n) => numbers.format(Number(n));
const fmt = (text, values) =>
  text.replace(/\{(\w+)\}/g, (whole, name) => (values && Object.hasOwn(values, name) ? String(values[name]) : whole));

let tx = config.transaction;
let codeSentTo = null;
let verifiedPhone = null;
const seen = new Set();
let quote = null;
let quoteSeq = 0;
let pollTimer;
let debounce;

// --- reporting to the embedding page ---------------------------------------------------
const embedder = () => (window.parent !== window ? window.parent : window.opener || null);

function report(transaction) {
  const target = embedder();
  if (!target || !config.targetOrigin) return;
  try {
    target.postMessage({ transaction }, config.targetOrigin);
  } catch {
    // The embedder navigated away or closed: nobody is left to tell.
  }
}

// Keys pressed in this page never reach a cross-origin parent, so its dialog cannot hear Escape:
// ask it to close. Not in a popup, which is the customer's own window to close.
addEventListener('keydown', (event) => {
  if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
  if (window.parent === window || !config.targetOrigin) return;
  try {
    window.parent.postMessage({ type: 'sikaramp:close', transaction_id: tx.id }, config.targetOrigin);
  } catch {
    // The embedder navigated away: nothing to close.
  }
});

// --- the page's API ----------------------------------------------------------------------
async function api(method, path, body) {
  const headers = { authorization: 'Bearer ' + config.token };
  if (body) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(config.api + '/' + path, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
      cache: 'no-store',
      credentials: 'omit',
    });
    const json = await res.json().catch(() => null);
    if (res.ok && json) return { ok: true, data: json.data };
    return { ok: false, error: (json && json.error) || { code: 'INTERNAL_ERROR', message: t.error_network } };
  } catch {
    return { ok: false, error: { code: 'NETWORK', message: t.error_network } };
  }
}

// --- fields and their errors -------------------------------------------------------------
const inputsOf = (name) => (name === 'provider' ? [...form.querySelectorAll('input[name=provider]')] : [$(name)].filter(Boolean));

function setError(name, message) {
  const error = $(name + '-error');
  if (!error) return false;
  error.textContent = message || '';
  for (const input of inputsOf(name)) {
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
  return true;
}

function focusField(name) {
  const inputs = inputsOf(name);
  const input = inputs.find((i) => i.checked) || inputs[0];
  if (input) input.focus();
}

/** A server error goes to the field it names, else above the confirm button. */
function showError(error, field) {
  const name = error.field || field;
  if (name && name !== 'form' && inputsOf(name).length > 0 && setError(name, error.message)) return focusField(name);
  $('form-error').textContent = error.message;
}

function setBusy(button, busy) {
  if (busy) button.setAttribute('aria-busy', 'true');
  else button.removeAttribute('aria-busy');
}

const provider = () => {
  const checked = form.querySelector('input[name=provider]:checked');
  return checked ? checked.value : null;
};

function normalizePhone(raw) {
  let phone = raw.replace(/[\s().-]/g, '');
  if (/^00\d+$/.test(phone)) phone = '+' + phone.slice(2);
  if (/^0\d{9}$/.test(phone)) phone = '+233' + phone.slice(1);
  return phone;
}

/** A decimal with "." or "," as separator and at most 2 places; null if it is not one. */
function parseAmount(raw) {
  const text = raw.replace(/[\s\u00a0\u202f]/g, '');
  if (/^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(text)) return Number(text.replace(/,/g, ''));
  if (/^\d+([.,]\d{1,2})?$/.test(text)) return Number(text.replace(',', '.'));
  return null;
}

const amountInput = $('amount');
const destinationInput = $('destination');
const currentAmount = () => (config.amount.preset !== null ? config.amount.preset : parseAmount(amountInput.value));

function amountProblem(value) {
  const { min, max, currency } = config.amount;
  if (value === null) return t.error_amount;
  if (value < min) return fmt(t.error_amount_min, { min: money(min), currency });
  if (value > max) return fmt(t.error_amount_max, { max: money(max), currency });
  return null;
}

/** Checks every field in page order; returns the first that is wrong, after marking all. */
function validate() {
  const problems = [];
  const check = (name, message) => {
    setError(name, message);
    if (message) problems.push(name);
  };
  check('provider', provider() ? null : t.error_provider);
  const phone = normalizePhone($('phone').value);
  check('phone', !PHONE.test(phone) ? t.error_phone : codeSentTo !== phone ? t.error_code_not_sent : null);
  if (codeSentTo === phone && verifiedPhone !== phone) check('code', /^\d{6}$/.test($('code').value.trim()) ? null : t.error_code);
  if (amountInput) check('amount', amountProblem(currentAmount()));
  if (destinationInput) check('destination', STELLAR_ADDRESS.test(destinationInput.value.trim().toUpperCase()) ? null : t.error_destination);
  return problems[0] || null;
}

// --- the fee breakdown ---------------------------------------------------------------------
function showSummary(q, message) {
  $('summary-list').hidden = !q;
  $('summary-empty').hidden = !!q;
  if (!q) {
    $('summary-empty').textContent = message || t.summary_empty;
    return;
  }
  $('sum-in').textContent = money(q.amount_in.amount) + ' ' + q.amount_in.currency;
  $('sum-platform-label').textContent = fmt(t.summary_platform_fee, { percent: percents.format(q.platform_fee.bps / 10000) });
  $('sum-platform').textContent = money(q.platform_fee.amount) + ' ' + q.platform_fee.currency;
  $('sum-network').textContent = money(q.network_fee.amount) + ' ' + q.network_fee.currency;
  $('sum-rate').textContent = fmt(t.summary_rate_value, { rate: money(q.rate) });
  $('sum-out').textContent = money(q.amount_out.amount) + ' ' + q.amount_out.currency;
}

/** The quote for the amount now entered, fetched when it is not the one shown. */
async function refreshQuote() {
  const value = currentAmount();
  if (amountProblem(value)) {
    quote = null;
    showSummary(null);
    return null;
  }
  if (quote && quote.amount === value) return quote;
  const seq = ++quoteSeq;
  showSummary(null, t.summary_loading);
  const res = await api('POST', 'quote', { amount: value });
  if (seq !== quoteSeq) return null;
  if (!res.ok) {
    quote = null;
    showSummary(null);
    showError(res.error, amountInput ? 'amount' : 'form');
    return null;
  }
  quote = { amount: value, data: res.data };
  showSummary(res.data);
  return quote;
}

if (amountInput) {
  amountInput.addEventListener('input', () => {
    setError('amount', null);
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      if (!amountProblem(currentAmount())) refreshQuote();
      else showSummary(null);
    }, 400);
  });
  amountInput.addEventListener('change', () => {
    const problem = amountProblem(currentAmount());
    setError('amount', problem);
    if (!problem) refreshQuote();
  });
}
if (destinationInput) destinationInput.addEventListener('input', () => setError('destination', null));
$('code').addEventListener('input', () => setError('code', null));
$('phone').addEventListener('input', () => setError('phone', null));
for (const input of inputsOf('provider')) input.addEventListener('change', () => setError('provider', null));

// --- one-time password -------------------------------------------------------------------
$('send-code').addEventListener('click', async (event) => {
  const button = event.currentTarget;
  if (button.getAttribute('aria-busy')) return;
  const phone = normalizePhone($('phone').value);
  if (!PHONE.test(phone)) {
    setError('phone', t.error_phone);
    return focusField('phone');
  }
  setError('phone', null);
  setBusy(button, true);
  const res = await api('POST', 'otp', { phone });
  setBusy(button, false);
  if (!res.ok) return showError(res.error, 'phone');
  codeSentTo = res.data.phone;
  $('code-group').hidden = false;
  $('code-hint').textContent = fmt(t.code_hint, { phone: codeSentTo });
  button.textContent = t.resend_code;
  $('code').value = '';
  setError('code', null);
  $('code').focus();
});

// --- confirm -------------------------------------------------------------------------------
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = $('confirm');
  if (button.getAttribute('aria-busy')) return;
  $('form-error').textContent = '';
  const wrong = validate();
  if (wrong) return focusField(wrong);
  const shown = quote;
  const q = await refreshQuote();
  if (!q) return;
  if (q !== shown) {
    // The customer has not seen these fees yet: show them and let them confirm again.
    $('form-error').textContent = t.summary_changed;
    return;
  }
  setBusy(button, true);
  button.textContent = t.working;
  const res = await confirm(q);
  setBusy(button, false);
  button.textContent = deposit ? t.confirm_deposit : t.confirm_withdrawal;
  if (!res.ok) return showError(res.error, 'form');
  showProgress(res.data.transaction, q.data);
  update(res.data.transaction);
});

// One key for this page's order: a confirmation the service refused did not use it, and a
// repeat of one it took (its answer lost) is refused as a duplicate instead of ordering twice.
const idempotencyKey = crypto.randomUUID();

/** Where an order endpoint error belongs: the field its "name: " prefix or its code names. */
const ORDER_FIELDS = { provider: 'provider', phone: 'phone', amount: 'amount', destination_address: 'destination' };
const ORDER_CODES = { PHONE_NOT_VERIFIED: 'code', AMOUNT_OUT_OF_RANGE: 'amount' };
function placeOrderError(error) {
  const match = /^(\w+): (.*)$/s.exec(error.message);
  if (match && Object.hasOwn(ORDER_FIELDS, match[1])) {
    return { ...error, field: ORDER_FIELDS[match[1]], message: match[2].charAt(0).toUpperCase() + match[2].slice(1) };
  }
  return Object.hasOwn(ORDER_CODES, error.code) ? { ...error, field: ORDER_CODES[error.code] } : error;
}

/** A merchant's order, confirmed at the widget backend with the customer's session. */
async function createOrder(body) {
  const order = config.order;
  try {
    const res = await fetch(order.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': order.api_key,
        'x-session-id': order.session_id,
        'x-session-token': order.session_token,
        'x-idempotency-key': idempotencyKey,
      },
      body: JSON.stringify({ transaction_id: tx.id, ...body }),
      cache: 'no-store',
      credentials: 'omit',
    });
    const json = await res.json().catch(() => null);
    if (res.ok && json) return { ok: true, data: json.data };
    return { ok: false, error: placeOrderError((json && json.error) || { code: 'INTERNAL_ERROR', message: t.error_network }) };
  } catch {
    return { ok: false, error: { code: 'NETWORK', message: t.error_network } };
  }
}

/** Checks the code (once per number), then finishes the form: a merchant's order at the widget backend, else through the page's API. */
async function confirm(q) {
  if (verifiedPhone !== codeSentTo) {
    const verified = await api('POST', 'verify', { phone: codeSentTo, code: $('code').value.trim() });
    if (!verified.ok) return verified;
    verifiedPhone = codeSentTo;
  }
  const body = { provider: provider(), phone: codeSentTo };
  if (amountInput) body.amount = q.amount;
  if (destinationInput) body.destination_address = destinationInput.value.trim().toUpperCase();
  return config.order ? createOrder(body) : api('POST', 'complete', body);
}

function showProgress(transaction, q) {
  form.hidden = true;
  $('progress').hidden = false;
  if (deposit) {
    const label = form.querySelector('input[name=provider]:checked').parentElement.textContent.trim();
    $('progress-heading').textContent = t.approve_heading;
    $('progress-text').textContent = fmt(t.approve_text, { amount: money(q.amount_in.amount), phone: codeSentTo, provider: label });
  } else {
    $('progress-heading').textContent = t.send_heading;
    $('progress-text').textContent = fmt(t.send_text, { amount: transaction.amount_in });
    $('send-address').textContent = transaction.withdraw_anchor_account || '';
    $('send-memo').textContent = transaction.withdraw_memo || '';
    $('send-details').hidden = false;
  }
  $('progress-heading').focus();
}

for (const button of document.querySelectorAll('[data-copy]')) {
  button.addEventListener('click', async () => {
    const source = $(button.dataset.copy);
    let copied = false;
    try {
      await navigator.clipboard.writeText(source.textContent);
      copied = true;
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
    }
    $('copy-status').textContent = copied ? t.copied : t.copy_failed;
  });
}

// --- status --------------------------------------------------------------------------------
function statusText(transaction) {
  const status = transaction.status;
  if (status === 'error') {
    return transaction.message ? fmt(t.status_error_message, { message: transaction.message }) : t.status_error;
  }
  return t['status_' + status + '_' + config.kind] || t['status_' + status] || status;
}

/** Takes the newest transaction object; a status not seen before is shown and reported. */
function update(next) {
  if (seen.has(next.status)) {
    if (next.status === tx.status) tx = next;
    return;
  }
  seen.add(next.status);
  tx = next;
  $('status').textContent = statusText(tx);
  report(tx);
  if (TERMINAL.includes(tx.status)) finish();
}

function finish() {
  clearTimeout(pollTimer);
  form.hidden = true;
  if (!embedder() && config.redirectUrl) {
    const url = new URL(config.redirectUrl);
    url.searchParams.set('transaction_id', tx.id);
    url.searchParams.set('status', tx.status);
    $('back-link').href = url.href;
    $('back').hidden = false;
  }
}

// Statuses can pass between two polls (the anchor sends the USDC 2 s after the cedis arrive):
// the API returns each status since the one last seen, so that every one is reported.
async function poll() {
  const res = await api('GET', 'transaction?since=' + encodeURIComponent(tx.status));
  if (res.ok) for (const each of res.data.history) update(each);
  if (!TERMINAL.includes(tx.status)) pollTimer = setTimeout(poll, config.pollMs);
}

seen.add(tx.status);
$('status').textContent = statusText(tx);
report(tx);
if (TERMINAL.includes(tx.status)) finish();
else pollTimer = setTimeout(poll, config.pollMs);
if (!amountInput) refreshQuote();
})();
`;

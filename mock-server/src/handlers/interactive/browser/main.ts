/**
 * The interactive page's script, sent inline (the page loads nothing else, so it works
 * offline); bundled by mock-server/scripts/browser-scripts.ts. It reads its settings from the
 * `#ramp-config` JSON element that ../page.ts writes, calls the page's API (../index.ts) with
 * the token (and confirms a merchant's order at the widget backend); ./status.ts follows the
 * transaction's status and reports each one to the page that opened or frames it.
 * Timers here are the browser's own: this code runs in the customer's page, not in the mock.
 */
import type { PageConfig } from '../model.js';
import { format } from '../strings.js';
import { api, createOrder, type ApiError, type ApiResult } from './api.js';
import { $ } from './dom.js';
import { closeOnEscape } from './embedder.js';
import { normalizePhone, parseAmount, PHONE, STELLAR_ADDRESS } from './input.js';
import { followStatus, type Transaction } from './status.js';

interface Money {
  amount: string | number;
  currency: string;
}
/** The page API's quote. */
interface QuoteView {
  amount_in: Money;
  amount_out: Money;
  platform_fee: Money & { bps: number };
  network_fee: Money;
  rate: string | number;
}
interface Quote {
  amount: number;
  data: QuoteView;
}

const config = JSON.parse($('ramp-config').textContent ?? '') as PageConfig;
const t = config.strings;
const form = $<HTMLFormElement>('form');
const deposit = config.kind === 'deposit';
const numbers = new Intl.NumberFormat(config.lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const percents = new Intl.NumberFormat(config.lang, { style: 'percent', maximumFractionDigits: 2 });
const money = (n: string | number) => numbers.format(Number(n));

let codeSentTo: string | null = null;
let verifiedPhone: string | null = null;
let quote: Quote | null = null;
let quoteSeq = 0;
let debounce: ReturnType<typeof setTimeout> | undefined;

// --- the embedding page ------------------------------------------------------------------
closeOnEscape(config.targetOrigin, () => config.transaction.id);

// --- fields and their errors -------------------------------------------------------------
const inputsOf = (name: string): HTMLInputElement[] =>
  name === 'provider'
    ? [...form.querySelectorAll<HTMLInputElement>('input[name=provider]')]
    : [document.getElementById(name) as HTMLInputElement | null].filter((input) => input !== null);

function setError(name: string, message: string | null) {
  const error = document.getElementById(name + '-error');
  if (!error) return false;
  error.textContent = message || '';
  for (const input of inputsOf(name)) {
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
  return true;
}

function focusField(name: string) {
  const inputs = inputsOf(name);
  const input = inputs.find((i) => i.checked) || inputs[0];
  if (input) input.focus();
}

/** A server error goes to the field it names, else above the confirm button. */
function showError(error: ApiError, field: string) {
  const name = error.field || field;
  if (name && name !== 'form' && inputsOf(name).length > 0 && setError(name, error.message)) return focusField(name);
  $('form-error').textContent = error.message;
}

function setBusy(button: HTMLElement, busy: boolean) {
  if (busy) button.setAttribute('aria-busy', 'true');
  else button.removeAttribute('aria-busy');
}

const provider = () => form.querySelector<HTMLInputElement>('input[name=provider]:checked')?.value ?? null;

const amountInput = document.getElementById('amount') as HTMLInputElement | null;
const destinationInput = document.getElementById('destination') as HTMLInputElement | null;
const phoneInput = $<HTMLInputElement>('phone');
const codeInput = $<HTMLInputElement>('code');
const currentAmount = () => (config.amount.preset !== null ? config.amount.preset : parseAmount(amountInput!.value));

function amountProblem(value: number | null) {
  const { min, max, currency } = config.amount;
  if (value === null) return t.error_amount;
  if (value < min) return format(t.error_amount_min, { min: money(min), currency });
  if (value > max) return format(t.error_amount_max, { max: money(max), currency });
  return null;
}

/** Checks every field in page order; returns the first that is wrong, after marking all. */
function validate() {
  const problems: string[] = [];
  const check = (name: string, message: string | null) => {
    setError(name, message);
    if (message) problems.push(name);
  };
  check('provider', provider() ? null : t.error_provider);
  const phone = normalizePhone(phoneInput.value);
  check('phone', !PHONE.test(phone) ? t.error_phone : codeSentTo !== phone ? t.error_code_not_sent : null);
  if (codeSentTo === phone && verifiedPhone !== phone) check('code', /^\d{6}$/.test(codeInput.value.trim()) ? null : t.error_code);
  if (amountInput) check('amount', amountProblem(currentAmount()));
  if (destinationInput) check('destination', STELLAR_ADDRESS.test(destinationInput.value.trim().toUpperCase()) ? null : t.error_destination);
  return problems[0] || null;
}

// --- the fee breakdown ---------------------------------------------------------------------
function showSummary(q: QuoteView | null, message?: string) {
  $('summary-list').hidden = !q;
  $('summary-empty').hidden = !!q;
  if (!q) {
    $('summary-empty').textContent = message || t.summary_empty;
    return;
  }
  $('sum-in').textContent = money(q.amount_in.amount) + ' ' + q.amount_in.currency;
  $('sum-platform-label').textContent = format(t.summary_platform_fee, { percent: percents.format(q.platform_fee.bps / 10000) });
  $('sum-platform').textContent = money(q.platform_fee.amount) + ' ' + q.platform_fee.currency;
  $('sum-network').textContent = money(q.network_fee.amount) + ' ' + q.network_fee.currency;
  $('sum-rate').textContent = format(t.summary_rate_value, { rate: money(q.rate) });
  $('sum-out').textContent = money(q.amount_out.amount) + ' ' + q.amount_out.currency;
}

/** The quote for the amount now entered, fetched when it is not the one shown. */
async function refreshQuote(): Promise<Quote | null> {
  const value = currentAmount();
  if (amountProblem(value)) {
    quote = null;
    showSummary(null);
    return null;
  }
  if (quote && quote.amount === value) return quote;
  const seq = ++quoteSeq;
  showSummary(null, t.summary_loading);
  const res = await api<QuoteView>(config, 'POST', 'quote', { amount: value });
  if (seq !== quoteSeq) return null;
  if (!res.ok) {
    quote = null;
    showSummary(null);
    showError(res.error, amountInput ? 'amount' : 'form');
    return null;
  }
  quote = { amount: value!, data: res.data };
  showSummary(res.data);
  return quote;
}

if (amountInput) {
  amountInput.addEventListener('input', () => {
    setError('amount', null);
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      if (!amountProblem(currentAmount())) void refreshQuote();
      else showSummary(null);
    }, 400);
  });
  amountInput.addEventListener('change', () => {
    const problem = amountProblem(currentAmount());
    setError('amount', problem);
    if (!problem) void refreshQuote();
  });
}
if (destinationInput) destinationInput.addEventListener('input', () => setError('destination', null));
codeInput.addEventListener('input', () => setError('code', null));
phoneInput.addEventListener('input', () => setError('phone', null));
for (const input of inputsOf('provider')) input.addEventListener('change', () => setError('provider', null));

// --- one-time password -------------------------------------------------------------------
$('send-code').addEventListener('click', async (event) => {
  const button = event.currentTarget as HTMLButtonElement;
  if (button.getAttribute('aria-busy')) return;
  const phone = normalizePhone(phoneInput.value);
  if (!PHONE.test(phone)) {
    setError('phone', t.error_phone);
    return focusField('phone');
  }
  setError('phone', null);
  setBusy(button, true);
  const res = await api<{ phone: string }>(config, 'POST', 'otp', { phone });
  setBusy(button, false);
  if (!res.ok) return showError(res.error, 'phone');
  codeSentTo = res.data.phone;
  $('code-group').hidden = false;
  $('code-hint').textContent = format(t.code_hint, { phone: codeSentTo });
  button.textContent = t.resend_code;
  codeInput.value = '';
  setError('code', null);
  codeInput.focus();
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
  form.hidden = true;
  showProgress(res.data.transaction, q.data.amount_in.amount, codeSentTo!, provider()!);
  $('progress-heading').focus();
  status.update(res.data.transaction);
});

const idempotencyKey = crypto.randomUUID();

/** Checks the code (once per number), then finishes the form: a merchant's order at the widget backend, else through the page's API. */
async function confirm(q: Quote): Promise<ApiResult<{ transaction: Transaction }>> {
  if (verifiedPhone !== codeSentTo) {
    const verified = await api<unknown>(config, 'POST', 'verify', { phone: codeSentTo, code: codeInput.value.trim() });
    if (!verified.ok) return verified;
    verifiedPhone = codeSentTo;
  }
  const body: Record<string, unknown> = { provider: provider(), phone: codeSentTo };
  if (amountInput) body.amount = q.amount;
  if (destinationInput) body.destination_address = destinationInput.value.trim().toUpperCase();
  return config.order
    ? createOrder(config, config.order, idempotencyKey, { transaction_id: config.transaction.id, ...body })
    : api(config, 'POST', 'complete', body);
}

/** What to do next: approve the prompt (a buy), or send the USDC (a sell). `amountIn` in GHS for a buy. */
function showProgress(transaction: Transaction, amountIn: string | number, phone: string, providerId: string) {
  $('progress').hidden = false;
  if (deposit) {
    const choice = inputsOf('provider').find((input) => input.value === providerId);
    const label = choice?.parentElement?.textContent?.trim() || providerId;
    $('progress-heading').textContent = t.approve_heading;
    $('progress-text').textContent = format(t.approve_text, { amount: money(amountIn), phone, provider: label });
  } else {
    $('progress-heading').textContent = t.send_heading;
    $('progress-text').textContent = format(t.send_text, { amount: String(transaction.amount_in) });
    $('send-address').textContent = transaction.withdraw_anchor_account || '';
    $('send-memo').textContent = transaction.withdraw_memo || '';
    $('send-details').hidden = false;
  }
}

// A copy button copies its data-copy element's text, else selects it for the customer to copy.
for (const button of document.querySelectorAll<HTMLElement>('[data-copy]')) {
  button.addEventListener('click', async () => {
    const source = $(button.dataset.copy!);
    let copied = false;
    try {
      await navigator.clipboard.writeText(source.textContent ?? '');
      copied = true;
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
    }
    $('copy-status').textContent = copied ? t.copied : t.copy_failed;
  });
}

// --- status --------------------------------------------------------------------------------
// A form finished before the page loaded (elsewhere, or in another window): the status view.
if (config.finished) {
  const tx = config.transaction as Transaction;
  form.hidden = true;
  if (tx.status === 'pending_user_transfer_start') showProgress(tx, tx.amount_in ?? 0, config.finished.phone, config.finished.provider);
}
const status = followStatus(config);
if (!amountInput && !config.finished) void refreshQuote();

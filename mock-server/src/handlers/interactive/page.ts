/**
 * The interactive page's HTML, rendered on the server in the customer's language: the form
 * works with the keyboard alone and with a screen reader (a label for every input, a
 * fieldset and legend for every group, hints and errors tied to their input through
 * aria-describedby, a polite live region for the status). The script (./browser/main.ts) only
 * shows, hides and fills what is already here.
 */
import { html, trustedHtml, type SafeHtml } from '../../http/html.js';
import { PROVIDERS } from '../../mobile-money.js';
import type { TransactionKind } from '../../state/anchor.js';
import type { PageModel } from './model.js';
import { format, STRINGS, type Lang, type Strings } from './strings.js';

/** JSON that is safe inside a `<script type="application/json">` element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** 2-decimal amounts in the page's language, as the script also writes them. */
const money = (lang: Lang, n: number) =>
  new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);

/** A time of day in the page's language, UTC, e.g. `14:05 UTC`. */
const clockTime = (lang: Lang, isoTime: string) =>
  `${new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC', hourCycle: 'h23' }).format(new Date(isoTime))} UTC`;

interface Shell {
  lang: Lang;
  title: string;
  /** Contents of the one `<style>` element (its hash goes into the CSP). */
  css: string;
  body: SafeHtml;
  /** Contents of the one executable `<script>` element, if any. */
  script?: string;
  config?: unknown;
}

function shell({ lang, title, css, body, script, config }: Shell): string {
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${trustedHtml(css)}</style>
</head>
<body>
${body}
${config !== undefined && html`<script type="application/json" id="ramp-config">${trustedHtml(scriptJson(config))}</script>\n`}${script !== undefined && html`<script>${trustedHtml(script)}</script>\n`}</body>
</html>
`.text;
}

/** One field's hint and error paragraphs, referenced by the input's aria-describedby. */
const help = (id: string, hint?: string) =>
  html`${hint !== undefined && html`<p class="hint" id="${id}-hint">${hint}</p>`}<p class="error" id="${id}-error"></p>`;

const describedBy = (id: string, hint = true) => html`aria-describedby="${hint ? `${id}-hint ` : ''}${id}-error"`;

export function renderPage(model: PageModel, css: string, script: string): string {
  const t = STRINGS[model.lang];
  const { kind, amount } = model;
  const deposit = kind === 'deposit';
  const title = deposit ? t.title_deposit : t.title_withdrawal;
  const merchant = model.merchant ?? t.the_merchant;
  const providers = Object.entries(PROVIDERS).map(
    ([id, name]) => html`<label class="choice"><input type="radio" name="provider" value="${id}" ${describedBy('provider', false)}> ${name}</label>\n`,
  );

  const amountField =
    amount.preset === null
      ? html`<fieldset>
<legend>${t.amount_legend}</legend>
<label for="amount">${deposit ? t.amount_label_deposit : t.amount_label_withdrawal}</label>
<input id="amount" name="amount" type="text" inputmode="decimal" autocomplete="off" ${describedBy('amount')}>
${help('amount', format(t.amount_hint, { min: money(model.lang, amount.min), max: money(model.lang, amount.max), currency: amount.currency }))}
</fieldset>`
      : html`<p id="amount-preset">${format(t.amount_preset, { merchant, amount: money(model.lang, amount.preset), currency: amount.currency })}</p>`;

  const destinationField = !deposit
    ? null
    : model.destination === null
      ? html`<fieldset>
<legend>${t.destination_legend}</legend>
<label for="destination">${t.destination_label}</label>
<input id="destination" name="destination_address" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" class="mono" ${describedBy('destination')}>
${help('destination', t.destination_hint)}
</fieldset>`
      : html`<p id="destination-preset" class="break">${format(t.destination_preset, { address: model.destination })}</p>`;

  const body = html`<main>
<h1>${title}</h1>
${model.merchant !== null && html`<p class="muted">${format(t.merchant, { merchant })}</p>`}
${model.testMode && html`<p class="banner">${t.test_mode}</p>`}
<noscript><p class="error">${t.noscript}</p></noscript>
<p>${deposit ? t.intro_deposit : t.intro_withdrawal}</p>
<form id="form" novalidate${model.finished !== null && html` hidden`}>
<fieldset>
<legend>${t.provider_legend}</legend>
<div class="choices">
${providers}</div>
${help('provider')}
</fieldset>
<fieldset>
<legend>${t.phone_legend}</legend>
<label for="phone">${t.phone_label}</label>
<div class="row">
<div><input id="phone" name="phone" type="tel" inputmode="tel" autocomplete="tel" ${describedBy('phone')}></div>
<button type="button" id="send-code" class="secondary">${t.send_code}</button>
</div>
${help('phone', t.phone_hint)}
<div id="code-group" hidden>
<label for="code">${t.code_label}</label>
<input id="code" name="otp_code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="6" ${describedBy('code')}>
${help('code', '')}
</div>
</fieldset>
${amountField}
${destinationField}
<section class="summary" aria-labelledby="summary-heading">
<h2 id="summary-heading">${t.summary_heading}</h2>
<p id="summary-empty" class="muted">${amount.preset === null ? t.summary_empty : t.summary_loading}</p>
<dl id="summary-list" hidden>
<dt>${deposit ? t.summary_you_pay : t.summary_you_send}</dt><dd id="sum-in"></dd>
<dt id="sum-platform-label">${t.summary_platform_fee}</dt><dd id="sum-platform"></dd>
<dt>${t.summary_network_fee}</dt><dd id="sum-network"></dd>
<dt>${t.summary_rate}</dt><dd id="sum-rate"></dd>
<dt class="total">${t.summary_you_receive}</dt><dd class="total" id="sum-out"></dd>
</dl>
${model.guaranteed !== null && html`<p id="guaranteed">${format(t.summary_guaranteed, { rate: money(model.lang, model.guaranteed.rate), time: clockTime(model.lang, model.guaranteed.expires_at) })}</p>`}
<p class="hint">${deposit ? t.summary_note_deposit : t.summary_note_withdrawal}</p>
</section>
<p class="error" id="form-error" role="alert"></p>
<button type="submit" id="confirm" class="primary">${deposit ? t.confirm_deposit : t.confirm_withdrawal}</button>
</form>
<section id="progress" aria-labelledby="progress-heading" hidden>
<h2 id="progress-heading" tabindex="-1"></h2>
<p id="progress-text"></p>
<div id="send-details" hidden>
${copyRow('address', t.send_address, t.copy_address)}
${copyRow('memo', t.send_memo, t.copy_memo)}
<p class="muted" id="copy-status" role="status"></p>
</div>
</section>
<section class="status" aria-labelledby="status-heading">
<h2 id="status-heading">${t.status_heading}</h2>
<p id="status" role="status" aria-live="polite">${statusText(t, kind, model.transaction as { status: string; message?: string | null })}</p>
</section>
<p id="back" hidden><a id="back-link" class="button secondary" href="#">${format(t.back, { merchant })}</a></p>
<p class="muted">${format(t.transaction_id, { id: model.transaction.id })}</p>
</main>`;
  return shell({ lang: model.lang, title: model.merchant === null ? title : `${title} · ${model.merchant}`, css, body, script, config: { ...model, strings: t } });
}

function copyRow(name: string, label: string, button: string): SafeHtml {
  return html`<div class="copy"><div><span class="muted" id="send-${name}-label">${label}</span><output id="send-${name}" class="mono" aria-labelledby="send-${name}-label"></output></div><button type="button" class="secondary" data-copy="send-${name}">${button}</button></div>`;
}

/**
 * The page for a token that opens nothing: unknown, already used, or expired. The three look
 * alike on purpose (a used token is forgotten), so the text covers them all.
 */
export function renderLinkErrorPage(lang: Lang, css: string): string {
  const t: Strings = STRINGS[lang];
  const body = html`<main>
<h1>${t.link_title}</h1>
<p>${format(t.link_text, { merchant: t.the_merchant })}</p>
</main>`;
  return shell({ lang, title: t.link_title, css, body });
}

/** The status sentence for a SEP-24 status, as the page's script also words it. */
function statusText(t: Strings, kind: TransactionKind, tx: { status: string; message?: string | null }): string {
  if (tx.status === 'error') return tx.message ? format(t.status_error_message, { message: tx.message }) : t.status_error;
  const texts = t as unknown as Record<string, string | undefined>;
  return texts[`status_${tx.status}_${kind}`] ?? texts[`status_${tx.status}`] ?? tx.status;
}

interface StatusPageModel {
  lang: Lang;
  merchant: string | null;
  /** The SEP-24 transaction object. */
  transaction: {
    id: string;
    kind: TransactionKind;
    status: string;
    amount_in: string | null;
    amount_out: string | null;
    message?: string;
    withdraw_anchor_account?: string | null;
    withdraw_memo?: string | null;
  };
}

/**
 * The transaction's `more_info_url`: what it is and where it stands, readable without the
 * token (the id is the reference the customer quotes). No script; reloading shows the news.
 */
export function renderStatusPage({ lang, merchant, transaction: tx }: StatusPageModel, css: string): string {
  const t = STRINGS[lang];
  const deposit = tx.kind === 'deposit';
  const title = deposit ? t.title_deposit : t.title_withdrawal;
  const [inCurrency, outCurrency] = deposit ? ['GHS', 'USDC'] : ['USDC', 'GHS'];
  const amounts =
    tx.amount_in === null || tx.amount_out === null
      ? null
      : html`<dl class="summary">
<dt>${deposit ? t.summary_you_pay : t.summary_you_send}</dt><dd>${money(lang, Number(tx.amount_in))} ${inCurrency}</dd>
<dt class="total">${t.summary_you_receive}</dt><dd class="total">${money(lang, Number(tx.amount_out))} ${outCurrency}</dd>
</dl>`;
  const send =
    !deposit && tx.status === 'pending_user_transfer_start' && tx.withdraw_anchor_account && tx.withdraw_memo
      ? html`<h2>${t.send_heading}</h2>
<p>${format(t.send_text, { amount: tx.amount_in ?? '' })}</p>
<dl class="summary">
<dt>${t.send_address}</dt><dd class="mono">${tx.withdraw_anchor_account}</dd>
<dt>${t.send_memo}</dt><dd class="mono">${tx.withdraw_memo}</dd>
</dl>`
      : null;
  const body = html`<main>
<h1>${title}</h1>
${merchant !== null && html`<p class="muted">${format(t.merchant, { merchant })}</p>`}
<section class="status" aria-labelledby="status-heading">
<h2 id="status-heading">${t.status_heading}</h2>
<p>${statusText(t, tx.kind, tx)}</p>
</section>
${amounts}
${send}
<p class="muted">${format(t.transaction_id, { id: tx.id })}</p>
</main>`;
  return shell({ lang, title, css, body });
}

/** The page for a `more_info_url` whose transaction does not exist. */
export function renderUnknownTransactionPage(lang: Lang, css: string): string {
  const t = STRINGS[lang];
  return shell({ lang, title: t.unknown_title, css, body: html`<main>\n<h1>${t.unknown_title}</h1>\n<p>${t.unknown_text}</p>\n</main>` });
}

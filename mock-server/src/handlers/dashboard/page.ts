/**
 * The dashboard's HTML: a landmark and a heading per section, the clock's form, and empty
 * containers that the script (./browser/main.ts) fills from the snapshot and keeps up to date.
 * Every control is a native button, input, select or summary, so the keyboard reaches and
 * works each; results of actions are announced in a polite live region.
 */
import { html, trustedHtml } from '../../http/html.js';
import type { DashboardConfig } from './model.js';

/** JSON that is safe inside a `<script type="application/json">` element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** A section with its heading (focusable by the script, not by Tab) and the container the script fills. */
const section = (id: string, title: string, intro = '', wide = false) => html`<section aria-labelledby="${id}-heading"${wide && html` class="wide"`}>
<h2 id="${id}-heading" tabindex="-1">${title}</h2>
${intro && html`<p>${intro}</p>`}<div id="${id}"></div>
</section>`;

export function renderDashboard(config: DashboardConfig, css: string, script: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sikaramp mock dashboard</title>
<style>${trustedHtml(css)}</style>
</head>
<body>
<header>
<h1>Sikaramp mock dashboard</h1>
<p>Test data only. It updates itself while the mock runs; the buttons are the control API's calls.</p>
</header>
<main>
<section aria-labelledby="clock-heading" class="wide">
<h2 id="clock-heading">Clock</h2>
<p>Now: <strong id="clock-now"></strong> <span id="clock-kind" class="status"></span></p>
<form id="advance-form" class="inline" novalidate>
<label for="advance-amount">Advance by</label>
<input id="advance-amount" name="amount" type="number" min="0" step="any" value="60" required>
<label for="advance-unit">Unit</label>
<select id="advance-unit" name="unit">
<option value="1">seconds</option>
<option value="60">minutes</option>
<option value="3600">hours</option>
<option value="86400">days</option>
</select>
<button type="submit" id="advance">Advance the clock</button>
</form>
<p id="announce" role="status" aria-live="polite"></p>
<noscript><p>The dashboard needs JavaScript.</p></noscript>
</section>
${section('phones', 'Virtual phones', 'One-time codes sent by SMS, Mobile Money prompts to answer as the customer would, and money paid out to the phone.', true)}
${section('transactions', 'Widget and anchor transactions', '', true)}
${section('ramp-orders', 'Ramp orders', '', true)}
${section('checkout-sessions', 'Checkout sessions', '', true)}
${section('webhooks', 'Webhook deliveries', 'Each attempt as sent and as answered.', true)}
${section('customers', 'Customers (KYC)')}
${section('triggers', 'Test triggers')}
${section('merchants', 'Merchants')}
${section('keys', 'API keys', 'Prefixes only: a key is shown once to its owner and never kept.')}
</main>
<script type="application/json" id="dashboard-config">${trustedHtml(scriptJson(config))}</script>
<script>${trustedHtml(script)}</script>
</body>
</html>`.text;
}

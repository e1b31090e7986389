/**
 * The shop's page: the widget (buy and sell), checkout, a server-side ramp order, and the
 * webhooks this backend verified, all live. Only the public key is in it.
 */
import type { Config } from './config.ts';
import { PRODUCT } from './routes/checkout.ts';
import { testPhone } from './routes/test-mode.ts';
import { html, layout } from './html.ts';

export function shopPage(config: Config): string {
  const testMode = config.mockUrl !== undefined;
  // Popup mode keeps this page usable while the customer is in the flow: its statuses stay
  // in view, and a sell's "send the USDC" step can be played from here in test mode. The popup
  // posts each status; once the customer closes it early, the widget polls status-url instead.
  const widget = (flow: 'buy' | 'sell') =>
    html`<ramp-widget data-api-key="${config.publicKey}" flow="${flow}" mode="popup" session-url="/api/ramp/session"
      status-url="/api/ramp/status" api-base="${config.baseUrl}"${flow === 'buy' ? html` destination="${config.customer.wallet}"` : ''}></ramp-widget>`;
  const price = `${PRODUCT.currency} ${(PRODUCT.amount / 100).toFixed(2)}`;
  const phone = testPhone(config);

  return layout(
    'Sikaramp demo',
    html`<header>
  <h1>Kofi Shop</h1>
  <p class="muted">An example merchant on Sikaramp: the widget, signed webhooks, checkout and the ramp order API.</p>
  ${
    testMode
      ? html`<p class="banner">Test mode: the bundled mock server plays Sikaramp, Mobile Money and Stellar; no real money moves.
  For the Mobile Money number use the test phone <strong class="mono">${phone}</strong>;
  the code it receives shows here: <strong id="otp" class="mono">none yet</strong>. Prompts approve themselves after a few seconds.</p>`
      : ''
  }
</header>

<main>
<div class="grid">
  <section id="buy" aria-labelledby="buy-title">
    <h2 id="buy-title">Buy USDC</h2>
    <p class="muted">Pay cedis with Mobile Money; the USDC goes to the wallet <span class="mono">${config.customer.wallet.slice(0, 8)}…</span></p>
    ${widget('buy')}
    <ol id="buy-statuses" aria-live="polite"></ol>
  </section>
  <section id="sell" aria-labelledby="sell-title">
    <h2 id="sell-title">Sell USDC</h2>
    <p class="muted">Send USDC on Stellar; the cedis go to Mobile Money.</p>
    ${widget('sell')}
    <div id="sell-deposit" class="deposit" hidden>
      Send exactly <strong id="sell-amount"></strong> USDC to <code id="sell-address"></code> with the memo <code id="sell-memo"></code>.
      ${testMode ? html`<p><button id="sell-pay" type="button">Simulate the USDC payment</button> <span id="sell-paid" class="muted"></span></p>` : ''}
    </div>
    <ol id="sell-statuses" aria-live="polite"></ol>
  </section>
</div>

<div class="grid">
  <section id="checkout" aria-labelledby="checkout-title">
    <h2 id="checkout-title">Checkout</h2>
    <p>${PRODUCT.description}: ${price}</p>
    <form method="post" action="/checkout"><button>Pay ${price}</button></form>
    <p class="muted">Hosted checkout page, then back here: this backend verifies the payment, and ships on the signed webhook only.</p>
  </section>
  <section id="ramp-order" aria-labelledby="ramp-title">
    <h2 id="ramp-title">Server-side on-ramp</h2>
    <p>This backend creates a 100 GHS on-ramp order with the ramp API and follows it with <code>waitForOrder</code>.</p>
    <button id="ramp-start" type="button">Create the order</button>
    <ol id="ramp-statuses" aria-live="polite"></ol>
  </section>
</div>

<section id="webhooks" aria-labelledby="webhooks-title">
  <h2 id="webhooks-title">Signed webhooks received</h2>
  <p class="muted">Each one verified over the raw body with the webhook secret, then handled once.</p>
  <ul id="webhook-list" aria-live="polite"></ul>
</section>
</main>

<script type="module">
const $ = (id) => document.getElementById(id);
const item = (list, text) => {
  const li = document.createElement('li');
  li.textContent = text;
  $(list).append(li);
  return li;
};
const time = () => new Date().toLocaleTimeString();

// Each status the widget reports. An event is not settlement: fulfil from the signed webhook.
for (const flow of ['buy', 'sell']) {
  const el = document.querySelector('ramp-widget[flow=' + flow + ']');
  el.addEventListener('ramp-status', (e) => {
    const tx = e.detail.transaction;
    item(flow + '-statuses', time() + '  ' + tx.status).dataset.status = tx.status;
    if (flow === 'sell' && tx.status === 'pending_user_transfer_start' && tx.withdraw_memo) {
      $('sell-deposit').hidden = false;
      $('sell-deposit').dataset.id = tx.id;
      $('sell-amount').textContent = tx.amount_in;
      $('sell-address').textContent = tx.withdraw_anchor_account;
      $('sell-memo').textContent = tx.withdraw_memo;
    }
  });
  el.addEventListener('ramp-open', () => {
    $(flow + '-statuses').textContent = '';
    if (flow === 'sell') {
      $('sell-deposit').hidden = true;
      if ($('sell-paid')) $('sell-paid').textContent = '';
    }
  });
  el.addEventListener('ramp-error', (e) => item(flow + '-statuses', time() + '  error: ' + e.detail.message).className = 'bad');
}

$('sell-pay')?.addEventListener('click', async () => {
  const res = await fetch('/api/test/sell/' + encodeURIComponent($('sell-deposit').dataset.id) + '/pay', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const body = await res.json();
  $('sell-paid').textContent = res.ok ? 'Sent ' + body.amount + ' USDC with memo ' + body.memo + '.' : body.error;
});

if ($('otp')) {
  setInterval(async () => {
    const { code } = await (await fetch('/api/test/otp')).json();
    if (code) $('otp').textContent = code;
  }, 1000);
}

// The ramp order's statuses arrive over server-sent events, possibly before the answer below.
const rampStatuses = new Map();
let rampReference;
const renderRamp = () => {
  $('ramp-statuses').textContent = '';
  for (const [at, status] of rampStatuses.get(rampReference) ?? []) item('ramp-statuses', at + '  ' + status).dataset.status = status;
};
$('ramp-start').addEventListener('click', async () => {
  rampReference = undefined;
  renderRamp();
  const res = await fetch('/api/ramp/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":100}' });
  const body = await res.json();
  if (!res.ok) return void (item('ramp-statuses', 'error: ' + body.error).className = 'bad');
  rampReference = body.reference;
  $('ramp-statuses').dataset.reference = body.reference;
  renderRamp();
});

// What the backend saw, as it happened: verified webhooks and the ramp order's statuses.
new EventSource('/api/events').onmessage = (message) => {
  const entry = JSON.parse(message.data);
  const at = new Date(entry.at).toLocaleTimeString();
  if (entry.kind === 'ramp-order' && entry.data.status) {
    const seen = rampStatuses.get(entry.data.reference) ?? [];
    if (seen.at(-1)?.[1] !== entry.data.status) seen.push([at, entry.data.status]);
    rampStatuses.set(entry.data.reference, seen);
    renderRamp();
  }
  if (entry.kind === 'webhook') {
    const li = item('webhook-list', at + '  ' + entry.text);
    li.className = entry.data.verified ? '' : 'bad';
    if (entry.data.event) li.dataset.event = entry.data.event.event ?? entry.data.event.type;
  }
};
</script>
<script type="module" src="/widget/ramp-widget.js"></script>`,
  );
}

/**
 * Checkout: create the order and its payment, send the customer to the hosted checkout page,
 * and, when they come back, ask the service before saying anything. The redirect proves
 * nothing (anyone can type that URL); the order is fulfilled only by the signed webhook
 * (routes/webhooks.ts).
 */
import express, { Router } from 'express';
import { CheckoutClient } from '@sikaramp/sdk';
import type { Config } from '../config.ts';
import type { Order, ShopDb } from '../db.ts';
import { html, layout, type SafeHtml } from '../html.ts';

/** What the demo sells: a T-shirt, GHS 25.00 (in pesewas). */
export const PRODUCT = { description: 'Kofi Shop T-shirt', amount: 2500, currency: 'GHS' } as const;

export function checkoutRoutes({ config, db }: { config: Config; db: ShopDb }): Router {
  const router = Router();
  const checkout = new CheckoutClient({ baseUrl: config.checkoutBaseUrl, apiKey: config.checkoutApiKey });

  router.post('/checkout', express.urlencoded({ extended: false }), async (_req, res) => {
    const order = db.createOrder(PRODUCT);
    const created = await checkout.payments.create(
      {
        amount: order.amount,
        currency: order.currency,
        recipient: { name: `${config.customer.firstName} ${config.customer.lastName}`, email: 'ama@example.com' },
        // The order's token, never its number: this URL shows the order to whoever holds it.
        redirect_url: `${config.publicUrl}/checkout/return?order=${order.token}`,
        meta: { order_id: order.token },
      },
      // Your order as the key: a retry, a double click or a second process makes no second payment.
      { idempotencyKey: `order-${order.token}` },
    );
    if (created.outcome === 'in_progress') {
      return void res.status(202).send(layout('Checkout', html`<p>Your payment is being prepared. <a href="">Try again</a> in a moment.</p>`));
    }
    db.attachCheckout(order.id, created.data);
    res.redirect(303, created.data.checkout_url);
  });

  router.get('/checkout/return', async (req, res) => {
    const order = db.getOrder(String(req.query.order));
    if (!order) return void res.status(404).send(layout('Checkout', html`<p>No such order.</p>`));
    const sessionRef = checkout.payments.fromRedirect(req.originalUrl);
    // Only this order's own session counts, whatever the URL says.
    if (sessionRef !== order.session_id && sessionRef !== order.reference) {
      return void res.status(400).send(layout('Checkout', html`<p>This payment is not for this order.</p>`));
    }
    const result = await checkout.payments.verify(sessionRef);
    res.send(layout(`Order ${order.id}`, returnPage(order, result)));
  });

  // By token only: an order number (1, 2, 3, …) finds nothing, so nobody lists other customers' orders.
  router.get('/api/orders/:token', (req, res) => {
    const order = db.getOrder(req.params.token);
    if (!order) return void res.status(404).json({ error: 'no such order' });
    res.json({ ...order, shipments: db.shipments(order.id) });
  });

  return router;
}

type Verification = Awaited<ReturnType<CheckoutClient['payments']['verify']>>;

function returnPage(order: Order, result: Verification): SafeHtml {
  const total = `${(order.amount / 100).toFixed(2)} ${order.currency}`;
  const paid = result.outcome === 'paid' && result.session.final_amount === order.amount && result.session.currency === order.currency;
  const verdict = paid
    ? html`<p id="verdict" class="ok">Paid: ${total}, confirmed by Sikaramp.</p>`
    : result.outcome === 'unknown'
      ? html`<p id="verdict">We could not confirm your payment yet (${result.reason}). Nothing was charged twice; refresh in a moment.</p>`
      : html`<p id="verdict" class="bad">Not paid (${result.status ?? 'unknown'}). <a href="/">Back to the shop</a></p>`;
  // The verdict above comes from the server's lookup; shipping waits for the signed webhook.
  // The script reads the order from data attributes: no value is written into its code.
  return html`<h1>Order ${order.id}: ${order.description}</h1>
${verdict}
<p>Fulfilment: <strong id="fulfilment" data-token="${order.token}" data-paid="${paid}">${order.status === 'paid' ? 'shipped' : 'waiting for the signed webhook…'}</strong></p>
<p><a href="/">Back to the shop</a></p>
<script type="module">
  const el = document.getElementById('fulfilment');
  for (let i = 0; i < 60 && el.dataset.paid === 'true'; i++) {
    const order = await (await fetch('/api/orders/' + encodeURIComponent(el.dataset.token))).json();
    if (order.status === 'paid') {
      el.textContent = 'shipped (from the signed webhook, ' + order.shipments + ' shipment)';
      break;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
</script>`;
}

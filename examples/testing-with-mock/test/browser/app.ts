/**
 * A page's test set-up in the browser: the whole service in msw's service worker
 * (`setupWorker`), then a widget-backend call as the page's own code would make it. The
 * result goes to `window.result` for the test to read.
 */
import { setupWorker } from 'msw/browser';
import { createMockBackend } from '@sikaramp/mock-server';

const backend = createMockBackend({ clock: 'manual', seed: 7 });
const worker = setupWorker(...backend.handlers);
// Strict, as in node: a request to anything the mock does not serve (but this page's own files) fails.
await worker.start({ quiet: true, onUnhandledFrame: 'error' });

// A merchant whose public key this page's origin may use, made through the service's own routes.
const merchant = await backend.control.fixtures.merchant({ domains: [location.origin] });

// The widget's first call: its configuration, read with the public key from this page.
const res = await fetch(`${backend.urls.base}/api/v1/widget/config`, { headers: { 'x-api-key': merchant.public_key } });
const config = await res.json();

// Fixtures work in the page too: an ACCEPTED customer of that merchant.
const customer = await backend.control.fixtures.customer(merchant);

(window as unknown as { result: unknown }).result = {
  status: res.status,
  config,
  customer: { id: customer.id, status: customer.status },
  merchantId: merchant.id,
};

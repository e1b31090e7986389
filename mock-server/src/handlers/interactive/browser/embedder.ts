/**
 * Talking to the page that opened or frames this one: SEP-24's `{ transaction }` status
 * messages and, in a frame, a request to close. Every message goes to one origin, never `*`;
 * with none (`targetOrigin` null) nothing is sent.
 */

/** The frame's parent, else the popup's opener; null for a page in its own window. */
export const embedder = (): Window | null => (window.parent !== window ? window.parent : window.opener || null);

export function report(targetOrigin: string | null, transaction: unknown): void {
  const target = embedder();
  if (!target || !targetOrigin) return;
  try {
    target.postMessage({ transaction }, targetOrigin);
  } catch {
    // The embedder navigated away or closed: nobody is left to tell.
  }
}

/**
 * Keys pressed in this page never reach a cross-origin parent, so its dialog cannot hear Escape:
 * ask it to close with `{ type: 'sikaramp:close', transaction_id }`. Not in a popup, which is
 * the customer's own window to close.
 */
export function closeOnEscape(targetOrigin: string | null, transactionId: () => string): void {
  addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
    if (window.parent === window || !targetOrigin) return;
    try {
      window.parent.postMessage({ type: 'sikaramp:close', transaction_id: transactionId() }, targetOrigin);
    } catch {
      // The embedder navigated away: nothing to close.
    }
  });
}

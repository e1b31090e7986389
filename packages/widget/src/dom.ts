/** The browser calls the element makes that hold no state of its own. */

/** Where a redirect keeps the id of the transaction it left for, per flow (sessionStorage). */
const PENDING = 'ramp-widget:';

/** The focused element, looked up through open shadow roots, so focus can go back to it. */
export function focused(): HTMLElement | null {
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el as HTMLElement | null;
}

/** sessionStorage, which throws in sandboxed frames and with storage disabled. */
export function pending(flow: string, id?: string | null): string | null | undefined {
  try {
    if (id === undefined) return sessionStorage.getItem(PENDING + flow);
    id ? sessionStorage.setItem(PENDING + flow, id) : sessionStorage.removeItem(PENDING + flow);
  } catch {}
}

/**
 * Opens the (blank) popup; null when the browser blocks it. Unnamed: a window of a given name
 * that a third party's frame on the page opened first would be reused, and stay in its hands.
 */
export const popup = () => window.open('', '', 'popup,width=440,height=720');

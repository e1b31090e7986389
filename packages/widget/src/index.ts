/**
 * @sikaramp/widget: `<ramp-widget>`, the Sikaramp buy/sell flow as a web component. Importing
 * the module defines the element in a browser; in Node (server-side rendering) it does nothing.
 */
import type { RampEvent } from './events.js';
import { RampWidget } from './ramp-widget.js';

export { DEFAULT_ALLOW } from './props.js';
export { RampWidget } from './ramp-widget.js';
export type * from './events.js';
export type * from './jsx.js';

/** The element's tag name. */
export const TAG_NAME = 'ramp-widget';

if (globalThis.window && !customElements.get(TAG_NAME)) customElements.define(TAG_NAME, RampWidget);

declare global {
  interface HTMLElementTagNameMap {
    'ramp-widget': RampWidget;
  }
  interface GlobalEventHandlersEventMap {
    'ramp-ready': RampEvent<'ramp-ready'>;
    'ramp-open': RampEvent<'ramp-open'>;
    'ramp-status': RampEvent<'ramp-status'>;
    'ramp-complete': RampEvent<'ramp-complete'>;
    'ramp-error': RampEvent<'ramp-error'>;
    'ramp-close': RampEvent<'ramp-close'>;
  }
}

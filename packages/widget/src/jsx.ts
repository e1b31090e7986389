/**
 * `<ramp-widget>`'s props in a JSX template, framework-neutral (types only). The React
 * augmentation, dist/jsx-react.d.ts (included by tsconfig or a reference path), puts them in
 * React's `JSX.IntrinsicElements`; another framework's is the same interface in its own namespace.
 */
import type { RampEvent, RampEventMap } from './events.js';
import type { PROPS } from './props.js';
import type { RampWidget } from './ramp-widget.js';

/** Each attribute of props.ts's table, of the type of the property it sets; a number's as its text too. */
type PropAttributes = {
  [A in keyof typeof PROPS]?: RampWidget[(typeof PROPS)[A][0]] | ((typeof PROPS)[A] extends readonly [unknown, unknown, NumberConstructor] ? string : never);
};

/** The attributes, as a template (and a server render) writes them. */
export interface RampWidgetAttributes extends PropAttributes {
  lang?: string;
}

/**
 * A listener per event: `on` and the event's name, as React 19 and Preact take it on a custom
 * element (`onramp-complete` listens to `ramp-complete`), the event typed.
 */
export type RampWidgetEventProps = { [K in keyof RampEventMap as `on${K}`]?: (event: RampEvent<K>) => void };

/** Everything a template may set on `<ramp-widget>`: attributes, the two callback properties, listeners. */
export interface RampWidgetProps extends RampWidgetAttributes, RampWidgetEventProps {
  getSession?: RampWidget['getSession'];
  getStatus?: RampWidget['getStatus'];
}

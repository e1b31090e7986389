// A client component for React Server Components (Next.js App Router): its hooks and listeners run in the browser.
'use client';

/**
 * @sikaramp/widget/react: `<ramp-widget>` as a React component, made by @lit/react's
 * `createComponent`. Its properties are props, each event an `onRamp…` prop with the event typed,
 * and a ref reaches the element (`ref.current.open()`). Importing it defines the element too.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import type { ForwardRefExoticComponent, HTMLAttributes, RefAttributes } from 'react';
import type { RampEvent, RampEventMap } from './events.js';
import { RampWidget as RampWidgetElement } from './index.js';
import type { Prop } from './props.js';

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Camel<Tail>}` : Capitalize<S>;

/** `onRampComplete` for `ramp-complete`: the prop of each event. */
type EventProp<K extends keyof RampEventMap> = `on${Camel<K>}`;

/** One listener prop per event the element dispatches, the event typed. */
export type RampWidgetReactEventProps = { [K in keyof RampEventMap as EventProp<K>]?: (event: RampEvent<K>) => void };

// Typed against the event map: an event added there fails the type-check until it has its prop here.
const events = {
  onRampReady: 'ramp-ready',
  onRampOpen: 'ramp-open',
  onRampStatus: 'ramp-status',
  onRampComplete: 'ramp-complete',
  onRampError: 'ramp-error',
  onRampClose: 'ramp-close',
} satisfies { [K in keyof RampEventMap as EventProp<K>]-?: K };

/** The element's properties a prop sets: the reactive ones and the two callbacks (attributes such as `lang` pass through as they are). */
type ElementProp = Prop | 'getSession' | 'getStatus';

/** `<RampWidget>`'s props: the element's properties, a listener per event, and the usual HTML attributes. */
export type RampWidgetReactProps = Omit<HTMLAttributes<RampWidgetElement>, ElementProp | keyof RampWidgetReactEventProps> &
  Partial<Pick<RampWidgetElement, ElementProp>> &
  RampWidgetReactEventProps;

// @lit/react sets a prop as a property when the element class's prototype has it, as the
// property accessors are; the two callbacks are instance fields, so they go on a prototype here.
class Props extends RampWidgetElement {}
for (const callback of ['getSession', 'getStatus']) Object.defineProperty(Props.prototype, callback, { value: undefined, writable: true });

// React 18's server renderer warns "useLayoutEffect does nothing on the server" for each
// element (React 19's does not); @lit/react's layout effects set the element's properties, which
// only a browser can run, so on a server they are plain effects, which no server runs either.
const react = typeof document === 'undefined' ? { ...React, useLayoutEffect: React.useEffect } : React;

const Element = createComponent({
  react,
  tagName: 'ramp-widget',
  elementClass: Props,
  events: events as { [P in keyof typeof events]: EventName<RampEvent<(typeof events)[P]>> },
});

type Listener = (event: Event) => void;

/**
 * `<ramp-widget>` in React: `<RampWidget apiKey={key} apiBase={base} sessionUrl="/api/ramp/session"
 * onRampComplete={(e) => e.detail.transaction} ref={ref} />`, then `await ref.current.open()`.
 */
export const RampWidget: ForwardRefExoticComponent<RampWidgetReactProps & RefAttributes<RampWidgetElement>> = React.forwardRef<
  RampWidgetElement,
  RampWidgetReactProps
>((props, ref) => {
  // @lit/react leaves its listeners on the element when it unmounts, and the element still
  // dispatches then (ramp-close as it is removed, an event of a detached element): each onRamp…
  // prop is called through a listener of this component's, which stops with it.
  const latest = React.useRef(props);
  latest.current = props;
  const mounted = React.useRef(true);
  react.useLayoutEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);
  const [listeners] = React.useState(() =>
    Object.fromEntries(
      Object.keys(events).map((prop) => [prop, (event: Event) => mounted.current && (latest.current as Record<string, Listener | undefined>)[prop]?.(event)]),
    ),
  );
  const forwarded: Record<string, Listener> = {};
  for (const prop in events) if ((props as Record<string, unknown>)[prop]) forwarded[prop] = listeners[prop]!;
  return React.createElement(Element, { ...props, ...forwarded, ref });
});
RampWidget.displayName = 'RampWidget';

export type { RampWidgetElement };
export type * from './events.js';

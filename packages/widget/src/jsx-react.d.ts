/**
 * `<ramp-widget>` in React 19's JSX: its attributes, callback properties and typed listeners
 * (`onramp-complete={(e) => e.detail.transaction}`). Types only, copied as they are to
 * dist/jsx-react.d.ts by the build (tsup.config.ts); a page loads them with tsconfig's `include`
 * or a reference path, so that no page without React's types meets them.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { RampWidget, RampWidgetProps } from './index.js';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'ramp-widget': DetailedHTMLProps<HTMLAttributes<RampWidget>, RampWidget> & RampWidgetProps;
    }
  }
}

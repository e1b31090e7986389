/**
 * `<ramp-widget>` in a React app: attributes as props, typed events through a ref (which works
 * in React 18 and 19). The component thanks the customer; the shop credits them from the
 * signed webhook on its server, never from this event.
 */
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import '@sikaramp/widget'; // defines <ramp-widget>; safe to import during server-side rendering
import type { RampEventMap, RampWidget } from '@sikaramp/widget';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'ramp-widget': {
        ref?: RefObject<RampWidget | null>;
        /** Your public key: never the secret key. */
        'data-api-key': string;
        /** The widget backend your Sikaramp account gives you (the SDK's `baseUrl`). */
        'api-base': string;
        flow?: 'buy' | 'sell';
        mode?: 'iframe' | 'popup' | 'redirect';
        /** Your backend's endpoint that starts the transaction. */
        'session-url'?: string;
        'status-url'?: string;
        /** GHS to spend (buy) or USDC to sell (sell). */
        amount?: number;
        /** Buy: the Stellar address that receives the USDC. */
        destination?: string;
        children?: ReactNode;
      };
    }
  }
}

export interface BuyUsdcProps {
  publicKey: string;
  /** The widget backend, `{base_url}`. */
  apiBase: string;
  /** GHS the customer spends. */
  amount?: number;
  onComplete(transactionId: string): void;
  onError?(detail: RampEventMap['ramp-error']): void;
}

export function BuyUsdc({ publicKey, apiBase, amount, onComplete, onError }: BuyUsdcProps) {
  const widget = useRef<RampWidget>(null);

  useEffect(() => {
    const el = widget.current;
    if (!el) return;
    // The event map is typed: e.detail.transaction needs no cast.
    const complete = (e: HTMLElementEventMap['ramp-complete']) => onComplete(e.detail.transaction.id);
    const error = (e: HTMLElementEventMap['ramp-error']) => onError?.(e.detail);
    el.addEventListener('ramp-complete', complete);
    el.addEventListener('ramp-error', error);
    return () => {
      el.removeEventListener('ramp-complete', complete);
      el.removeEventListener('ramp-error', error);
    };
  }, [onComplete, onError]);

  return (
    <ramp-widget ref={widget} data-api-key={publicKey} api-base={apiBase} flow="buy" mode="popup" session-url="/api/ramp/session" amount={amount}>
      Top up with Mobile Money
    </ramp-widget>
  );
}

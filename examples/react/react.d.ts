/**
 * The part of React's types that src/BuyUsdc.tsx uses, so that this example type-checks
 * without installing React. In your app, @types/react provides all of this; nothing here is
 * needed there.
 */
declare module 'react' {
  export type ReactNode = string | number | boolean | null | undefined | JSX.Element | readonly ReactNode[];
  export interface RefObject<T> {
    current: T;
  }
  export function useRef<T>(initialValue: T | null): RefObject<T | null>;
  export function useEffect(effect: () => void | (() => void), deps?: readonly unknown[]): void;
  export namespace JSX {
    interface Element {
      readonly type: unknown;
      readonly props: unknown;
    }
    interface ElementChildrenAttribute {
      children: {};
    }
    interface IntrinsicAttributes {
      key?: string | number;
    }
    interface IntrinsicElements {}
  }
}

declare module 'react/jsx-runtime' {
  export type { JSX } from 'react';
  export function jsx(type: unknown, props: unknown, key?: unknown): import('react').JSX.Element;
  export function jsxs(type: unknown, props: unknown, key?: unknown): import('react').JSX.Element;
  export const Fragment: unique symbol;
}

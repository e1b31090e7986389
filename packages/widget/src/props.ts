/** `<ramp-widget>`'s reactive properties: their attributes, defaults and types. */

/** The iframe's permissions: what a KYC flow needs (document capture, liveness, payment) and nothing more. */
export const DEFAULT_ALLOW = 'camera; microphone; payment; clipboard-write; accelerometer; gyroscope; fullscreen';

/**
 * The attributes, each with the reactive property it sets, its default, and, for a number,
 * `Number`, which reads its text. A change re-renders. (custom-elements-manifest.config.mjs reads
 * this table, and jsx.ts types the attributes from it.)
 */
export const PROPS = {
  'data-api-key': ['apiKey', ''],
  flow: ['flow', 'buy'],
  mode: ['mode', 'iframe'],
  'session-url': ['sessionUrl'],
  'status-url': ['statusUrl'],
  'api-base': ['apiBase'],
  /** Read as a number. */
  amount: ['amount', undefined, Number],
  asset: ['asset', 'USDC'],
  destination: ['destination'],
  allow: ['allow', DEFAULT_ALLOW],
  /** Read as a number, milliseconds. */
  'poll-interval': ['pollInterval', 5000, Number],
} as const;
export type Attribute = keyof typeof PROPS;
/** A reactive property's name. */
export type Prop = (typeof PROPS)[Attribute][0];

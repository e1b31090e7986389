/** `<ramp-widget>`'s reactive properties: their attributes and defaults. */

/** The iframe's permissions: what a KYC flow needs (document capture, liveness, payment) and nothing more. */
export const DEFAULT_ALLOW = 'camera; microphone; payment; clipboard-write; accelerometer; gyroscope; fullscreen';

/**
 * The reactive properties, each with its attribute. A change re-renders; `amount` and
 * `poll-interval` are read as numbers. (custom-elements-manifest.config.mjs reads this map.)
 */
export const PROPS = {
  apiKey: 'data-api-key',
  flow: 'flow',
  mode: 'mode',
  sessionUrl: 'session-url',
  statusUrl: 'status-url',
  apiBase: 'api-base',
  amount: 'amount',
  asset: 'asset',
  destination: 'destination',
  allow: 'allow',
  pollInterval: 'poll-interval',
};
export type Prop = keyof typeof PROPS;

export const DEFAULTS: Partial<Record<Prop, unknown>> = {
  apiKey: '',
  flow: 'buy',
  mode: 'iframe',
  asset: 'USDC',
  allow: DEFAULT_ALLOW,
  pollInterval: 5000,
};

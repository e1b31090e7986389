/** @sikaramp/sdk/webhooks: verify Sikaramp webhooks. */
export {};

/** @sikaramp/sdk: typed clients for every Sikaramp surface. */
export const VERSION = '0.0.0';

/*! Bundled from @stellar/freighter-api (https://github.com/stellar/freighter), Copyright Stellar Development Foundation, Apache License 2.0 (https://www.apache.org/licenses/LICENSE-2.0). */
/**
 * What "Connect wallet" loads: the two calls the widget makes to Freighter. It is built into
 * dist/freighter.js on its own, with @stellar/freighter-api (published only as a CommonJS/UMD
 * build) bundled in as ESM. A page's bundler then meets no CommonJS: esbuild would otherwise
 * put its CommonJS helper in a chunk that every page loads with the widget, lazy chunk or not
 * (evanw/esbuild#1892).
 */
export { isConnected, requestAccess } from '@stellar/freighter-api';

/** Guards around credentials: where a secret may be used, and what kind of key was given. */
import { CredentialError } from './errors.js';

/**
 * True where a page could be running: a `window` or a `document` exists, or `importScripts`,
 * which a browser's Web Workers have (their code is shipped to every visitor too) and Node,
 * Deno, Bun and edge runtimes do not.
 */
export function isBrowserLike(): boolean {
  const g = globalThis as { window?: unknown; document?: unknown; importScripts?: unknown };
  return typeof g.window !== 'undefined' || typeof g.document !== 'undefined' || typeof g.importScripts === 'function';
}

/**
 * Refuses a secret credential in a browser-like environment, where anyone who opens the page
 * could read it, unless `dangerouslyAllowBrowser` (backend tests under jsdom or happy-dom,
 * which define `window`). `what` names the credential, never its value.
 */
export function assertServerSide(what: string, dangerouslyAllowBrowser?: boolean): void {
  if (dangerouslyAllowBrowser === true) return;
  if (isBrowserLike()) {
    throw new CredentialError(
      `${what} must stay on your server: it was given in a browser-like environment (window, document or a Web Worker's importScripts exists). ` +
        'Use a public key with <ramp-widget> in the page, and call this client from your backend. ' +
        'In backend tests under jsdom or happy-dom, pass dangerouslyAllowBrowser: true.',
    );
  }
}

/** Refuses a public key (`xx_public_…`) where a secret key is needed, without echoing the key. */
export function assertSecretKey(key: string, what: string): void {
  if (typeof key !== 'string' || key.trim() === '') throw new CredentialError(`${what} is required`);
  if (/_public_/.test(key)) throw new CredentialError(`${what} must be a secret key; a public key was given`);
}

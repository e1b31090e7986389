/**
 * HMAC-SHA256 with Web Crypto. The verifiers take the HMAC as a function: the default build
 * passes this one (Deno Deploy, Workers, Vercel Edge, browsers), the `node` / `bun` / `deno`
 * build node:crypto's synchronous one (`node-crypto.ts`), which a busy server verifies many times
 * faster with; either uses this one when the caller passes a `crypto`.
 */

/** The part of Web Crypto the webhooks need: Node's `globalThis.crypto`, `require('node:crypto').webcrypto`, or an edge runtime's. */
export interface WebCrypto {
  subtle: SubtleCrypto;
}

/** The lowercase hex HMAC-SHA256 of `content` keyed with `secret`, each as UTF-8; `crypto` is the caller's Web Crypto, if any. */
export type Hmac = (secret: string, content: string, crypto?: WebCrypto) => string | Promise<string>;

export const toHex = (bytes: ArrayLike<number>): string => Array.from(bytes, (b) => (b | 256).toString(16).slice(1)).join('');

const encoder = new TextEncoder();

/** Imported keys by secret, all made by `owner`, so that a busy endpoint imports each secret once; emptied past 16 and when another SubtleCrypto comes. */
const keys = new Map<string, Promise<CryptoKey>>();
let owner: SubtleCrypto | undefined;

export const webHmac: Hmac = async (secret, content, { subtle } = globalThis.crypto) => {
  if (owner !== subtle) keys.clear(), (owner = subtle);
  if (!keys.has(secret)) {
    if (keys.size > 15) keys.clear();
    keys.set(secret, subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']));
  }
  return toHex(new Uint8Array(await subtle.sign('HMAC', (await keys.get(secret))!, encoder.encode(content))));
};

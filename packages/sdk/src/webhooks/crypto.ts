/**
 * HMAC-SHA256 and the encodings around it. The verifiers take the HMAC as a function: the
 * default build passes Web Crypto's (Deno Deploy, Workers, Vercel Edge, browsers), the
 * `node` / `bun` / `deno` build node:crypto's synchronous one (see `node.ts`), which a busy
 * server verifies many times faster with.
 */

/** The part of Web Crypto the webhooks need: Node's `globalThis.crypto`, `require('node:crypto').webcrypto`, or an edge runtime's. */
export interface WebCrypto {
  subtle: SubtleCrypto;
}

/** HMAC-SHA256, keyed with the UTF-8 bytes of `secret`, of the parts one after the other; `crypto` is the caller's Web Crypto, if any. */
export type Hmac = (secret: string, parts: readonly (string | Uint8Array)[], crypto?: WebCrypto) => Uint8Array | Promise<Uint8Array>;

const encoder = new TextEncoder();

const toBytes = (part: string | Uint8Array): Uint8Array => (typeof part === 'string' ? encoder.encode(part) : part);

/** Imported keys per Web Crypto and secret, so that a busy endpoint imports each secret once; a few cover a rotation and several endpoints. */
const keyCache = new WeakMap<SubtleCrypto, Map<string, Promise<CryptoKey>>>();

export const webHmac: Hmac = async (secret, parts, crypto = globalThis.crypto) => {
  const { subtle } = crypto;
  let keys = keyCache.get(subtle);
  if (!keys) keyCache.set(subtle, (keys = new Map()));
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 16) keys.delete(keys.keys().next().value!);
    keys.set(secret, (key = subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])));
  }
  let content = new Uint8Array();
  for (const part of parts.map(toBytes)) {
    const joined = new Uint8Array(content.length + part.length);
    joined.set(content);
    joined.set(part, content.length);
    content = joined;
  }
  return new Uint8Array(await subtle.sign('HMAC', await key, content));
};

/** Compares two byte strings in time that depends only on their length (an XOR accumulator, as svix does). */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => (b < 16 ? '0' : '') + b.toString(16)).join('');

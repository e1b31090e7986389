/**
 * HMAC-SHA256 and the encodings around it, on Web Crypto only, so that verification runs
 * unchanged on Node, Deno, Bun and edge runtimes.
 */

/** The part of Web Crypto the webhooks need: Node's `globalThis.crypto`, `require('node:crypto').webcrypto`, or an edge runtime's. */
export interface WebCrypto {
  subtle: SubtleCrypto;
}

const encoder = new TextEncoder();

/** Imported keys per crypto provider and secret, so that a busy endpoint imports each secret once. */
const keyCache = new WeakMap<SubtleCrypto, Map<string, Promise<CryptoKey>>>();
/** Secrets kept per provider; a rotation needs two, a few more cover several endpoints. */
const KEY_CACHE_SIZE = 16;

function hmacKey(subtle: SubtleCrypto, secret: string): Promise<CryptoKey> {
  let keys = keyCache.get(subtle);
  if (!keys) keyCache.set(subtle, (keys = new Map()));
  let key = keys.get(secret);
  if (!key) {
    key = subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    if (keys.size >= KEY_CACHE_SIZE) keys.delete(keys.keys().next().value!);
    keys.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256 of `content` keyed with the UTF-8 bytes of `secret`. */
export async function hmacSha256(crypto: WebCrypto, secret: string, content: Uint8Array): Promise<Uint8Array> {
  const key = await hmacKey(crypto.subtle, secret);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, content as Uint8Array<ArrayBuffer>));
}

/** Compares two byte strings in time that depends only on their length (an XOR accumulator, as svix does). */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** UTF-8 bytes of a text, or the bytes as given. */
export const toBytes = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? encoder.encode(body) : body);

/** `<prefix><bytes>` as one byte string. */
export function concatBytes(prefix: string, bytes: Uint8Array): Uint8Array {
  const head = encoder.encode(prefix);
  const out = new Uint8Array(head.length + bytes.length);
  out.set(head);
  out.set(bytes, head.length);
  return out;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX[byte];
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Decodes a signature written as hex or base64 (standard or URL-safe), saying which; undefined when it is neither. */
export function decodeSignature(text: string): { bytes: Uint8Array; encoding: 'hex' | 'base64' } | undefined {
  if (/^(?:[0-9a-fA-F]{2})+$/.test(text)) {
    const out = new Uint8Array(text.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
    return { bytes: out, encoding: 'hex' };
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return { bytes: Uint8Array.from(binary, (c) => c.charCodeAt(0)), encoding: 'base64' };
  } catch {
    return undefined;
  }
}

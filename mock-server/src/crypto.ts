/**
 * Hashing, signing and tokens for the mock, on Web Crypto so that the same handlers run in
 * Node and in a browser's service worker. Keys and passwords are stored only as hashes.
 */
const encoder = new TextEncoder();

/** Two hex digits per byte value: ids are made on every create, so no per-byte formatting. */
const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lower-case hex of the bytes (ids, hashes, signatures). */
export function toHex(buf: ArrayBuffer | Uint8Array): string {
  let out = '';
  for (const b of buf instanceof Uint8Array ? buf : new Uint8Array(buf)) out += HEX_BYTES[b];
  return out;
}

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

const fromBase64Url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

// node:crypto where it exists (Node, Bun, Deno); a browser worker has only Web Crypto.
type NodeCrypto = typeof import('node:crypto');
let nodeCrypto: Promise<NodeCrypto | undefined> | undefined;
const loadNodeCrypto = () =>
  (nodeCrypto ??= import('node:crypto').catch(() => undefined));

/** SHA-256 of the UTF-8 text, hex: node:crypto's synchronous hash where it exists (API keys are hashed on every call), else Web Crypto. */
export async function sha256Hex(text: string): Promise<string> {
  const node = await loadNodeCrypto();
  if (node) return node.createHash('sha256').update(text, 'utf8').digest('hex');
  return toHex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

async function hmacKey(secret: string) {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

export async function hmacSha256(secret: string, content: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(content)));
}

export async function hmacSha256Hex(secret: string, content: string): Promise<string> {
  return toHex(await hmacSha256(secret, content));
}

/** Compares two strings without an early exit, so timing reveals nothing of where they differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ (y[i % (y.length || 1)] ?? 0);
  return diff === 0;
}

// Passwords: scrypt where node:crypto exists, PBKDF2 (Web Crypto) in a browser worker.
export async function hashPassword(password: string, salt: Uint8Array): Promise<string> {
  const node = await loadNodeCrypto();
  if (node) {
    const hash = await new Promise<Buffer>((resolve, reject) =>
      node.scrypt(password, salt, 32, { N: 16384, r: 8, p: 1 }, (err, key) => (err ? reject(err) : resolve(key))),
    );
    return `scrypt$16384$8$1$${toHex(salt)}$${toHex(hash)}`;
  }
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: new Uint8Array(salt), iterations: 210_000 }, key, 256);
  return `pbkdf2$210000$${toHex(salt)}$${toHex(bits)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  const saltHex = parts[0] === 'scrypt' ? parts[4] : parts[2];
  const salt = Uint8Array.from((saltHex ?? '').match(/../g) ?? [], (h) => parseInt(h, 16));
  return timingSafeEqual(await hashPassword(password, salt), stored);
}

/** HS256 JSON Web Token. `exp` and `iat` are in seconds, as RFC 7519 says. */
export async function signJwt(payload: Record<string, unknown>, secret: string): Promise<string> {
  const head = toBase64Url(encoder.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
  const body = toBase64Url(encoder.encode(JSON.stringify(payload)));
  const sig = toBase64Url(await hmacSha256(secret, `${head}.${body}`));
  return `${head}.${body}.${sig}`;
}

/** Returns the payload of a token signed with `secret` and not expired at `nowMs`, else undefined. */
export async function verifyJwt(
  token: string,
  secret: string,
  nowMs: number,
): Promise<Record<string, unknown> | undefined> {
  const [head, body, sig] = token.split('.');
  if (!head || !body || !sig) return undefined;
  const expected = toBase64Url(await hmacSha256(secret, `${head}.${body}`));
  if (!timingSafeEqual(sig, expected)) return undefined;
  try {
    const header = JSON.parse(new TextDecoder().decode(fromBase64Url(head))) as { alg?: string };
    if (header.alg !== 'HS256') return undefined;
    const payload = JSON.parse(new TextDecoder().decode(fromBase64Url(body))) as Record<string, unknown>;
    if (typeof payload.exp !== 'number' || payload.exp * 1000 <= nowMs) return undefined;
    return payload;
  } catch {
    return undefined;
  }
}

/**
 * Bytes as the Buffer `Keypair.fromRawEd25519Seed` declares: it copies them into stellar-base's
 * own Buffer, so plain bytes serve, also in a browser, which has no global Buffer.
 */
export const rawSeed = (bytes: Uint8Array) => bytes as Buffer;

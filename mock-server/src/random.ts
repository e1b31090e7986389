/**
 * Ids and codes. With a seed they are reproducible (sfc32), so that a merchant's snapshot
 * tests stay stable; without one they come from the platform's CSPRNG. Secrets never take a
 * seed (context.ts keeps a second, unseeded generator for them): 32 bits are guessed offline.
 */
import { toHex } from './crypto.js';

export interface Random {
  bytes(n: number): Uint8Array;
  hex(bytes: number): string;
  uuid(): string;
  /** A string of `n` decimal digits, e.g. a one-time password. */
  digits(n: number): string;
  /** An integer in [0, max). */
  int(max: number): number;
  /** Starts the stream over from `seed`, as a new generator with it would (`reset({ seed })`). */
  reseed(seed: number): void;
}

export function createRandom(seed?: number): Random {
  let next = seed === undefined ? undefined : sfc32(seed);
  const bytes = (n: number): Uint8Array => {
    const out = new Uint8Array(n);
    if (!next) return crypto.getRandomValues(out);
    for (let i = 0; i < n; i++) out[i] = next() & 0xff;
    return out;
  };
  const hex = (n: number) => toHex(bytes(n));
  const int = (max: number) => {
    const [a = 0, b = 0, c = 0, d = 0] = bytes(4);
    return (((a << 24) | (b << 16) | (c << 8) | d) >>> 0) % max;
  };
  return {
    bytes,
    hex,
    int,
    reseed(seed) {
      next = sfc32(seed);
    },
    uuid() {
      const b = bytes(16);
      b[6] = (b[6]! & 0x0f) | 0x40;
      b[8] = (b[8]! & 0x3f) | 0x80;
      const h = toHex(b);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
    digits(n) {
      let s = '';
      for (let i = 0; i < n; i++) s += String(int(10));
      return s;
    },
  };
}

function sfc32(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const step = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 15; i++) step();
  return step;
}

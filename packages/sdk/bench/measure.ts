/** A small timing loop: ops per second of a function, best of several rounds, alternating contenders. */

export interface Contender {
  name: string;
  run: () => unknown;
}

export interface Result {
  name: string;
  /** Operations per second (median of the rounds). */
  opsPerSecond: number;
}

export interface CompareOptions {
  /** Length of one round per contender, ms. */
  ms?: number;
  rounds?: number;
  /** Operations in flight at once (1: each awaited before the next starts). */
  concurrency?: number;
}

async function timeFor(run: () => unknown, ms: number, concurrency: number): Promise<number> {
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    if (concurrency === 1) {
      for (let i = 0; i < 50; i++) {
        const r = run();
        if (r instanceof Promise) await r;
      }
      ops += 50;
    } else {
      await Promise.all(Array.from({ length: concurrency }, () => run()));
      ops += concurrency;
    }
    elapsed = performance.now() - start;
  }
  return (ops / elapsed) * 1000;
}

/** Runs each contender for `ms` per round, `rounds` times in turn (so that machine noise hits all alike), and keeps the median. */
export async function compare(contenders: Contender[], { ms = 1_000, rounds = 5, concurrency = 1 }: CompareOptions = {}): Promise<Result[]> {
  for (const c of contenders) await timeFor(c.run, Math.min(300, ms), concurrency);
  const samples = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const c of contenders) samples.get(c.name)!.push(await timeFor(c.run, ms, concurrency));
  }
  return contenders.map((c) => {
    const sorted = samples.get(c.name)!.sort((a, b) => a - b);
    return { name: c.name, opsPerSecond: sorted[Math.floor(sorted.length / 2)]! };
  });
}

export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

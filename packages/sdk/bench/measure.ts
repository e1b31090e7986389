/**
 * A small timing loop: ops per second of a function, and the CPU time this process spent per
 * operation (all its threads, so Web Crypto's work counts too). Contenders alternate round by
 * round and the median is kept. On a shared machine the CPU time is the steadier figure: other
 * processes slow the wall clock down, not the work an operation costs.
 */

export interface Contender {
  name: string;
  run: () => unknown;
}

export interface Result {
  name: string;
  /** Operations per second (median of the rounds). */
  opsPerSecond: number;
  /** CPU time of this process per operation, µs (median of the rounds). */
  cpuMicros: number;
}

export interface CompareOptions {
  /** Length of one round per contender, ms. */
  ms?: number;
  rounds?: number;
  /** Operations in flight at once (1: each awaited before the next starts). */
  concurrency?: number;
}

interface Sample {
  opsPerSecond: number;
  cpuMicros: number;
}

async function timeFor(run: () => unknown, ms: number, concurrency: number): Promise<Sample> {
  let ops = 0;
  const cpu = process.cpuUsage();
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
  const used = process.cpuUsage(cpu);
  return { opsPerSecond: (ops / elapsed) * 1000, cpuMicros: (used.user + used.system) / ops };
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Runs each contender for `ms` per round, `rounds` times in turn (so that machine noise hits all alike), and keeps the medians. */
export async function compare(contenders: Contender[], { ms = 1_000, rounds = 5, concurrency = 1 }: CompareOptions = {}): Promise<Result[]> {
  for (const c of contenders) await timeFor(c.run, Math.min(300, ms), concurrency);
  const samples = new Map<string, Sample[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const c of contenders) samples.get(c.name)!.push(await timeFor(c.run, ms, concurrency));
  }
  return contenders.map((c) => {
    const all = samples.get(c.name)!;
    return { name: c.name, opsPerSecond: median(all.map((x) => x.opsPerSecond)), cpuMicros: median(all.map((x) => x.cpuMicros)) };
  });
}

export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

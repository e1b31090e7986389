/**
 * The mock's only source of time. Nothing else in `src/` reads `Date.now()` or calls
 * `setTimeout`, so that tests move time with `advance()` instead of sleeping.
 *
 * Both kinds keep one queue of scheduled tasks. A real clock follows the wall clock (plus
 * whatever `advance()` added) and wakes itself with a timer; a manual clock stands still
 * until `advance()` moves it, running due tasks in time order as it passes them.
 */
export interface Clock {
  readonly kind: 'real' | 'manual';
  /** Current time, in milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `task` once the clock reaches `at` (ms). A time in the past runs it at once. Returns a cancel function. */
  schedule(at: number, task: () => unknown): () => void;
  /** Moves time forward by `seconds`, running every task that falls due, in time order; resolves once they settle. */
  advance(seconds: number): Promise<void>;
  /** Resolves once every task that has started has settled. */
  idle(): Promise<void>;
  /** Cancels every pending task and stops the timer (real clocks). */
  stop(): void;
}

interface Task {
  at: number;
  seq: number;
  run: () => unknown;
}

export interface ClockOptions {
  /** `manual` stands still until advanced; `real` follows the wall clock. Default `real`. */
  kind?: 'real' | 'manual';
  /** Start time (ms or ISO 8601). Default: the wall clock at creation. A real clock runs on from it. */
  start?: number | string | Date;
}

export function createClock(options: ClockOptions = {}): Clock {
  const kind = options.kind ?? 'real';
  const start = options.start === undefined ? Date.now() : new Date(options.start).getTime();
  if (!Number.isFinite(start)) throw new TypeError(`clock start is not a valid time: ${String(options.start)}`);
  let manualNow = start;
  let offset = options.start === undefined ? 0 : start - Date.now();
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const queue: Task[] = [];
  const running = new Set<Promise<unknown>>();

  const now = () => (kind === 'manual' ? manualNow : Date.now() + offset);

  const launch = (task: Task): Promise<unknown> => {
    const p = Promise.resolve()
      .then(task.run)
      .catch((error: unknown) => console.error('[sikaramp-mock] scheduled task failed:', error))
      .finally(() => running.delete(p));
    running.add(p);
    return p;
  };

  const takeDue = (until: number): Task | undefined => {
    queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
    if (queue[0] && queue[0].at <= until) return queue.shift();
    return undefined;
  };

  const arm = () => {
    if (kind !== 'real') return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    for (let task = takeDue(now()); task; task = takeDue(now())) void launch(task);
    const next = queue.reduce<number | undefined>((min, t) => (min === undefined || t.at < min ? t.at : min), undefined);
    if (next !== undefined) {
      // Timers beyond ~24.8 days overflow; re-arming on wake keeps long schedules right.
      timer = setTimeout(arm, Math.min(Math.max(next - now(), 0), 2 ** 31 - 1));
      timer.unref?.();
    }
  };

  return {
    kind,
    now,
    schedule(at, run) {
      const task: Task = { at, seq: seq++, run };
      if (at <= now()) {
        void launch(task);
        return () => {};
      }
      queue.push(task);
      arm();
      return () => {
        const i = queue.indexOf(task);
        if (i >= 0) queue.splice(i, 1);
        arm();
      };
    },
    async advance(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('advance() takes a number of seconds >= 0');
      if (kind === 'real') {
        offset += seconds * 1000;
        arm();
        await this.idle();
        return;
      }
      const target = manualNow + seconds * 1000;
      for (let task = takeDue(target); task; task = takeDue(target)) {
        manualNow = Math.max(manualNow, task.at);
        await launch(task);
      }
      manualNow = target;
      await this.idle();
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    stop() {
      queue.length = 0;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** ISO 8601 UTC with nanosecond precision, as the service writes `created_at`. */
export function isoNano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

// Every record and answer carries times, most of them of the same millisecond: the last one is kept.
let lastMs = NaN;
let lastIso = '';

/** ISO 8601 UTC with millisecond precision. */
export function iso(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

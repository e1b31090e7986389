import { describe, expect, it } from 'vitest';
import { createClock } from '../src/clock.js';

describe('manual clock', () => {
  it('stands still until advanced, then runs due tasks in time order', async () => {
    const clock = createClock({ kind: 'manual', start: '2026-01-01T00:00:00Z' });
    const ran: string[] = [];
    clock.schedule(clock.now() + 30_000, () => ran.push('30s'));
    clock.schedule(clock.now() + 10_000, () => ran.push('10s'));
    clock.schedule(clock.now() + 10_000, () => ran.push('10s, second'));
    await clock.advance(5);
    expect(ran).toEqual([]);
    await clock.advance(25);
    expect(ran).toEqual(['10s', '10s, second', '30s']);
    expect(new Date(clock.now()).toISOString()).toBe('2026-01-01T00:00:30.000Z');
  });

  it('runs a task scheduled by a task when its time falls inside the same advance', async () => {
    const clock = createClock({ kind: 'manual', start: 0 });
    const times: number[] = [];
    const retry = () => {
      times.push(clock.now());
      if (times.length < 3) clock.schedule(clock.now() + 10_000, retry);
    };
    clock.schedule(10_000, retry);
    await clock.advance(60);
    expect(times).toEqual([10_000, 20_000, 30_000]);
  });

  it('does not run a cancelled task', async () => {
    const clock = createClock({ kind: 'manual', start: 0 });
    let ran = false;
    const cancel = clock.schedule(1_000, () => (ran = true));
    cancel();
    await clock.advance(2);
    expect(ran).toBe(false);
  });

  it('refuses to go backwards', async () => {
    const clock = createClock({ kind: 'manual', start: 0 });
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
  });
});

describe('real clock', () => {
  it('runs due tasks when advanced ahead of the wall clock', async () => {
    const clock = createClock({ kind: 'real' });
    let ran = false;
    clock.schedule(clock.now() + 3_600_000, () => (ran = true));
    await clock.advance(3_600);
    expect(ran).toBe(true);
    clock.stop();
  });
});

describe('clock start', () => {
  it('starts a real clock at a named time and lets it run on from there', async () => {
    const clock = createClock({ kind: 'real', start: '2030-06-01T12:00:00Z' });
    const at = clock.now();
    expect(at - Date.parse('2030-06-01T12:00:00Z')).toBeGreaterThanOrEqual(0);
    expect(at - Date.parse('2030-06-01T12:00:00Z')).toBeLessThan(1_000);
    clock.stop();
  });
});

// The deadline wheel: every deadline fires once, within two ticks after it is due, never before;
// a removed one never fires; the wheel runs only while deadlines are armed, and recovers when its
// interval was lost (a test swapping timers).
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineWheel, TICK_MS } from '../../../src/jsonrpc/deadlines.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('DeadlineWheel', () => {
  it('fires each deadline once, not before it is due and within two ticks of it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ delay: fc.integer({ min: 0, max: 500 }), cancel: fc.boolean() }), { maxLength: 30 }), async (specs) => {
        const wheel = new DeadlineWheel();
        const start = Date.now();
        const fired: { i: number; at: number }[] = [];
        const deadlines = specs.map((s, i) => ({ at: start + s.delay, fire: () => fired.push({ i, at: Date.now() }) }));
        deadlines.forEach((d) => {
          wheel.add(d);
        });
        specs.forEach((s, i) => {
          if (s.cancel) wheel.remove(deadlines[i]!);
        });
        await vi.advanceTimersByTimeAsync(500 + 2 * TICK_MS);
        const expected = specs.map((s, i) => (s.cancel ? -1 : i)).filter((i) => i >= 0);
        expect(fired.map((f) => f.i).sort((a, b) => a - b)).toEqual(expected);
        for (const f of fired) {
          expect(f.at).toBeGreaterThanOrEqual(deadlines[f.i]!.at);
          expect(f.at).toBeLessThanOrEqual(deadlines[f.i]!.at + 2 * TICK_MS);
        }
        expect(wheel.size).toBe(0);
      }),
      { numRuns: 50 },
    );
  });

  it('runs no timer once a tick has found nothing armed', () => {
    const wheel = new DeadlineWheel();
    const d = { at: Date.now() + 100, fire: () => {} };
    wheel.add(d);
    expect(vi.getTimerCount()).toBe(1);
    wheel.remove(d);
    vi.advanceTimersByTime(TICK_MS);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps one interval for requests made one at a time, not one per request', () => {
    const wheel = new DeadlineWheel();
    const made = vi.spyOn(globalThis, 'setInterval');
    for (let i = 0; i < 100; i++) {
      const d = { at: Date.now() + 60_000, fire: () => {} };
      wheel.add(d);
      wheel.remove(d);
    }
    expect(made).toHaveBeenCalledTimes(1);
    made.mockRestore();
  });

  it('starts anew on the clock a test installs after an interval was made on the real one', async () => {
    vi.useRealTimers();
    const wheel = new DeadlineWheel();
    const first = { at: Date.now() + 60_000, fire: () => {} };
    wheel.add(first);
    wheel.remove(first); // the real interval runs on until its next tick
    vi.useFakeTimers();
    const fired: string[] = [];
    wheel.add({ at: Date.now() + 50, fire: () => fired.push('due') });
    await vi.advanceTimersByTimeAsync(50 + 2 * TICK_MS);
    expect(fired).toEqual(['due']);
  });

  it('never fires early by the real clock when armed from its own clock, which lags up to a tick', async () => {
    for (let lag = 0; lag < TICK_MS; lag++) {
      const wheel = new DeadlineWheel();
      const keep = { at: Date.now() + 60_000, fire: () => {} };
      wheel.add(keep); // the interval runs: now() is the last tick's time
      await vi.advanceTimersByTimeAsync(TICK_MS + lag);
      const armedAt = Date.now();
      let firedAt = -1;
      wheel.add({ at: wheel.now() + 50, fire: () => (firedAt = Date.now()) });
      await vi.advanceTimersByTimeAsync(50 + 2 * TICK_MS);
      expect(firedAt).toBeGreaterThanOrEqual(armedAt + 50);
      wheel.remove(keep);
    }
  });

  it('recovers when its interval is lost, and still fires what was due', async () => {
    const wheel = new DeadlineWheel();
    const fired: string[] = [];
    wheel.add({ at: Date.now() + 50, fire: () => fired.push('old') });
    vi.clearAllTimers();
    await vi.advanceTimersByTimeAsync(2000);
    expect(fired).toEqual([]);
    wheel.add({ at: Date.now() + 50, fire: () => fired.push('new') });
    await vi.advanceTimersByTimeAsync(100);
    expect(fired).toEqual(['old', 'new']);
  });
});

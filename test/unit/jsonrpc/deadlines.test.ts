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
        deadlines.forEach((d) => wheel.add(d));
        specs.forEach((s, i) => s.cancel && wheel.remove(deadlines[i]!));
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

  it('runs no timer while nothing is armed', () => {
    const wheel = new DeadlineWheel();
    const d = { at: Date.now() + 100, fire: () => {} };
    wheel.add(d);
    expect(vi.getTimerCount()).toBe(1);
    wheel.remove(d);
    expect(vi.getTimerCount()).toBe(0);
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

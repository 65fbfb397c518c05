// The engine's share of the event loop (fairness.ts): each slice earns the loop a break as long as
// itself before any run's next slice, small slices' debts add up, and no break outgrows its bound.
import { beforeEach, describe, expect, it } from 'vitest';
import { engineWait, resetFairness, sliceEnded } from '../../../src/codemode/fairness.js';

describe('the engine’s share of the loop', () => {
  beforeEach(resetFairness);

  it('a slice of d ms is followed by a break of d ms for every run', () => {
    expect(engineWait(1000)).toBe(0);
    sliceEnded(90, 1000);
    expect(engineWait(1000)).toBe(90);
    expect(engineWait(1050)).toBe(40);
    expect(engineWait(1090)).toBe(0);
  });

  it('small slices run at once, but their debts add up to a break', () => {
    let now = 0;
    for (let i = 0; i < 3; i++) {
      expect(engineWait(now)).toBe(0);
      now += 0.4;
      sliceEnded(0.4, now);
    }
    // 3 slices of 0.4 ms back to back: 1.2 ms of computing, none of it paid back yet.
    expect(engineWait(now)).toBeCloseTo(1.2);
    // Idle time pays it back.
    expect(engineWait(now + 0.3)).toBe(0);
  });

  it('a debt is at most the last slice or 100 ms, whichever is longer', () => {
    for (let i = 0; i < 50; i++) sliceEnded(50, 0);
    expect(engineWait(0)).toBe(100);
    sliceEnded(300, 0);
    expect(engineWait(0)).toBe(300);
  });
});

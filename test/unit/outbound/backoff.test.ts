import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Backoff } from '../../../src/outbound/backoff.js';

const policy = { initialDelayMs: 100, maxDelayMs: 1000, maxFailures: 5, stableMs: 10_000 };

describe('Backoff', () => {
  it('doubles from the initial delay up to the cap, then gives up at the crash-loop limit', () => {
    const b = new Backoff(policy, () => 0.5);
    expect([b.failed(), b.failed(), b.failed(), b.failed(), b.failed()]).toEqual([100, 200, 400, 800, 1000]);
    expect(b.failed()).toBeUndefined();
  });

  it('keeps counting a server that dies soon after it comes up (a crash loop)', () => {
    let t = 0;
    const b = new Backoff(
      policy,
      () => 0.5,
      () => t,
    );
    for (let i = 0; i < 5; i++) {
      expect(b.failed()).toBeDefined();
      b.up();
      t += 1000; // up for 1 s, then dies again
    }
    expect(b.failed()).toBeUndefined();
  });

  it('forgets past failures once a connection stayed up long enough', () => {
    let t = 0;
    const b = new Backoff(
      policy,
      () => 0.5,
      () => t,
    );
    for (let i = 0; i < 4; i++) b.failed();
    b.up();
    t += 10_000;
    expect(b.failed()).toBe(100);
  });

  it('always waits within ±20% of the capped exponential delay (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (n, r) => {
        const b = new Backoff(policy, () => r);
        let d: number | undefined;
        for (let i = 0; i < n; i++) d = b.failed();
        const base = Math.min(1000, 100 * 2 ** (n - 1));
        expect(d!).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
        expect(d!).toBeLessThanOrEqual(Math.ceil(base * 1.2));
      }),
    );
  });
});

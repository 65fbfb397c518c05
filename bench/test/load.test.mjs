// The closed loop's measuring window: a slow path's window stays open until a round of calls has
// completed, so a short (quick-run) window never yields a throughput of zero.

import { describe, expect, it } from 'vitest';
import { runLoad } from '../lib/load.mjs';

/** A call that takes a few timer turns: slower than the 1 ms window below. */
const slowCall = () => new Promise((resolve) => setTimeout(() => resolve({ ok: true }), 5));

describe('runLoad', () => {
  it('keeps the window open until minCalls calls completed', async () => {
    const r = await runLoad({ call: slowCall, check: (x) => x.ok, concurrency: 4, warmupMs: 0, durationMs: 1, minCalls: 8 });
    expect(r.calls).toBeGreaterThanOrEqual(8);
    expect(r.totalCalls).toBeGreaterThanOrEqual(r.calls);
    expect(r.callsPerSec).toBeCloseTo(r.calls / (r.windowMs / 1000), 6);
    expect(r.latenciesNs.length).toBeLessThanOrEqual(r.calls);
  });

  it('fails with the first wrong answer', async () => {
    let n = 0;
    const call = async () => ({ n: n++ });
    await expect(runLoad({ call, check: (x) => x.n < 3, concurrency: 2, warmupMs: 0, durationMs: 50 })).rejects.toThrow(/unexpected result/);
  });
});

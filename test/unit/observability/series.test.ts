import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Series, quantile } from '../../../src/observability/dashboard/series.js';
import { RecentAudit } from '../../../src/observability/recent-audit.js';
import { LATENCY_BOUNDS, Latency, ObservedStats } from '../../../src/observability/stats.js';

/** The bucket bounds [lower, upper] around a value. */
function bucketOf(v: number): [number, number] {
  const i = LATENCY_BOUNDS.findIndex((b) => v <= b);
  if (i === -1) return [LATENCY_BOUNDS.at(-1)!, LATENCY_BOUNDS.at(-1)!];
  return [i === 0 ? 0 : LATENCY_BOUNDS[i - 1]!, LATENCY_BOUNDS[i]!];
}

describe('quantile', () => {
  it('falls inside the bucket that holds the true quantile of the values', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 400, noNaN: true }), { minLength: 1, maxLength: 300 }), fc.constantFrom(0.5, 0.9, 0.99), (values, q) => {
        const l = new Latency();
        for (const v of values) l.observe(v);
        const sorted = [...values].sort((a, b) => a - b);
        const truth = sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
        const [lower, upper] = bucketOf(truth);
        const got = quantile(l.buckets, q)!;
        expect(got).toBeGreaterThanOrEqual(lower);
        expect(got).toBeLessThanOrEqual(upper);
      }),
    );
  });

  it('is null without values', () => {
    expect(quantile(new Float64Array(LATENCY_BOUNDS.length + 1), 0.5)).toBeNull();
  });
});

describe('Series', () => {
  it('turns counter differences into calls per second and quantiles per interval', () => {
    let now = 1_000_000;
    const stats = new ObservedStats(new Set());
    let servers = ['a', 'b'];
    const series = new Series(
      stats,
      () => servers,
      2000,
      3,
      () => now,
    );
    series.sample();
    const a = stats.serverCall('a', 'tools/call');
    for (let i = 0; i < 10; i++) {
      a.inFlight++;
      a.ended('ok', 0.004);
    }
    now += 2000;
    series.sample();
    expect(series.of('a')).toEqual([{ t: now, rate: 5, p50: expect.any(Number), p99: expect.any(Number) }]);
    expect(series.of('a')[0]!.p50).toBeGreaterThan(2.5);
    expect(series.of('a')[0]!.p50).toBeLessThanOrEqual(5);
    expect(series.of('b')).toEqual([{ t: now, rate: 0, p50: null, p99: null }]);
    for (let i = 0; i < 5; i++) (now += 2000), series.sample();
    expect(series.of('a')).toHaveLength(3);
    servers = ['b'];
    series.sample();
    expect(series.of('a')).toEqual([]);
  });
});

describe('RecentAudit', () => {
  it('keeps the newest distinct entries, newest first, within its bounds', () => {
    const recent = new RecentAudit(3, 5, () => 42);
    for (let i = 0; i < 10; i++) recent.add({ server: 's', kind: 'tool', item: `t${i % 7}`, change: 'stripped', why: 'w' });
    const items = recent.latest().map((e) => e.item);
    expect(items).toHaveLength(3);
    expect(items[0]).toBe('t2');
    expect(recent.latest()[0]!.time).toBe(42);
  });
});

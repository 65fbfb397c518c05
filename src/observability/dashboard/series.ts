// The dashboard's chart data: every few seconds, per server, calls per second and p50/p99
// latency over the last interval, from the differences of the plain counters (stats.ts). A fixed
// number of points is kept per server; reading it never touches the per-message path.

import { LATENCY_BOUNDS, type ObservedStats } from '../stats.js';

export interface Point {
  /** End of the interval, ms since the epoch. */
  t: number;
  /** Calls answered per second over the interval. */
  rate: number;
  /** Latency quantiles over the interval, in ms (null when no call ended in it). */
  p50: number | null;
  p99: number | null;
}

/**
 * The q-quantile of values counted in buckets (not cumulative; the last one is +Inf), in the
 * unit of LATENCY_BOUNDS, by linear interpolation inside the bucket where it falls (as
 * Prometheus' histogram_quantile does). In the +Inf bucket: the highest finite bound.
 */
export function quantile(buckets: ArrayLike<number>, q: number): number | null {
  let total = 0;
  for (let i = 0; i < buckets.length; i++) total += buckets[i]!;
  if (total <= 0) return null;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < buckets.length; i++) {
    const n = buckets[i]!;
    if (n > 0 && below + n >= rank) {
      if (i >= LATENCY_BOUNDS.length) return LATENCY_BOUNDS[LATENCY_BOUNDS.length - 1]!;
      const lower = i === 0 ? 0 : LATENCY_BOUNDS[i - 1]!;
      const upper = LATENCY_BOUNDS[i]!;
      return lower + (upper - lower) * Math.min(1, Math.max(0, (rank - below) / n));
    }
    below += n;
  }
  return LATENCY_BOUNDS[LATENCY_BOUNDS.length - 1]!;
}

interface Last {
  t: number;
  calls: number;
  buckets: Float64Array;
}

export class Series {
  private readonly points = new Map<string, Point[]>();
  private readonly last = new Map<string, Last>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly stats: ObservedStats,
    private readonly servers: () => Iterable<string>,
    readonly intervalMs = 2000,
    private readonly keep = 150,
    private readonly now: () => number = Date.now,
  ) {}

  /** Samples every intervalMs from now on (the timer does not keep the process alive). */
  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Takes one point per server: what ended since the previous sample. */
  sample(): void {
    const t = this.now();
    const current = new Set<string>();
    for (const server of this.servers()) {
      current.add(server);
      const totals = this.stats.serverTotals(server);
      const before = this.last.get(server);
      this.last.set(server, { t, calls: totals.calls, buckets: totals.buckets });
      if (before === undefined || t <= before.t) continue;
      const delta = totals.buckets.map((n, i) => n - before.buckets[i]!);
      const p50 = quantile(delta, 0.5);
      const p99 = quantile(delta, 0.99);
      let list = this.points.get(server);
      if (list === undefined) this.points.set(server, (list = []));
      list.push({ t, rate: ((totals.calls - before.calls) * 1000) / (t - before.t), p50: p50 === null ? null : p50 * 1000, p99: p99 === null ? null : p99 * 1000 });
      if (list.length > this.keep) list.shift();
    }
    // A server removed by a reload leaves the chart.
    for (const server of this.last.keys()) if (!current.has(server)) this.last.delete(server), this.points.delete(server);
  }

  of(server: string): readonly Point[] {
    return this.points.get(server) ?? [];
  }
}

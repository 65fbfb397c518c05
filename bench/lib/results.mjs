// Figures by run: scenario -> row -> figure -> { [run]: value }. Every value remembers the run it
// was measured in, so that a ratio is only ever formed between two figures of the same run (a
// pair measured minutes apart on a shared machine says more about the machine than the code).

import { median } from './load.mjs';

/** Median, min and max of the finite values; n how many there were. */
export function summary(values) {
  const v = values.filter(Number.isFinite);
  if (v.length === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
  return { median: median(v), min: Math.min(...v), max: Math.max(...v), n: v.length };
}

export class Results {
  constructor() {
    this.data = {};
    this.failures = [];
  }

  /** Records one figure of one run (run: 1, 2, …). A second value for the same run replaces the first. */
  add(scenario, row, figure, value, run) {
    if (!Number.isInteger(run) || run < 1) throw new Error(`Results.add: run must be a positive integer, got ${run}`);
    const s = (this.data[scenario] ??= {});
    const r = (s[row] ??= {});
    (r[figure] ??= {})[run] = value;
  }

  /** run -> value for one figure. */
  byRun(scenario, row, figure) {
    const rec = this.data[scenario]?.[row]?.[figure] ?? {};
    return new Map(Object.entries(rec).map(([run, v]) => [Number(run), v]));
  }

  /** The values of every run, in run order. */
  values(scenario, row, figure) {
    return [...this.byRun(scenario, row, figure).entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  }

  median(scenario, row, figure) {
    return summary(this.values(scenario, row, figure)).median;
  }

  stats(scenario, row, figure) {
    return summary(this.values(scenario, row, figure));
  }

  /**
   * fn(a, b) of two figures, run by run, over the runs where both are finite; then the median and
   * range of those per-run results. a and b are [scenario, row, figure].
   */
  paired(a, b, fn) {
    const A = this.byRun(...a);
    const B = this.byRun(...b);
    const perRun = [];
    for (const [run, va] of [...A.entries()].sort((x, y) => x[0] - y[0])) {
      const vb = B.get(run);
      if (!Number.isFinite(va) || !Number.isFinite(vb)) continue;
      const v = fn(va, vb);
      if (Number.isFinite(v)) perRun.push({ run, value: v });
    }
    return { ...summary(perRun.map((p) => p.value)), perRun };
  }

  /** a ÷ b per run. */
  ratio(a, b) {
    return this.paired(a, b, (x, y) => (y === 0 ? NaN : x / y));
  }

  /** a − b per run. */
  difference(a, b) {
    return this.paired(a, b, (x, y) => x - y);
  }

  fail(scenario, error, run) {
    this.failures.push({ scenario, run, error: String(error?.stack ?? error) });
  }

  toJSON() {
    return { data: this.data, failures: this.failures };
  }
}

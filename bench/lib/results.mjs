// Figures over several runs: scenario -> row -> figure -> [value per run].

import { median } from './load.mjs';

export class Results {
  constructor() {
    this.data = {};
    this.failures = [];
  }

  add(scenario, row, figure, value) {
    const s = (this.data[scenario] ??= {});
    const r = (s[row] ??= {});
    (r[figure] ??= []).push(value);
  }

  values(scenario, row, figure) {
    return this.data[scenario]?.[row]?.[figure] ?? [];
  }

  median(scenario, row, figure) {
    return median(this.values(scenario, row, figure));
  }

  /** Spread of the runs around their median: (max - min) / median, or NaN with fewer than 2. */
  spread(scenario, row, figure) {
    const v = this.values(scenario, row, figure).filter(Number.isFinite);
    if (v.length < 2) return NaN;
    return (Math.max(...v) - Math.min(...v)) / median(v);
  }

  fail(scenario, error) {
    this.failures.push({ scenario, error: String(error?.stack ?? error) });
  }

  toJSON() {
    return { data: this.data, failures: this.failures };
  }
}

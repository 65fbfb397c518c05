// Ratios are formed inside a run and judged on the median of per-run ratios; the slot order of
// a point is rotated per run and mirrored, so every path sees the same average position.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combine, slotOrder } from '../lib/paired.mjs';
import { median } from '../lib/load.mjs';
import { Results } from '../lib/results.mjs';
import { alternate } from '../lib/startup.mjs';
import { evaluateTargets } from '../lib/targets.mjs';

const C32 = '100B c=32|calls/s';

function withThroughput(direct, gateway) {
  const R = new Results();
  direct.forEach((v, i) => void R.add('call', 'direct', C32, v, i + 1));
  gateway.forEach((v, i) => void R.add('call', 'sb-stdio', C32, v, i + 1));
  return R;
}

describe('paired ratios', () => {
  it('takes the median of per-run ratios, not the ratio of per-path medians', () => {
    // The busy-machine case of the finding: paired 0.40, 1.50, 0.34; per-path medians 0.98.
    const R = withThroughput([100, 20, 150], [40, 30, 51]);
    expect(R.median('call', 'sb-stdio', C32) / R.median('call', 'direct', C32)).toBeCloseTo(0.4, 5); // 40 / 100
    const r = R.ratio(['call', 'sb-stdio', C32], ['call', 'direct', C32]);
    expect(r.perRun.map((p) => p.value)).toEqual([0.4, 1.5, 0.34]);
    expect(r.median).toBeCloseTo(0.4, 10);
    expect([r.min, r.max, r.n]).toEqual([0.34, 1.5, 3]);
  });

  it('judges a target on the median only: one good run does not pass it', () => {
    const R = withThroughput([100, 20, 150], [40, 30, 51]);
    const t = evaluateTargets(R).find((x) => x.name.startsWith('stdio→stdio throughput'));
    expect(t.ok).toBe(false);
    expect(t.measured).toBe('0.400× (0.340×–1.50×, 3 runs)');
    const pass = evaluateTargets(withThroughput([100, 100, 100], [70, 65, 10])).find((x) => x.name.startsWith('stdio→stdio throughput'));
    expect(pass.ok).toBe(true); // median 0.65 although one run is at 0.1
  });

  it('never pairs values of different runs', () => {
    const R = new Results();
    R.add('call', 'direct', C32, 100, 1);
    R.add('call', 'direct', C32, 100, 3);
    R.add('call', 'sb-stdio', C32, 10, 2); // its run 2 has no direct partner
    R.add('call', 'sb-stdio', C32, 50, 3);
    const r = R.ratio(['call', 'sb-stdio', C32], ['call', 'direct', C32]);
    expect(r.perRun).toEqual([{ run: 3, value: 0.5 }]);
    expect(evaluateTargets(new Results()).every((t) => t.ok === undefined)).toBe(true);
  });

  it('per-run ratio statistics hold for any runs (property)', () => {
    const run = fc.record({ a: fc.option(fc.double({ min: 1, max: 1e6, noNaN: true }), { nil: undefined }), b: fc.option(fc.double({ min: 1, max: 1e6, noNaN: true }), { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(run, { maxLength: 9 }), (runs) => {
        const R = new Results();
        runs.forEach(({ a, b }, i) => {
          if (a !== undefined) R.add('s', 'A', 'f', a, i + 1);
          if (b !== undefined) R.add('s', 'B', 'f', b, i + 1);
        });
        const expected = runs.filter(({ a, b }) => a !== undefined && b !== undefined).map(({ a, b }) => a / b);
        const r = R.ratio(['s', 'A', 'f'], ['s', 'B', 'f']);
        expect(r.n).toBe(expected.length);
        if (expected.length === 0) {
          expect(r.median).toBeNaN();
          return;
        }
        expect(r.median).toBe(median(expected));
        expect(r.min).toBeLessThanOrEqual(r.median);
        expect(r.median).toBeLessThanOrEqual(r.max);
      }),
    );
  });

  it('refuses a figure without its run', () => {
    expect(() => new Results().add('s', 'r', 'f', 1)).toThrow(/run/);
  });
});

describe('slot order of a point', () => {
  const pathsArb = fc.uniqueArray(fc.constantFrom('direct', 'sb-stdio', 'sb-http', 'mcp-proxy', 'supergateway'), { minLength: 1 });

  it('gives every path two mirrored slices, rotated by one path per run (property)', () => {
    fc.assert(
      fc.property(pathsArb, fc.integer({ min: 1, max: 50 }), (paths, run) => {
        const slots = slotOrder(paths, run);
        const n = paths.length;
        expect(slots).toHaveLength(2 * n);
        for (let i = 0; i < n; i++) {
          expect(slots[i].slice).toBe(0);
          expect(slots[2 * n - 1 - i]).toEqual({ path: slots[i].path, slice: 1 });
        }
        expect(new Set(slots.slice(0, n).map((s) => s.path))).toEqual(new Set(paths));
        expect(slots[0].path).toBe(paths[(run - 1) % n]);
      }),
    );
  });

  it('without mirror (quick runs) gives one slice per path, still rotated', () => {
    expect(slotOrder(['a', 'b', 'c'], 2, false)).toEqual([
      { path: 'b', slice: 0 },
      { path: 'c', slice: 0 },
      { path: 'a', slice: 0 },
    ]);
  });

  it('puts each path first exactly once over as many runs as there are paths', () => {
    const paths = ['direct', 'sb-stdio', 'sb-http', 'mcp-proxy', 'supergateway'];
    const firsts = paths.map((_, i) => slotOrder(paths, i + 1)[0].path);
    expect(new Set(firsts)).toEqual(new Set(paths));
  });

  it('alternates the two sides of a start-up pair, and the first side per run', () => {
    const order = (run) => Array.from({ length: 4 }, (_, i) => alternate(i, run, 'a', 'b')[0]);
    expect(order(1)).toEqual(['b', 'a', 'b', 'a']);
    expect(order(2)).toEqual(['a', 'b', 'a', 'b']);
  });
});

describe('combine', () => {
  it('adds the two slices of a path: calls over time, CPU over every call', () => {
    const slice = (calls, totalCalls, midNs, srvNs, lat, load) => ({ calls, totalCalls, durationMs: 500, latenciesNs: lat, midNs, srvNs, cliUs: totalCalls, machine: { load1: load } });
    const f = combine([slice(1000, 1200, 12e6, 6e6, [3000, 1000], 2), slice(500, 800, 8e6, 4e6, [2000], 4)]);
    expect(f['calls/s']).toBe(1500); // 1,500 calls in 1 s
    expect(f['cpu µs/call']).toBe(10); // 20 ms over 2,000 calls
    expect(f['server cpu µs/call']).toBe(5);
    expect(f['client cpu µs/call']).toBe(1);
    expect(f['p50 µs']).toBe(2);
    expect(f.load).toBe(3);
  });
});

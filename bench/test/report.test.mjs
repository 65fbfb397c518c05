// RESULTS.md as a reader sees it: each target with its per-run median, range and load, and the
// tables' ratio cells formed inside runs.

import { describe, expect, it } from 'vitest';
import { consoleSummary, renderReport } from '../lib/report.mjs';
import { Results } from '../lib/results.mjs';

const meta = {
  quick: false,
  command: 'npm run bench',
  date: '2026-11-22 12:00:00 UTC',
  cpu: 'cpu',
  cores: 2,
  memGiB: '24',
  os: 'Linux',
  loadBefore: '1 / 1 / 1',
  loadAfter: '2 / 2 / 2',
  loadDuring: '1.00–3.00',
  burners: 0,
  node: 'v20',
  gateway: '0.1.0',
  peerVersions: 'x',
  runs: 3,
  listRuns: 3,
  memoryRuns: 3,
  warmupMs: 500,
  rewarmMs: 150,
  durationMs: 3000,
  wallSeconds: 1,
  paths: ['direct', 'sb-stdio'],
};

function sample() {
  const R = new Results();
  const runs = [
    { d: 100, g: 40, dl: 20, gl: 70, cpu: 18, load: 1.2 },
    { d: 20, g: 30, dl: 25, gl: 60, cpu: 21, load: 3.4 },
    { d: 150, g: 51, dl: 30, gl: 100, cpu: 19, load: 2.0 },
  ];
  runs.forEach((r, i) => {
    const run = i + 1;
    R.add('call', 'direct', '100B c=32|calls/s', r.d, run);
    R.add('call', 'sb-stdio', '100B c=32|calls/s', r.g, run);
    R.add('call', 'direct', '100B c=1|p50 µs', r.dl, run);
    R.add('call', 'sb-stdio', '100B c=1|p50 µs', r.gl, run);
    R.add('call', 'sb-stdio', '100B c=32|cpu µs/call', r.cpu, run);
    for (const p of ['direct', 'sb-stdio']) for (const k of ['100B c=32', '100B c=1']) R.add('call', p, `${k}|load`, r.load, run);
  });
  return R;
}

describe('renderReport', () => {
  const md = renderReport(sample(), meta);

  it('judges the throughput target on the median of per-run ratios, with range and load', () => {
    const line = md.split('\n').find((l) => l.startsWith('| stdio→stdio throughput'));
    expect(line).toContain('0.400× (0.340×–1.50×, 3 runs)');
    expect(line).toContain('load 1.2–3.4');
    expect(line).toContain('❌');
  });

  it('shows CPU per call with the load it was measured at', () => {
    const line = md.split('\n').find((l) => l.startsWith('| gateway CPU per call, stdio→stdio'));
    expect(line).toContain('19.00 µs (18.00 µs–21.00 µs, 3 runs)');
    expect(line).toContain('load 1.2–3.4');
  });

  it('never prints a missed goal as the goal itself', () => {
    const R = new Results();
    [38.65, 46.04, 45.01].forEach((v, i) => void R.add('call', 'sb-http', '100B c=32|cpu µs/call', v, i + 1));
    const line = renderReport(R, meta)
      .split('\n')
      .find((l) => l.startsWith('| gateway CPU per call, HTTP→stdio'));
    expect(line).toContain('45.01 µs');
    expect(line).toContain('❌');
  });

  it('forms the added p50 within each run', () => {
    const line = md.split('\n').find((l) => l.startsWith('| added p50 latency'));
    expect(line).toContain('+50.00 µs (+35.00 µs–+70.00 µs, 3 runs)'); // 50, 35, 70 per run
  });

  it('names the command, the load and marks unmeasured targets as such', () => {
    expect(md).toContain('Written by `npm run bench`');
    expect(md).toContain('1.00–3.00 while figures were taken');
    expect(md.split('\n').find((l) => l.startsWith('| 50 servers ready'))).toContain('not measured');
  });

  it('prints every paired ratio on the console', () => {
    const text = consoleSummary(sample(), ['direct', 'sb-stdio']);
    expect(text).toContain('sb-stdio ÷ direct, calls/s: 0.40× (0.34×–1.50×, 3 runs)');
    expect(text).toContain('MISS  stdio→stdio throughput');
  });

  it("compares a remote server's path with the direct connection to that server, not with stdio's", () => {
    const R = new Results();
    [
      [100, 50, 400, 100],
      [80, 40, 300, 30],
    ].forEach(([dr, sr, d, sb], i) => {
      R.add('call', 'direct-remote', '100B c=32|calls/s', dr, i + 1);
      R.add('call', 'sb-remote', '100B c=32|calls/s', sr, i + 1);
      R.add('call', 'direct', '100B c=32|calls/s', d, i + 1);
      R.add('call', 'sb-stdio', '100B c=32|calls/s', sb, i + 1);
    });
    const text = consoleSummary(R, ['direct', 'sb-stdio', 'direct-remote', 'sb-remote']);
    expect(text).toContain('sb-remote ÷ direct-remote, calls/s: 0.50× (0.50×–0.50×, 2 runs)');
    expect(text).not.toContain('sb-remote ÷ direct,');
    expect(text).not.toContain('direct-remote ÷ direct,');
    const row = renderReport(R, { ...meta, paths: ['direct', 'sb-stdio', 'direct-remote', 'sb-remote'] })
      .split('\n')
      .find((l) => l.startsWith('| Switchboard stdio→HTTP (remote server) |'));
    expect(row).toContain('0.50× (0.50×–0.50×)');
  });

  it('shows the floor beside the targets, paired in each run, only when it was measured', () => {
    expect(md).not.toContain('The floor');
    const R = sample();
    [
      [200, 100, 6, 9],
      [100, 45, 7, 10],
      [210, 99, 5, 8],
    ].forEach(([d, f, fcpu, sbcpu], i) => {
      R.add('call', 'direct', '100B c=32|calls/s', d, i + 11);
      R.add('call', 'floor-stdio', '100B c=32|calls/s', f, i + 11);
      R.add('call', 'floor-stdio', '100B c=32|cpu µs/call', fcpu, i + 11);
      R.add('call', 'sb-stdio', '100B c=32|cpu µs/call', sbcpu, i + 11);
    });
    const text = renderReport(R, { ...meta, paths: ['direct', 'sb-stdio', 'floor-stdio'] });
    expect(text).toContain('### The floor: a bare Node proxy in the same windows');
    const row = (start) => text.split('\n').find((l) => l.startsWith(start));
    // Per run 0.5, 0.45, 0.471 (the runs of sample() have no floor: they are not paired).
    expect(row('| floor stdio→stdio throughput')).toContain('0.471× (0.450×–0.500×, 3 runs)');
    expect(row('| Switchboard CPU per call ÷ the floor')).toContain('1.50× (1.43×–1.60×, 3 runs)');
  });

  it('shows the byte relays beside the floor, each paired with direct in its own runs', () => {
    const R = sample();
    [
      [200, 100, 136],
      [100, 52, 70],
      [210, 99, 140],
    ].forEach(([d, node, c], i) => {
      R.add('call', 'direct', '100B c=32|calls/s', d, i + 11);
      R.add('call', 'relay-node', '100B c=32|calls/s', node, i + 11);
      R.add('call', 'relay-c', '100B c=32|calls/s', c, i + 11);
    });
    const text = renderReport(R, { ...meta, paths: ['direct', 'sb-stdio', 'relay-node', 'relay-c'] });
    const row = (start) => text.split('\n').find((l) => l.startsWith(start));
    // Per run 0.5, 0.52, 0.471 and 0.68, 0.70, 0.667.
    expect(row('| Node byte relay')).toContain('0.500× (0.471×–0.520×, 3 runs)');
    expect(row('| C byte relay')).toContain('0.680× (0.667×–0.700×, 3 runs)');
  });
});

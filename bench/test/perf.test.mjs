// The perf profile's summary: parsing `perf script` output, naming each frame's kind of code, and
// telling self time (the leaf) from inclusive time (anywhere on the stack).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { categorize, parsePerfScript, summarizeSamples } from '../lib/perf.mjs';

const text = readFileSync(new URL('./fixtures/perf-script.txt', import.meta.url), 'utf8');

describe('perf script summary', () => {
  const samples = parsePerfScript(text);

  it('reads every sample with its thread, period and stack, leaf first', () => {
    expect(samples.map((s) => [s.comm, s.tid, s.period, s.frames.length])).toEqual([
      ['node', 20232, 1e6, 5],
      ['node', 20232, 1e6, 7],
      ['node', 20232, 2e6, 2],
      ['V8 DefaultWorke', 20240, 1e6, 2],
      ['node', 20232, 1e6, 1],
    ]);
    expect(samples[1].frames[0]).toEqual({ sym: 'vfs_write', dso: '[kernel.kallsyms]' });
    expect(samples[0].frames[3].sym).toBe('JS:*encodeLine file:///work/sb/dist/jsonrpc/ndjson.js:92:10');
  });

  it('names the kind of code of a frame', () => {
    const kinds = samples.map((s) => categorize(s.frames[0]));
    expect(kinds).toEqual(['V8 runtime (C++)', 'kernel', 'JS: Switchboard (dist/)', 'V8 garbage collector', 'JS: dependency yaml']);
    expect(categorize({ sym: 'JS:*writeSync node:fs:898:19', dso: '/tmp/perf-1.map' })).toBe('JS: Node.js internals');
  });

  it('counts a landmark anywhere on the stack, self time at the leaf only', () => {
    const sum = summarizeSamples(samples, { pid: 20232 });
    const share = (rows, name) => rows.find((r) => r.name === name)?.pct;
    expect(sum.total).toBe(6e6);
    expect(share(sum.landmarks, 'write/writev system calls')).toBeCloseTo(100 / 6);
    expect(share(sum.landmarks, 'JSON.stringify')).toBeCloseTo(100 / 6);
    expect(share(sum.landmarks, 'garbage collection')).toBeCloseTo(100 / 6);
    expect(share(sum.categories, 'JS: Switchboard (dist/)')).toBeCloseTo(200 / 6); // encodeLine is not a leaf
    expect(share(sum.threads, 'main thread (JS, event loop)')).toBeCloseTo(500 / 6);
  });
});

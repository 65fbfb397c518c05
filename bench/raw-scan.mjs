#!/usr/bin/env node
// What the raw pass-through's scan (jsonrpc/raw.ts) costs per byte, in-process: answers of 100 B
// (the bench's echo), 1 KiB, 64 KiB and 1 MiB (a text result as a model tool writes it, the bench's "x" blob, and structured
// records), cut in 64 KiB reads as a pipe delivers them, scanned by this build and, with
// --baseline, by another build's, interleaved in the same process so both see the same machine.
// Prints ns/byte (median of rounds) and, with a baseline, this ÷ baseline. Needs `npm run build`.
//   node bench/raw-scan.mjs [--baseline /work/main/dist] [--rounds R] [--bytes-per-round N]

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { baseline: { type: 'string' }, rounds: { type: 'string', default: '15' }, 'bytes-per-round': { type: 'string', default: '33554432' } } });
const rounds = Number(values.rounds);
const perRound = Number(values['bytes-per-round']);

const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../dist');
const load = async (dist) => (await import(pathToFileURL(path.join(dist, 'jsonrpc/raw.js')).href)).scanResponse;
const builds = { this: await load(here) };
if (values.baseline) builds.baseline = await load(path.resolve(values.baseline));

const PROSE = 'The gateway passes this answer on as it came. "Quoted" words, a path C:\\tmp\\x, tabs\tand é ü 漢字 😀.\n';
function prose(n) {
  let s = '';
  while (s.length < n) s += PROSE;
  return s.slice(0, n);
}
function records(n) {
  const out = [];
  let size = 0;
  for (let i = 0; size < n; i++) {
    const r = { id: i, name: `item-${i}`, score: i * 1.25, ok: i % 2 === 0, tags: ['alpha', 'beta'], note: null };
    size += JSON.stringify(r).length + 1;
    out.push(r);
  }
  return out;
}
const answer = (result) => JSON.stringify({ jsonrpc: '2.0', id: 17, result });
const shapes = {
  text: (n) => answer({ content: [{ type: 'text', text: prose(n) }] }),
  blob: (n) => answer({ content: [{ type: 'text', text: 'x'.repeat(n) }] }),
  records: (n) => answer({ content: [{ type: 'text', text: 'see structuredContent' }], structuredContent: { items: records(n) } }),
};
const READ = 64 * 1024;
const reads = (bytes) => {
  const out = [];
  for (let at = 0; at < bytes.length; at += READ) out.push(bytes.subarray(at, Math.min(bytes.length, at + READ)));
  return out;
};

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`raw scan, CPU ns per byte (median of ${rounds} rounds of ~${perRound >> 20} MiB each)${values.baseline ? `; baseline ${values.baseline}` : ''}`);
console.log(['shape', 'size', ...Object.keys(builds), ...(builds.baseline ? ['this ÷ baseline', 'ns per answer (this − baseline)'] : [])].join('\t'));
for (const [shape, make] of Object.entries(shapes)) {
  for (const size of [100, 1024, 64 * 1024, 1024 * 1024]) {
    const chunks = reads(Buffer.from(make(size), 'utf8'));
    const bytes = chunks.reduce((n, c) => n + c.length, 0);
    const reps = Math.max(1, Math.round(perRound / bytes));
    const times = Object.fromEntries(Object.keys(builds).map((k) => [k, []]));
    for (const scan of Object.values(builds)) if (typeof scan(chunks, 512) !== 'object') throw new Error(`${shape} ${size}: not scanned`);
    for (let r = 0; r < rounds; r++) {
      // Alternate which build goes first, so neither always runs on a warmer cache.
      const order = r % 2 === 0 ? Object.keys(builds) : Object.keys(builds).reverse();
      for (const k of order) {
        const scan = builds[k];
        // CPU time, not wall time: other jobs share the machine.
        const t0 = process.cpuUsage();
        for (let i = 0; i < reps; i++) scan(chunks, 512);
        const used = process.cpuUsage(t0);
        times[k].push(((used.user + used.system) * 1000) / reps / bytes);
      }
    }
    const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
    const label = size >= 1 << 20 ? `${size >> 20} MiB` : size >= 1024 ? `${size >> 10} KiB` : `${size} B`;
    const delta = builds.baseline ? [(m.this / m.baseline).toFixed(2), ((m.this - m.baseline) * bytes).toFixed(0)] : [];
    console.log([shape, label, ...Object.values(m).map((v) => v.toFixed(3)), ...delta].join('\t'));
  }
}

#!/usr/bin/env node
// Concurrency 1, seen from the kernel: how long the process in the middle holds each message
// (read returned → write entered), for Switchboard and the bare proxies beside it, in rounds
// that alternate the paths. Needs perf and the right to record syscall tracepoints (root here).
//
//   node bench/hops.mjs [--paths sb-stdio,floor-stdio,relay-node] [--rounds 3] [--duration 1500]
//                       [--baseline /old/dist/main.js]  (adds base-stdio)
//
// Prints a table (median over rounds of each round's p50, µs; range in parentheses). See
// bench/NOTES.md "Concurrency 1, from the kernel's side".

import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { canTraceSyscalls, hopsOf, parseSyscalls, syscallScript, traceSyscalls } from './lib/hops.mjs';
import { median } from './lib/load.mjs';
import { OUT_DIR, PATHS, open, removeConfigs, setBaseline } from './lib/paths.mjs';
import { ensureBuilt, loadavgText } from './lib/prereq.mjs';
import { installCleanupHooks, stopAll } from './lib/procs.mjs';
import { pointCall, POINTS } from './lib/settings.mjs';

const { values: args } = parseArgs({
  options: {
    paths: { type: 'string', default: 'sb-stdio,floor-stdio,relay-node' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '1500' },
    warmup: { type: 'string', default: '3000' },
    baseline: { type: 'string' },
  },
});
const paths = args.paths.split(',').filter(Boolean);
if (args.baseline) {
  setBaseline(args.baseline);
  if (!paths.includes('base-stdio')) paths.push('base-stdio');
}
for (const p of paths) {
  if (PATHS[p]?.transport !== 'stdio' || PATHS[p].isDirect || p === 'sb-remote' || p === 'sb-remote-sse') {
    console.error(`--paths: ${p} is not a stdio→stdio path with a process in the middle`);
    process.exit(2);
  }
}
const can = canTraceSyscalls();
if (!can.ok) {
  console.log(`bench/hops.mjs: perf cannot record syscall tracepoints here (${can.reason}); nothing measured.`);
  process.exit(0);
}
installCleanupHooks();
ensureBuilt(console.error);
mkdirSync(OUT_DIR, { recursive: true });

const point = POINTS.find((p) => p.key === '100B c=1');
const rounds = Number(args.rounds);
const figures = new Map(paths.map((p) => [p, { request: [], response: [], serverLeg: [], clientLeg: [], hops: [] }]));
const p50 = (xs) => median(xs);
const loadBefore = loadavgText();

for (let round = 0; round < rounds; round++) {
  const order = [...paths.slice(round % paths.length), ...paths.slice(0, round % paths.length)];
  for (const path of order) {
    const handle = await open(path);
    try {
      const { params, check } = pointCall(point, handle.tool(point.tool));
      const call = async () => {
        const r = await handle.session.requestRaw('tools/call', params);
        if (!check(r)) throw new Error(`${path}: unexpected answer`);
      };
      for (const end = Date.now() + Number(args.warmup); Date.now() < end; ) await call();
      const file = join(OUT_DIR, `hops-${process.pid}.data`);
      const trace = traceSyscalls(handle.pid, file);
      for (const end = Date.now() + Number(args.duration); Date.now() < end; ) await call();
      await trace.stop();
      const h = hopsOf(parseSyscalls(syscallScript(file)));
      rmSync(file, { force: true });
      const f = figures.get(path);
      for (const k of ['request', 'response', 'serverLeg', 'clientLeg']) f[k].push(p50(h[k]));
      f.hops.push(p50(h.request) + p50(h.response));
      console.error(`round ${round + 1} ${path}: request ${p50(h.request)} µs, response ${p50(h.response)} µs, legs ${p50(h.serverLeg)} / ${p50(h.clientLeg)} µs (${h.request.length} calls)`);
    } finally {
      await handle.close();
    }
  }
}

const cell = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
console.log(
  `\nConcurrency 1, 100 B echo: p50 µs per hop of the process in the middle (read returned → write entered), median over ${rounds} rounds (range). Load ${loadBefore} before, ${loadavgText()} after.\n`,
);
console.log('| path | request hop | response hop | both hops | server leg | client leg |');
console.log('|---|---|---|---|---|---|');
for (const [path, f] of figures) console.log(`| ${PATHS[path].label} | ${cell(f.request)} | ${cell(f.response)} | ${cell(f.hops)} | ${cell(f.serverLeg)} | ${cell(f.clientLeg)} |`);
removeConfigs();
await stopAll();
process.exit(0);

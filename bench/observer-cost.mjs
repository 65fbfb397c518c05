#!/usr/bin/env node
// What counting costs per call, in-process: the observer's two hooks (a client's request and the
// call it forwards) with metrics on and off, around a handler that answers at once. A figure in
// nanoseconds that the end-to-end --metrics-cost pair cannot resolve on a loaded 2-core machine;
// compare it with the gateway's CPU per call (bench/RESULTS.md). Needs `npm run build`.
//   node bench/observer-cost.mjs [--calls N] [--rounds R]

import { parseArgs } from 'node:util';
import { Observer } from '../dist/observability/observer.js';
import { ObservedStats } from '../dist/observability/stats.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '200000' }, rounds: { type: 'string', default: '7' } } });
const calls = Number(values.calls);
const rounds = Number(values.rounds);

const session = { id: 's', protocolVersion: '2025-11-25', view: {} };
const answer = { jsonrpc: '2.0', id: 1, result: { content: [] } };
const reply = { jsonrpc: '2.0', id: 1, result: { content: [] } };
const params = { name: 'echo', arguments: { text: 'x' } };
const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo__echo', arguments: { text: 'x' } } };

function observer(on) {
  const o = new Observer(() => ({}));
  if (on) o.stats = new ObservedStats(new Set(['tools/call']));
  return o;
}

/** ns per call: a client request whose handler forwards one call. */
async function measure(o) {
  const send = () => Promise.resolve(answer);
  const handle = async () => {
    await o.call('echo', 'tools/call', params, send);
    return reply;
  };
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await o.request(session, request, handle);
  return Number(process.hrtime.bigint() - t0) / calls;
}

const off = observer(false);
const on = observer(true);
// Warm-up: both paths optimized before anything is timed.
await measure(off);
await measure(on);
const diffs = [];
for (let r = 0; r < rounds; r++) {
  // Alternated, so drift in machine load falls on both sides.
  const a = await measure(off);
  const b = await measure(on);
  diffs.push({ off: a, on: b, cost: b - a });
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const cost = median(diffs.map((d) => d.cost));
console.log(`observer hooks per call (client request + forwarded call), median of ${rounds} alternated rounds of ${calls}:`);
console.log(`  metrics off ${median(diffs.map((d) => d.off)).toFixed(0)} ns, on ${median(diffs.map((d) => d.on)).toFixed(0)} ns: counting costs ${cost.toFixed(0)} ns per call`);
console.log(`  (range of the difference: ${Math.min(...diffs.map((d) => d.cost)).toFixed(0)}–${Math.max(...diffs.map((d) => d.cost)).toFixed(0)} ns)`);

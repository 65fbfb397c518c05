// `node bench/run.mjs --profile`: the gateway under load (stdio→stdio or HTTP→stdio, concurrency
// 32, 100 B), profiled with Linux perf where perf can sample (on-CPU time only), else with V8's
// --cpu-prof. Every summary names the tool that produced it and what that tool counts.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runLoad } from './load.mjs';
import { OUT_DIR, PATHS, ROOT_DIR, open } from './paths.mjs';
import { detectPerf, perfRecord, perfSamples, summarizeSamples } from './perf.mjs';
import { cpuNs } from './procs.mjs';
import { fmt } from './report.mjs';
import { POINTS, pointCall } from './settings.mjs';
import { load1 } from './sysload.mjs';

const pct = (rows, unit) => rows.map((f) => `${f.pct.toFixed(1).padStart(5)}%  ${unit(f.amount).padStart(8)}  ${f.name}`);

export async function profileGateway({ path = 'sb-stdio', point = POINTS[1], durationMs = 3000, warmupMs = 3000, top = 30, profiler = 'auto' } = {}) {
  const concurrency = point.concurrency;
  const dir = join(OUT_DIR, 'prof');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const perf = detectPerf();
  const usePerf = profiler === 'perf' || (profiler === 'auto' && perf.mode !== undefined);
  if (usePerf && perf.mode === undefined) throw new Error(`--profiler perf: ${perf.reason}`);
  const title = `${PATHS[path]?.label ?? path}, ${point.label}`;
  const text = usePerf
    ? await withPerf({ path, point, durationMs, warmupMs, concurrency, top, perf, dir, title })
    : await withCpuProf({ path, point, durationMs, warmupMs, concurrency, top, dir, title, why: profiler === 'cpu-prof' ? 'asked for (--profiler cpu-prof)' : perf.reason });
  writeFileSync(join(dir, 'summary.txt'), text);
  return text;
}

function load(handle, point, warmupMs, durationMs) {
  const { params, check } = pointCall(point, handle.tool(point.tool));
  return runLoad({ call: () => handle.session.requestRaw('tools/call', params), check, concurrency: point.concurrency, warmupMs, durationMs });
}

async function withPerf({ path, point, durationMs, warmupMs, concurrency, top, perf, dir, title }) {
  const handle = await open(path, { connections: concurrency, extraNodeArgs: ['--perf-basic-prof', '--interpreted-frames-native-stack'] });
  const file = join(dir, 'perf.data');
  let result;
  let cpu;
  try {
    // perf attaches after the warm-up and records exactly the measured window.
    const recording = new Promise((resolve, reject) => {
      setTimeout(() => {
        const c0 = cpuNs(handle.pid);
        perfRecord({ pid: handle.pid, event: perf.event, file, durationMs }).then(() => {
          cpu = cpuNs(handle.pid) - c0;
          resolve();
        }, reject);
      }, warmupMs);
    });
    [result] = await Promise.all([load(handle, point, warmupMs, durationMs + 300), recording]);
  } finally {
    await handle.close();
  }
  const samples = perfSamples(file);
  rmSync(`/tmp/perf-${handle.pid}.map`, { force: true });
  const sum = summarizeSamples(samples, { top, pid: handle.pid });
  const unit = perf.event === 'cpu-clock' ? (v) => `${(v / 1e6).toFixed(0)} ms` : (v) => `${(v / 1e6).toFixed(0)} Mcyc`;
  return [
    `Profiler: Linux perf, event ${perf.event} (${perf.mode === 'hardware' ? 'PMU counter' : 'software timer: no PMU on this machine'}) — samples only while a thread of the gateway is on a CPU; off-CPU waiting is not counted. Why perf: ${perf.reason}.`,
    `${title}: ${fmt(result.callsPerSec)} calls/s while recorded (load average ${load1().toFixed(2)}).`,
    `Recording: ${relative(ROOT_DIR, file)} (perf report -i ${relative(ROOT_DIR, file)}; JIT names need /tmp/perf-PID.map, removed after summarizing).`,
    `${sum.samples} samples = ${unit(sum.total)} of on-CPU time sampled${perf.event === 'cpu-clock' && cpu ? `, of ${(cpu / 1e6).toFixed(0)} ms CPU the gateway used in the window (schedstat): the timer event under-samples in this VM, evenly as far as we can tell` : ''}. Percentages are of the samples, all threads.`,
    '',
    'Inclusive (samples with this anywhere on the stack):',
    ...pct(sum.landmarks, unit),
    '',
    'Self, by kind of code:',
    ...pct(sum.categories, unit),
    '',
    'Self, by thread:',
    ...pct(sum.threads, unit),
    '',
    `Self, by function (top ${top}):`,
    ...pct(sum.symbols, unit),
    '',
  ].join('\n');
}

async function withCpuProf({ path, point, durationMs, warmupMs, concurrency, top, dir, title, why }) {
  const handle = await open(path, { connections: concurrency, extraNodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  let result;
  try {
    result = await load(handle, point, warmupMs, durationMs);
  } finally {
    // A polite end (stdin closed, or SIGTERM for HTTP) lets node write the profile as it exits.
    if (path === 'sb-stdio') handle.proc.child.stdin.end();
    else {
      await handle.session.close();
      process.kill(handle.pid, 'SIGTERM');
    }
    await Promise.race([handle.proc.exitPromise, new Promise((r) => setTimeout(r, 20_000))]);
    await handle.proc.stop();
    await handle.agent?.close().catch(() => {});
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
  const summary = summarize(JSON.parse(readFileSync(join(dir, file), 'utf8')), top);
  const ms = (v) => `${v.toFixed(0)} ms`;
  return [
    `Profiler: V8 --cpu-prof (perf not used: ${why}) — samples the main thread by wall clock: time a thread spends off-CPU right after a blocking call (a pipe write on a busy machine) is charged to that call, so system-call costs read high. Start-up is included.`,
    `${title}: ${fmt(result.callsPerSec)} calls/s under --cpu-prof (profiling slows it down; load average ${load1().toFixed(2)}).`,
    `Profile: ${relative(ROOT_DIR, join(dir, file))} (open it in Chrome DevTools → Performance, or VS Code).`,
    `Busy ${summary.busyMs.toFixed(0)} ms of ${summary.totalMs.toFixed(0)} ms profiled (the rest idle); percentages are of busy time.`,
    '',
    `Self time by function (top ${top}):`,
    ...summary.functions.map((f) => `${f.pct.toFixed(1).padStart(5)}%  ${ms(f.ms).padStart(8)}  ${f.name}`),
    '',
    'Self time by origin:',
    ...summary.origins.map((f) => `${f.pct.toFixed(1).padStart(5)}%  ${ms(f.ms).padStart(8)}  ${f.name}`),
    '',
  ].join('\n');
}

/** Self time per function and per origin (our code, node internals, each dependency, GC, idle). */
export function summarize(profile, top) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
  let total = 0;
  const fn = new Map();
  const origin = new Map();
  for (const [id, us] of self) {
    total += us;
    const cf = byId.get(id).callFrame;
    const where = shortUrl(cf.url);
    const name = `${cf.functionName || '(anonymous)'}${where ? ` ${where}:${cf.lineNumber + 1}` : ''}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    const o = originOf(cf);
    origin.set(o, (origin.get(o) ?? 0) + us);
  }
  // Percentages of busy time: (idle) is the gateway waiting for input, not work.
  const busy = total - (fn.get('(idle)') ?? 0);
  const rank = (map, n) =>
    [...map.entries()]
      .filter(([name]) => name !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, ms: us / 1000, pct: (100 * us) / busy }));
  return { functions: rank(fn, top), origins: rank(origin, 20), totalMs: total / 1000, busyMs: busy / 1000 };
}

function shortUrl(url) {
  if (!url) return '';
  const i = url.indexOf('/node_modules/');
  if (i !== -1) return url.slice(i + 1);
  const d = url.indexOf('/dist/');
  if (d !== -1) return url.slice(d + 1);
  return url.replace(/^file:\/\//, '');
}

function originOf(cf) {
  const url = cf.url ?? '';
  if (!url) return cf.functionName.startsWith('(') ? cf.functionName : '(native / V8 builtins)';
  const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return `dependency ${m[1]}`;
  if (url.includes('/dist/')) return 'Switchboard (dist/)';
  if (url.startsWith('node:')) return 'Node.js internals';
  return url;
}

// Linux perf for the gateway's profile: samples only while a thread is on a CPU (V8's --cpu-prof
// sampler also counts the time a thread waits off-CPU after a blocking call, e.g. a pipe write
// on an oversubscribed VM). JIT frames are named through node --perf-basic-prof's /tmp/perf-PID.map.

import { spawn, spawnSync } from 'node:child_process';

/**
 * What perf can do here: 'hardware' (PMU counters: `perf stat -e instructions` counts), 'software'
 * (no PMU, as in most VMs: the cpu-clock timer event still samples on-CPU time only), or
 * undefined with the reason (no perf binary, perf_event_open refused).
 */
export function detectPerf() {
  const probe = (event) => spawnSync('perf', ['stat', '-x,', '-e', event, 'true'], { encoding: 'utf8' });
  const hw = probe('instructions');
  if (hw.error) return { mode: undefined, reason: `no perf binary (${hw.error.code}); Debian: apt-get install linux-perf` };
  const counted = (r) => r.status === 0 && /^[\d.]+,/m.test(r.stderr);
  if (counted(hw)) return { mode: 'hardware', event: 'cycles', reason: '`perf stat -e instructions true` counts' };
  const sw = probe('cpu-clock');
  if (counted(sw)) return { mode: 'software', event: 'cpu-clock', reason: 'no hardware counters (`perf stat -e instructions true`: not supported); the cpu-clock software event works' };
  return { mode: undefined, reason: `perf cannot count here: ${(sw.stderr || hw.stderr).trim().split('\n').slice(-2).join(' ')}` };
}

/** Records `pid` (every thread, with call graphs) for durationMs; resolves when perf has written `file`. */
export function perfRecord({ pid, event, file, durationMs, frequency = 1999 }) {
  return new Promise((resolve, reject) => {
    const args = ['record', '-e', event, '-F', String(frequency), '-g', '-p', String(pid), '-o', file, '--', 'sleep', String(durationMs / 1000)];
    const child = spawn('perf', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`perf record exited ${code}: ${err.trim().slice(-500)}`))));
  });
}

/** `perf script` of a recording: every sample's thread name, period and stack (leaf first). */
export function perfSamples(file) {
  const r = spawnSync('perf', ['script', '-i', file, '-F', 'comm,tid,period,ip,sym,dso'], { encoding: 'utf8', maxBuffer: 512 * 2 ** 20 });
  if (r.status !== 0) throw new Error(`perf script failed: ${r.stderr.trim().slice(-500)}`);
  return parsePerfScript(r.stdout);
}

/** Parses `perf script -F comm,tid,period,ip,sym,dso` output. Exported for tests. */
export function parsePerfScript(text) {
  const samples = [];
  let cur;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      cur = undefined;
      continue;
    }
    if (!/^\s/.test(line)) {
      // "node 12345    1001001" — the thread name may hold spaces: tid and period are the last two.
      const m = /^(.*?)\s+(\d+)\s+(\d+)\s*$/.exec(line);
      if (!m) continue;
      cur = { comm: m[1].trim(), tid: Number(m[2]), period: Number(m[3]), frames: [] };
      samples.push(cur);
      continue;
    }
    if (!cur) continue;
    // "\t  7f2ad8027ce3 JS:*writeSync node:fs:898:19 (/tmp/perf-20232.map)"
    const m = /^\s*[0-9a-f]+\s+(.*?)\s+\(([^()]*)\)\s*$/.exec(line);
    if (m) cur.frames.push({ sym: m[1], dso: m[2] });
  }
  return samples;
}

/** The broad kind of code a frame is. */
export function categorize(frame) {
  const { sym, dso } = frame;
  if (dso === '[kernel.kallsyms]' || dso.startsWith('[')) return 'kernel';
  if (/perf-\d+\.map$/.test(dso)) {
    const dep = /\/node_modules\/((?:@[^/]+\/)?[^/:]+)/.exec(sym);
    if (dep) return `JS: dependency ${dep[1]}`;
    if (/\/dist\//.test(sym)) return 'JS: Switchboard (dist/)';
    if (/ node:/.test(sym)) return 'JS: Node.js internals';
    if (/^(Builtin|BytecodeHandler|Stub|RegExp):/.test(sym)) return 'V8 builtins and stubs';
    return 'JS: other';
  }
  if (/libc\.so|libpthread|ld-linux/.test(dso)) return 'libc';
  if (/\/node$/.test(dso) || /bin\/node/.test(dso)) {
    if (/^Builtins_/.test(sym)) return 'V8 builtins and stubs';
    if (/Heap::|Scavenge|MarkCompact|Sweeper|ConcurrentMarking|MinorMC|GCTracer|MemoryAllocator|Evacuat/.test(sym)) return 'V8 garbage collector';
    if (COMPILER.test(sym)) return 'V8 JIT compilers';
    if (/^v8::|^Builtin_/.test(sym)) return 'V8 runtime (C++)';
    if (/^uv_|^uv__/.test(sym)) return 'libuv';
    if (/^llhttp/.test(sym)) return 'Node.js HTTP parser (llhttp)';
    if (/^node::/.test(sym)) return 'Node.js (C++)';
    return 'node binary, other';
  }
  return `other (${dso})`;
}

const COMPILER = /v8::internal::(compiler|maglev|baseline)::|v8::internal::Compiler::|OptimizingCompileDispatcher|BaselineBatchCompiler/;

/** Frames that mark a cost wherever they are in a stack (inclusive time). */
export const LANDMARKS = [
  ['JIT compilers (warm-up not over)', COMPILER],
  ['write/writev system calls', /^(ksys_write|do_writev|__x64_sys_write|__x64_sys_writev|__do_sys_writev)$/],
  ['read system calls', /^(ksys_read|__x64_sys_read|do_iter_readv_writev|__x64_sys_readv)$/],
  ['epoll_wait (event loop poll)', /^(do_epoll_wait|__x64_sys_epoll_wait|__x64_sys_epoll_pwait)$/],
  ['any system call', /^(do_syscall_64|entry_SYSCALL_64_after_hwframe)$/],
  ['garbage collection', /Heap::CollectGarbage|Heap::PerformGarbageCollection|ScavengerCollector|MarkCompactCollector|ConcurrentMarking::Run|Sweeper::/],
  ['JSON.parse', /JsonParser|Builtin_JsonParse/],
  ['JSON.stringify', /JsonStringifier|Builtin_JsonStringify/],
];

/**
 * Self time by symbol and by category, inclusive time of the landmarks, share per thread. Amounts
 * are in the event's unit: ns for cpu-clock, cycles for cycles.
 */
export function summarizeSamples(samples, { top = 30, pid } = {}) {
  const total = samples.reduce((a, s) => a + s.period, 0);
  const bySym = new Map();
  const byCat = new Map();
  const byThread = new Map();
  const land = new Map(LANDMARKS.map(([name]) => [name, 0]));
  const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
  for (const s of samples) {
    add(byThread, s.tid === pid ? 'main thread (JS, event loop)' : `other threads (${s.comm}: V8 helpers, libuv pool)`, s.period);
    const leaf = s.frames[0];
    if (leaf) {
      const cat = categorize(leaf);
      add(bySym, `${leaf.sym}  [${cat}]`, s.period);
      add(byCat, cat, s.period);
    } else add(byCat, '(no stack)', s.period);
    for (const [name, re] of LANDMARKS) if (s.frames.some((f) => re.test(f.sym))) add(land, name, s.period);
  }
  const rank = (m, n = Infinity) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, v]) => ({ name, amount: v, pct: total ? (100 * v) / total : 0 }));
  return { samples: samples.length, total, symbols: rank(bySym, top), categories: rank(byCat), threads: rank(byThread), landmarks: rank(land) };
}

// `node bench/run.mjs --profile`: the gateway under `node --cpu-prof` in the stdio→stdio,
// concurrency 32, 100-byte scenario; then the top self-time functions of the profile.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runLoad } from './load.mjs';
import { OUT_DIR, ROOT_DIR, open } from './paths.mjs';
import { fmt } from './report.mjs';

export async function profileGateway({ path = 'sb-stdio', durationMs = 3000, warmupMs = 500, concurrency = 32, top = 30 } = {}) {
  const dir = join(OUT_DIR, 'prof');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const handle = await open(path, { connections: concurrency, extraNodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  let load;
  try {
    const params = JSON.stringify({ name: handle.toolName, arguments: { text: 'x'.repeat(100) } });
    load = await runLoad({
      call: () => handle.session.requestRaw('tools/call', params),
      check: (r) => r?.content?.[0]?.text?.length === 100,
      concurrency,
      warmupMs,
      durationMs,
    });
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
  const text = [
    `${path === 'sb-stdio' ? 'Switchboard stdio→stdio' : 'Switchboard HTTP→stdio'}, concurrency ${concurrency}, 100 B: ${fmt(load.callsPerSec)} calls/s under --cpu-prof (profiling slows it down).`,
    `Profile: ${relative(ROOT_DIR, join(dir, file))} (open it in Chrome DevTools → Performance, or VS Code).`,
    '',
    `Busy ${summary.busyMs.toFixed(0)} ms of ${summary.totalMs.toFixed(0)} ms profiled (the rest idle); percentages are of busy time, start-up included.`,
    '',
    'Self time by function (top ' + top + '):',
    ...summary.functions.map((f) => `${f.pct.toFixed(1).padStart(5)}%  ${f.ms.toFixed(0).padStart(6)} ms  ${f.name}`),
    '',
    'Self time by origin:',
    ...summary.origins.map((f) => `${f.pct.toFixed(1).padStart(5)}%  ${f.ms.toFixed(0).padStart(6)} ms  ${f.name}`),
    '',
  ].join('\n');
  writeFileSync(join(dir, 'summary.txt'), text);
  return text;
}

/** Self time per function and per origin (our code, node internals, each dependency, GC, idle). */
export function summarize(profile, top) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0));
  }
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

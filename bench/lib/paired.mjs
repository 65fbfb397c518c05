// tools/call, paired: every path's process tree is open at once, and at each point the paths are
// measured back to back in two slices, in the order A B C … C B A (rotated by one each run), so a
// load that rises or falls during the point weighs on every path alike (quick: A B C, rotated). Each run records one value
// per path per figure; ratios are then formed within a run (results.mjs), never across runs.

import { runLoad } from './load.mjs';
import { ECHO, PATHS, open } from './paths.mjs';
import { cmdlineOf, contextSwitches, cpuNs, processTree } from './procs.mjs';
import { POINTS, pointCall } from './settings.mjs';
import { machineWindow } from './sysload.mjs';

/**
 * The slots of one point in run `run` (1-based): the paths rotated by run − 1, then mirrored.
 * Every path gets two slices, at positions that add up to the same total for every path. Without
 * mirror (quick runs: half the warm-ups), one slice each, rotation only.
 */
export function slotOrder(paths, run, mirror = true) {
  const k = (((run - 1) % paths.length) + paths.length) % paths.length;
  const rotated = [...paths.slice(k), ...paths.slice(0, k)];
  const first = rotated.map((path) => ({ path, slice: 0 }));
  return mirror ? [...first, ...[...rotated].reverse().map((path) => ({ path, slice: 1 }))] : first;
}

/** The echo servers in a path's tree (for direct, the process itself). */
function serverPids(handle) {
  if (handle.serverPids !== undefined) return handle.serverPids; // a remote server: not in the gateway's tree
  if (PATHS[handle.path]?.isDirect) return [handle.pid];
  return processTree(handle.pid).filter((p) => p !== handle.pid && cmdlineOf(p).includes(ECHO));
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** One slice: closed-loop load on one path, with the CPU of every process involved. */
async function slice(handle, point, s, first) {
  const durationMs = s.mirror ? s.durationMs / 2 : s.durationMs;
  const { params, check } = pointCall(point, handle.tool(point.tool));
  const servers = serverPids(handle);
  const machine = machineWindow();
  const cs0 = contextSwitches(handle.pid);
  const mid0 = cpuNs(handle.pid);
  const srv0 = sum(servers.map(cpuNs));
  const cli0 = process.cpuUsage();
  const r = await runLoad({
    call: () => handle.session.requestRaw('tools/call', params),
    check,
    concurrency: point.concurrency,
    warmupMs: first ? s.warmupMs : s.rewarmMs,
    durationMs,
    minCalls: point.concurrency, // at least one full round of the loop, however slow the path
  });
  const cli = process.cpuUsage(cli0);
  const cs = contextSwitches(handle.pid);
  return {
    wakeups: cs.voluntary - cs0.voluntary,
    preemptions: cs.involuntary - cs0.involuntary,
    calls: r.calls,
    totalCalls: r.totalCalls,
    durationMs: r.windowMs,
    latenciesNs: r.latenciesNs,
    midNs: cpuNs(handle.pid) - mid0,
    srvNs: sum(servers.map(cpuNs)) - srv0,
    cliUs: cli.user + cli.system,
    machine: machine.end(),
  };
}

/** Nearest-rank percentile of a sorted array. */
function pct(sorted, q) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** The figures of one path at one point in one run, from its two slices. */
export function combine(slices) {
  const total = sum(slices.map((x) => x.totalCalls));
  const lat = slices.flatMap((x) => x.latenciesNs).sort((a, b) => a - b);
  const mean = (f) => sum(slices.map(f)) / slices.length;
  const out = {
    'calls/s': sum(slices.map((x) => x.calls)) / (sum(slices.map((x) => x.durationMs)) / 1000),
    'p50 µs': pct(lat, 0.5) / 1000,
    'p99 µs': pct(lat, 0.99) / 1000,
    'cpu µs/call': sum(slices.map((x) => x.midNs)) / 1000 / total,
    'server cpu µs/call': sum(slices.map((x) => x.srvNs)) / 1000 / total,
    'client cpu µs/call': sum(slices.map((x) => x.cliUs)) / total,
    'wake-ups/call': sum(slices.map((x) => x.wakeups ?? NaN)) / total,
    'preemptions/call': sum(slices.map((x) => x.preemptions ?? NaN)) / total,
    load: mean((x) => x.machine.load1),
  };
  if (slices.every((x) => Number.isFinite(x.machine.busyPct))) {
    out['machine busy %'] = mean((x) => x.machine.busyPct);
    out['steal %'] = mean((x) => x.machine.stealPct);
  }
  return out;
}

/**
 * One run of the paired tools/call scenario. rec(path, figure, value) records a figure of this
 * run; fail(path, err) a path that could not be opened or stopped answering (it is then left out
 * of the rest of the run). log(line) for progress.
 */
export async function pairedCallRun({ run, paths, points = POINTS, s, rec, fail, log }) {
  const handles = new Map();
  try {
    // Opened together (start-up is not measured here); kept in the order given.
    const opened = await Promise.allSettled(paths.map((path) => open(path, { connections: Math.max(...points.map((p) => p.concurrency)) })));
    opened.forEach((o, i) => {
      if (o.status === 'fulfilled') handles.set(paths[i], o.value);
      else fail(paths[i], o.reason);
    });
    // Warm every path before the first point (V8 optimizes the HTTP path only after seconds of
    // load; the first point measured would otherwise pay for it), unmeasured.
    if (s.openWarmMs > 0) {
      for (const [path, handle] of handles) {
        for (const point of [points.find((p) => p.concurrency > 1), points.find((p) => p.tool !== 'echo')].filter(Boolean)) {
          const { params, check } = pointCall(point, handle.tool(point.tool));
          try {
            await bounded(
              s.sliceTimeoutMs + s.openWarmMs,
              handle,
              runLoad({ call: () => handle.session.requestRaw('tools/call', params), check, concurrency: point.concurrency, warmupMs: 0, durationMs: s.openWarmMs / 2 }),
            );
          } catch (err) {
            fail(path, err);
            handles.delete(path);
            await handle.close().catch(() => {});
            break;
          }
        }
      }
    }
    for (const point of points) {
      const slices = new Map();
      const here = [...handles.keys()].filter((p) => !PATHS[p].peer || !s.peerPoints || s.peerPoints.includes(point.key));
      for (const { path, slice: n } of slotOrder(here, run, s.mirror)) {
        const handle = handles.get(path);
        if (!handle) continue; // failed earlier in this point
        try {
          const got = await bounded(s.sliceTimeoutMs + s.warmupMs + s.durationMs, handle, slice(handle, point, s, n === 0));
          (slices.get(path) ?? slices.set(path, []).get(path)).push(got);
        } catch (err) {
          fail(path, err);
          slices.delete(path);
          handles.delete(path);
          await handle.close().catch(() => {});
        }
      }
      const figures = new Map([...slices].filter(([, xs]) => xs.length === (s.mirror ? 2 : 1)).map(([path, xs]) => [path, combine(xs)]));
      for (const [path, f] of figures) for (const [name, v] of Object.entries(f)) rec(path, `${point.key}|${name}`, v);
      log(progressLine(point, figures));
    }
  } finally {
    await Promise.all([...handles.values()].map((h) => h.close().catch(() => {})));
  }
}

/** A slice that hangs (a gateway that stops answering) ends: its tree is stopped, so its calls fail. */
async function bounded(ms, handle, promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      void handle.proc.stop();
      reject(new Error(`${handle.path}: no progress within ${ms / 1000} s, stopped`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** "100B c=32: direct 80k/s · sb-stdio 20k/s 0.25× · …" — this run's ratios against direct. */
function progressLine(point, figures) {
  const d = figures.get('direct')?.['calls/s'];
  const parts = [...figures].map(([path, f]) => {
    const t = f['calls/s'];
    const r = d && path !== 'direct' ? ` ${(t / d).toFixed(2)}×` : '';
    return `${path} ${Math.round(t)}/s${r} ${f['cpu µs/call'].toFixed(1)}µs`;
  });
  return `    ${point.key}: ${parts.join(' · ')} (load ${[...figures.values()][0]?.load.toFixed(2) ?? '?'})`;
}

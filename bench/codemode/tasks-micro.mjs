// The costs of code mode itself, through the built gateway over stdio: a nested call against a
// direct tools/call (same server, same tool), the cold start of a run (`return 1`), and the
// gateway's RSS per run in flight (each awaiting a slow tool), beside as many direct calls in flight.

import { cpuNs, rssOf, sleep } from '../lib/procs.mjs';

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function runCode(gw, code, { tolerate = false } = {}) {
  const t0 = performance.now();
  const r = await gw.client.request('tools/call', { name: 'run_code', arguments: { code } });
  const ms = performance.now() - t0;
  if (r.isError && !tolerate) throw new Error(`run_code failed: ${JSON.stringify(r.content).slice(0, 400)}`);
  return { ms, r };
}

const echo = (gw) => gw.client.request('tools/call', { name: 'everything__echo', arguments: { message: 'x' } });

/** Collections of a gateway started with traceGc since `from`: full (mark-compact) ones, and pauses. */
function gcSince(gw, from) {
  const list = gw.gc.slice(from);
  const sum = (k) => list.reduce((a, g) => a + g[k], 0);
  return { full: list.filter((g) => g.kind !== 'Scavenge').length, pauseMs: sum('pauseMs'), stepsMs: sum('stepsMs'), maxMs: Math.max(0, ...list.map((g) => g.pauseMs)) };
}

/**
 * First run in a fresh gateway, then p50/p90 of `n` more; a direct echo's round trip beside. With
 * both gateways started with traceGc: the garbage collections per run and per direct call.
 */
export async function coldStart(code, full, n) {
  const { ms: first, r } = await runCode(code, 'return 1', { tolerate: true });
  const firstError = r.isError ? String(r.content?.[0]?.text).slice(0, 160) : undefined;
  const runs = [];
  const echoes = [];
  const [gcCode, gcFull] = [code.gc.length, full.gc.length];
  for (let i = 0; i < n; i++) {
    runs.push((await runCode(code, 'return 1')).ms);
    const t0 = performance.now();
    await echo(full);
    echoes.push(performance.now() - t0);
  }
  return { first, firstError, p50: pct(runs, 0.5), p90: pct(runs, 0.9), echoP50: pct(echoes, 0.5), n, gcRun: gcSince(code, gcCode), gcEcho: gcSince(full, gcFull) };
}

/**
 * Per nested call: a script awaiting `everything.echo` N times, less a `return 1` run, over N;
 * per direct call: N tools/call one after the other from the client, over N. Interleaved, p50 of
 * `reps` each.
 */
export async function nestedOverhead(code, full, { n, reps }) {
  const loop = `for (let i = 0; i < ${n}; i++) await tools.everything.echo({ message: 'x' });\nreturn ${n};`;
  const base = [];
  const nested = [];
  const direct = [];
  const cpu = { base: 0, nested: 0, direct: 0 };
  const timed = async (key, fn) => {
    const c0 = cpuNs((key === 'direct' ? full : code).pid);
    const t0 = performance.now();
    await fn();
    cpu[key] += cpuNs((key === 'direct' ? full : code).pid) - c0;
    return performance.now() - t0;
  };
  for (let k = 0; k < reps; k++) {
    base.push(await timed('base', () => runCode(code, 'return 1')));
    nested.push(
      await timed('nested', async () => {
        const { r } = await runCode(code, loop);
        if (r.structuredContent?.calls !== n) throw new Error(`nested loop: calls = ${r.structuredContent?.calls}, expected ${n}`);
      }),
    );
    direct.push(
      await timed('direct', async () => {
        for (let i = 0; i < n; i++) await echo(full);
      }),
    );
  }
  const nestedUs = ((pct(nested, 0.5) - pct(base, 0.5)) / n) * 1000;
  const directUs = (pct(direct, 0.5) / n) * 1000;
  // Gateway CPU (every thread) per call: the loop's runs less as many `return 1` runs, over the calls.
  const nestedCpuUs = (cpu.nested - cpu.base) / reps / n / 1000;
  const directCpuUs = cpu.direct / reps / n / 1000;
  const runCpuMs = cpu.base / reps / 1e6;
  return { n, reps, nestedUs, directUs, overheadUs: nestedUs - directUs, ratio: nestedUs / directUs, nestedCpuUs, directCpuUs, runCpuMs };
}

async function settledRss(pid) {
  await sleep(400);
  const xs = [];
  for (let i = 0; i < 5; i++) {
    xs.push(rssOf(pid));
    await sleep(40);
  }
  return pct(xs, 0.5);
}

/** Peak RSS of `pid` while `work` runs, sampled every 20 ms. */
async function peakDuring(pid, work) {
  let peak = 0;
  let done = false;
  const p = work().finally(() => (done = true));
  while (!done) {
    peak = Math.max(peak, rssOf(pid));
    await sleep(20);
  }
  await p;
  return peak;
}

/**
 * RSS of the gateway with `count` runs in flight, each awaiting a slow tool (trigger-long-running-
 * operation, `seconds` long), less its RSS at rest, per run; the same with `count` direct calls
 * of the tool in flight on the full gateway, per call, for what any call in flight costs.
 */
export async function memoryPerRun(code, full, { count, seconds }) {
  const args = { duration: seconds, steps: 1 };
  const script = `const r = await tools.everything.trigger_long_running_operation(${JSON.stringify(args)});\nreturn typeof r;`;
  const restCode = await settledRss(code.pid);
  const peakCode = await peakDuring(code.pid, () => Promise.all(Array.from({ length: count }, () => runCode(code, script))));
  const restFull = await settledRss(full.pid);
  const peakFull = await peakDuring(full.pid, () =>
    Promise.all(Array.from({ length: count }, () => full.client.request('tools/call', { name: 'everything__trigger-long-running-operation', arguments: args }))),
  );
  const mib = (b) => b / 1048576;
  return {
    count,
    restCodeMiB: mib(restCode),
    perRunMiB: mib(peakCode - restCode) / count,
    restFullMiB: mib(restFull),
    perDirectMiB: mib(peakFull - restFull) / count,
  };
}

/** `count` fresh gateways, one `return 1` each (their first run): how many fail, and how. */
export async function firstRuns(open, count) {
  const failures = [];
  const ms = [];
  for (let i = 0; i < count; i++) {
    const gw = await open();
    try {
      const { ms: t, r } = await runCode(gw, 'return 1', { tolerate: true });
      ms.push(t);
      if (r.isError) failures.push(String(r.content?.[0]?.text).slice(0, 120));
    } finally {
      await gw.close();
    }
  }
  return { count, failures, p50: pct(ms, 0.5), max: Math.max(...ms) };
}

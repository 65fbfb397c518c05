// Closed-loop load: `concurrency` requests kept in flight; a warm-up, then a measuring window.
// Throughput counts the calls completed inside the window; latencies are those of the calls that
// started and finished inside it (process.hrtime.bigint). With minCalls, a window in which fewer
// calls completed (a slow path, a short quick-run window) stays open until that many have, up to
// maxDurationMs, so no ratio rests on one or two calls. CPU per call is counted by the caller over
// every call (warm-up and drain included), hence totalCalls.

export async function runLoad({ call, check, concurrency, warmupMs, durationMs, minCalls = 0, maxDurationMs = Math.max(10 * durationMs, 60_000) }) {
  const now = () => process.hrtime.bigint();
  const t0 = now();
  const measureFrom = t0 + BigInt(Math.round(warmupMs * 1e6));
  const nominalEnd = measureFrom + BigInt(Math.round(durationMs * 1e6));
  const hardEnd = measureFrom + BigInt(Math.round(Math.max(durationMs, maxDurationMs) * 1e6));
  let windowEnd = nominalEnd; // moves later only while fewer than minCalls completed
  const latencies = [];
  let completed = 0;
  let total = 0;
  let failure;

  const open = (t) => t < nominalEnd || (completed < minCalls && t < hardEnd);

  async function worker() {
    for (;;) {
      const started = now();
      if (!open(started) || failure) return;
      let result;
      try {
        result = await call();
      } catch (err) {
        failure ??= err;
        return;
      }
      const ended = now();
      total++;
      if (check && !check(result)) {
        failure ??= new Error(`unexpected result: ${JSON.stringify(result).slice(0, 200)}`);
        return;
      }
      if (ended <= measureFrom) continue;
      const inWindow = ended <= nominalEnd || (completed < minCalls && ended <= hardEnd);
      if (!inWindow) continue;
      completed++;
      if (ended > windowEnd) windowEnd = ended;
      if (started >= measureFrom) latencies.push(Number(ended - started));
    }
  }

  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failure) throw failure;
  latencies.sort((a, b) => a - b);
  const windowMs = Number(windowEnd - measureFrom) / 1e6;
  return {
    callsPerSec: completed / (windowMs / 1000),
    calls: completed,
    windowMs,
    totalCalls: total,
    latenciesNs: latencies,
    p50us: percentile(latencies, 0.5) / 1000,
    p99us: percentile(latencies, 0.99) / 1000,
  };
}

/** Sequential timings of an async function: [ms] sorted. */
export async function timeSequential(fn, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const a = process.hrtime.bigint();
    await fn(i);
    out.push(Number(process.hrtime.bigint() - a) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

/** Nearest-rank percentile of a sorted array. */
export function percentile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

export function median(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

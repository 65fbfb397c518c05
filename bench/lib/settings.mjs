// How much of everything a full run and a quick (CI) run measure. The quick run keeps every paired
// figure of the full one (so every ratio is still printed, over ≥ 2 runs) with shorter windows
// and fewer repetitions; it must finish in under a minute on the 2-core machines, install included.

/** The tools/call points: every path is measured at each, in the same run. */
export const POINTS = [
  { key: '100B c=1', label: '100 B echo, concurrency 1', tool: 'echo', bytes: 100, concurrency: 1 },
  { key: '100B c=32', label: '100 B echo, concurrency 32', tool: 'echo', bytes: 100, concurrency: 32 },
  { key: '64KiB c=32', label: '64 KiB result (small request), concurrency 32', tool: 'blob', bytes: 64 * 1024, concurrency: 32 },
  { key: '1MiB c=8', label: '1 MiB result (small request), concurrency 8', tool: 'blob', bytes: 1024 * 1024, concurrency: 8 },
];

/** The params of a point's tools/call, serialized once, and the check of its result. */
export function pointCall(point, toolName) {
  const args = point.tool === 'echo' ? { text: 'x'.repeat(point.bytes) } : { bytes: point.bytes };
  return {
    params: JSON.stringify({ name: toolName, arguments: args }),
    check: (r) => r?.content?.[0]?.text?.length === point.bytes,
  };
}

export function settings(quick) {
  return quick
    ? {
        runs: 2,
        warmupMs: 100, // first slice of a path at a point (JIT, connections)
        rewarmMs: 30, // its second slice (pipeline refill only)
        durationMs: 300, // measured per path per point, split over its two slices
        listRuns: 1,
        memoryRuns: 1,
        listWarm: 50,
        listGateways: ['sb-http'],
        sessions: 20,
        sessionsSpawning: 3,
        settleMs: 200, // before reading RSS
        cliReps: 3, // `check` vs `node -e 0` pairs per run
        rssReps: 1, // peak-RSS pairs per run (under /usr/bin/time)
        oneReps: 2, // one server ready vs alone, pairs per run
        fiftyReps: 1, // 50 servers vs 50 in parallel, pairs per run
        sliceTimeoutMs: 30_000,
      }
    : {
        runs: 3,
        warmupMs: 500,
        rewarmMs: 150,
        durationMs: 3000,
        listRuns: 3,
        memoryRuns: 3,
        listWarm: 200,
        listGateways: ['sb-http', 'sb-stdio'],
        sessions: 200,
        settleMs: 500,
        sessionsSpawning: 16,
        cliReps: 10,
        rssReps: 3,
        oneReps: 5,
        fiftyReps: 1,
        sliceTimeoutMs: 120_000,
      };
}

// How much of everything a full run and a quick (CI) run measure. The quick run keeps every paired
// figure a target is judged on (each still printed, over ≥ 2 runs) with shorter windows
// and fewer repetitions, and the peers only where a target names them; it must finish in under a
// minute on the 2-core machines, install included.

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
        mirror: false, // one slice per path per point, rotated per run (full runs: A B … B A)
        openWarmMs: 0, // unmeasured load on each path once opened
        warmupMs: 60, // before a path's slice at a point (JIT, connections)
        rewarmMs: 0,
        durationMs: 200, // measured per path per point
        listRuns: 1,
        memoryRuns: 1,
        listWarm: 50,
        listGateways: ['sb-http'],
        sessions: 20,
        sessionsSpawning: 3,
        settleMs: 200, // before reading RSS
        cliReps: 3, // `check` vs `node -e 0` pairs per run
        cliWarmEveryRun: false, // one untimed warm-up of each side: first run only
        rssReps: 1, // peak-RSS pairs per run (under /usr/bin/time)
        oneReps: 2, // one server ready vs alone, pairs per run
        fiftyReps: 1, // 50 servers vs 50 in parallel, pairs per run
        sliceTimeoutMs: 30_000,
        peerPoints: ['100B c=32'], // the peers' tools/call points; the rest of peer figures: full runs only
        peersElsewhere: false, // peers in start-up, tools/list and memory
      }
    : {
        runs: 3,
        mirror: true,
        openWarmMs: 4000, // V8 needs seconds to optimize the HTTP path, longer on a loaded machine (NOTES.md)
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
        cliWarmEveryRun: true,
        rssReps: 3,
        oneReps: 5,
        fiftyReps: 1,
        sliceTimeoutMs: 120_000,
        peerPoints: undefined, // all
        peersElsewhere: true,
      };
}

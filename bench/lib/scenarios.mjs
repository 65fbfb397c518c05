// The workloads. Each scenario function starts its own process trees, records figures with
// rec(row, figure, value) and stops everything it started before returning (or throwing).

import { ECHO, open, startGatewayHttp, writeGatewayConfig } from './paths.mjs';
import { percentile, runLoad, timeSequential } from './load.mjs';
import { cpuMicros, rssOf, sleep, treeRss } from './procs.mjs';
import { StdioClient } from './stdio-client.mjs';

export const PAYLOADS = [
  { key: '100B', bytes: 100, label: '100 B' },
  { key: '64KiB', bytes: 65536, label: '64 KiB' },
];
export const CONCURRENCY = [1, 32];

/** The settings of a full run and of a quick (CI smoke) run. */
export function settings(quick) {
  return quick
    ? { runs: 1, warmupMs: 200, durationMs: 500, listWarm: 50, solo: 10, sessions: 50, sessionsSpawning: 4 }
    : { runs: 3, warmupMs: 500, durationMs: 3000, listWarm: 200, solo: 30, sessions: 200, sessionsSpawning: 16 };
}

const ms = (a, b) => Number(b - a) / 1e6;
const now = () => process.hrtime.bigint();

/** tools/call round trips: one process tree for the path, then every payload × concurrency. */
export async function callScenario(path, s, rec) {
  const handle = await open(path, { connections: Math.max(...CONCURRENCY) });
  try {
    for (const payload of PAYLOADS) {
      const text = 'x'.repeat(payload.bytes);
      const params = JSON.stringify({ name: handle.toolName, arguments: { text } });
      const check = (r) => r?.content?.[0]?.text?.length === payload.bytes;
      for (const c of CONCURRENCY) {
        const cpu0 = cpuMicros(handle.pid);
        const client0 = process.cpuUsage();
        const r = await runLoad({
          call: () => handle.session.requestRaw('tools/call', params),
          check,
          concurrency: c,
          warmupMs: s.warmupMs,
          durationMs: s.durationMs,
        });
        const cpu = cpuMicros(handle.pid) - cpu0;
        const client = process.cpuUsage(client0);
        const row = `${payload.key} c=${c}`;
        rec(row, 'calls/s', r.callsPerSec);
        // CPU of the process in the middle (the gateway; for direct, the echo server) per call:
        // far less sensitive to other jobs on the machine than wall-clock figures.
        rec(row, 'cpu µs/call', cpu / r.totalCalls);
        rec(row, 'client cpu µs/call', (client.user + client.system) / r.totalCalls);
        rec(row, 'p50 µs', r.p50us);
        rec(row, 'p99 µs', r.p99us);
      }
    }
  } finally {
    await handle.close();
  }
}

/**
 * tools/list over 10 servers × 1,000 extra tools (10,010 tools), pageSize 100, through the
 * gateway over HTTP and stdio; and, for scale, one 1,000-tool server's full list direct and
 * through each peer (they neither merge nor page).
 */
export async function listScenario(s, rec, { peers }) {
  const SERVERS = 10;
  const TOOLS = 1000;
  for (const path of ['sb-http', 'sb-stdio']) {
    const t0 = now();
    const handle = await open(path, { servers: SERVERS, tools: TOOLS, pageSize: 100 });
    try {
      const session = handle.session;
      if (path === 'sb-stdio') rec(`${path} 10×1000`, 'start → initialize answered ms', ms(t0, now()));
      else rec(`${path} 10×1000`, 'start → listening ms', handle.readyMs);
      const a = now();
      let page = await session.request('tools/list', {});
      rec(`${path} 10×1000`, 'first tools/list (page 1) ms', ms(a, now()));
      // Walk every page; keep the cursor of the middle one.
      const cursors = [];
      let count = page.tools.length;
      const b = now();
      while (page.nextCursor) {
        cursors.push(page.nextCursor);
        page = await session.request('tools/list', { cursor: page.nextCursor });
        count += page.tools.length;
      }
      rec(`${path} 10×1000`, `walk all ${cursors.length + 1} pages ms`, ms(b, now()));
      const expected = SERVERS * (TOOLS + 1);
      if (count !== expected) throw new Error(`${path}: paged ${count} tools, expected ${expected}`);
      const middle = JSON.stringify({ cursor: cursors[Math.floor(cursors.length / 2)] });
      const times = await timeSequential(() => session.requestRaw('tools/list', middle), s.listWarm);
      rec(`${path} 10×1000`, 'warm page p50 ms', percentile(times, 0.5));
      rec(`${path} 10×1000`, 'warm page p99 ms', percentile(times, 0.99));
    } finally {
      await handle.close();
    }
  }
  for (const path of ['direct', ...peers]) {
    const handle = await open(path, { tools: TOOLS });
    try {
      const first = await handle.session.request('tools/list', {});
      if (first.tools.length !== TOOLS + 1) throw new Error(`${path}: listed ${first.tools.length} tools`);
      const times = await timeSequential(() => handle.session.requestRaw('tools/list', '{}'), Math.ceil(s.listWarm / 2));
      rec(`${path} 1×1000`, 'warm full list p50 ms', percentile(times, 0.5));
    } finally {
      await handle.close();
    }
  }
}

/** Spawn → initialize + tools/list answered, for one echo server driven by our raw client. */
async function soloStart(tools = 0) {
  const t0 = now();
  const client = new StdioClient(process.execPath, [ECHO, ...(tools ? ['--tools', String(tools)] : [])], { label: 'echo-server' });
  try {
    await client.initialize();
    await client.request('tools/list', {});
    return ms(t0, now());
  } finally {
    await client.close();
  }
}

/** Start-up: 50 stdio servers behind the gateway vs one alone and 50 started directly. */
export async function startupScenario(s, rec, { peers }) {
  const N = 50;
  const solo = [];
  for (let i = 0; i < s.solo; i++) solo.push(await soloStart());
  solo.sort((a, b) => a - b);
  rec('one echo server alone', 'slowest ms', solo[solo.length - 1]);
  rec('one echo server alone', 'median ms', percentile(solo, 0.5));

  // Direct: our own client starts 50 servers at once and waits for all of them.
  {
    const t0 = now();
    const clients = Array.from({ length: N }, () => new StdioClient(process.execPath, [ECHO], { label: 'echo-server' }));
    try {
      await Promise.all(clients.map(async (c) => (await c.initialize(), await c.request('tools/list', {}))));
      rec('50 servers, direct (all in parallel)', 'all ready ms', ms(t0, now()));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  }

  for (const count of [N, 1]) {
    const { proc, readyMs } = await startGatewayHttp(writeGatewayConfig({ count }));
    try {
      rec(`Switchboard, ${count} server${count > 1 ? 's' : ''}`, 'spawn → listening ms', readyMs);
    } finally {
      await proc.stop();
    }
  }

  // One server: spawn → first initialize answered over HTTP, Switchboard vs each peer.
  for (const path of ['sb-http', ...peers]) {
    const t0 = now();
    const handle = await open(path, {});
    try {
      await handle.session.request('tools/list', {});
      rec(`${path} 1 server`, 'spawn → initialize + tools/list ms', ms(t0, now()));
    } finally {
      await handle.close();
    }
  }
}

/** Resident memory: the gateway with 1 and 50 servers, and per additional HTTP session. */
export async function memoryScenario(s, rec, { peers }) {
  for (const count of [1, 50]) {
    const handle = await open('sb-http', { servers: count, connections: 2 });
    try {
      await warm(handle);
      await sleep(500);
      rec(`Switchboard, ${count} server${count > 1 ? 's' : ''}`, 'gateway RSS MB', rssOf(handle.pid) / 2 ** 20);
      rec(`Switchboard, ${count} server${count > 1 ? 's' : ''}`, 'tree RSS MB', treeRss(handle.pid).bytes / 2 ** 20);
    } finally {
      await handle.close();
    }
  }

  for (const path of ['sb-http', ...peers]) {
    // supergateway --stateful spawns a server per session: fewer sessions keep the machine usable.
    const sessions = path === 'supergateway' ? s.sessionsSpawning : s.sessions;
    const handle = await open(path, { connections: 4 });
    try {
      await warm(handle);
      // One extra session first, so one-time costs of the first session are not counted.
      await warm({ ...handle, session: await handle.newSession() });
      await sleep(500);
      const before = rssOf(handle.pid);
      const beforeTree = treeRss(handle.pid);
      for (let i = 0; i < sessions; i++) await warm({ ...handle, session: await handle.newSession() }, 1);
      await sleep(500);
      const after = rssOf(handle.pid);
      const afterTree = treeRss(handle.pid);
      const row = `${path} (${sessions} sessions)`;
      rec(row, 'gateway RSS MB', after / 2 ** 20);
      rec(row, 'gateway KB/session', (after - before) / 1024 / sessions);
      rec(row, 'tree KB/session', (afterTree.bytes - beforeTree.bytes) / 1024 / sessions);
      rec(row, 'processes', afterTree.processes);
    } finally {
      await handle.close();
    }
  }
}

/** A few calls and a list, so lazily built state exists before memory is read. */
async function warm(handle, calls = 20) {
  const params = JSON.stringify({ name: handle.toolName, arguments: { text: 'x'.repeat(100) } });
  await handle.session.request('tools/list', {});
  for (let i = 0; i < calls; i++) await handle.session.requestRaw('tools/call', params);
}

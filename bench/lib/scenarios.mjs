// The unpaired workloads: tools/list over a large catalog and memory per session. Each starts its
// own process trees, records figures with rec(row, figure, value) and stops everything it
// started before returning (or throwing). The paired ones are in paired.mjs and startup.mjs.

import { open } from './paths.mjs';
import { percentile, timeSequential } from './load.mjs';
import { rssOf, sleep, treeRss } from './procs.mjs';

/** Tools the echo server has besides its --tools N extras (echo, blob). */
const BASE_TOOLS = 2;

const ms = (a, b) => Number(b - a) / 1e6;
const now = () => process.hrtime.bigint();

/**
 * tools/list over 10 servers × 1,000 extra tools (10,020 tools), pageSize 100, through the
 * gateway over HTTP (and stdio, in a full run); and, for scale, one 1,000-tool server's full list direct and
 * through each peer (they neither merge nor page).
 */
export async function listScenario(s, rec, { peers }) {
  const SERVERS = 10;
  const TOOLS = 1000;
  for (const path of s.listGateways) {
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
      const expected = SERVERS * (TOOLS + BASE_TOOLS);
      if (count !== expected) throw new Error(`${path}: paged ${count} tools, expected ${expected}`);
      const middle = JSON.stringify({ cursor: cursors[Math.floor(cursors.length / 2)] });
      const times = await timeSequential(() => session.requestRaw('tools/list', middle), s.listWarm);
      rec(`${path} 10×1000`, 'warm page p50 ms', percentile(times, 0.5));
      rec(`${path} 10×1000`, 'warm page p99 ms', percentile(times, 0.99));
    } finally {
      await handle.close();
    }
  }
  for (const path of s.peersElsewhere ? ['direct', ...peers] : []) {
    const handle = await open(path, { tools: TOOLS });
    try {
      const first = await handle.session.request('tools/list', {});
      if (first.tools.length !== TOOLS + BASE_TOOLS) throw new Error(`${path}: listed ${first.tools.length} tools`);
      const times = await timeSequential(() => handle.session.requestRaw('tools/list', '{}'), Math.ceil(s.listWarm / 2));
      rec(`${path} 1×1000`, 'warm full list p50 ms', percentile(times, 0.5));
    } finally {
      await handle.close();
    }
  }
}

/**
 * Resident memory per additional initialized HTTP session, Switchboard and each peer, one after
 * another (RSS with 1 and 50 servers is read in the start-up scenario, from its gateways).
 */
export async function memoryScenario(s, rec, { peers }) {
  for (const path of ['sb-http', ...peers]) {
    // supergateway --stateful spawns a server per session: fewer sessions keep the machine usable.
    const sessions = path === 'supergateway' ? s.sessionsSpawning : s.sessions;
    const handle = await open(path, { connections: 4 });
    try {
      await warm(handle);
      // One extra session first, so one-time costs of the first session are not counted.
      await warm({ ...handle, session: await handle.newSession() });
      await sleep(s.settleMs);
      const before = rssOf(handle.pid);
      const beforeTree = treeRss(handle.pid);
      for (let i = 0; i < sessions; i++) await warm({ ...handle, session: await handle.newSession() }, 1);
      await sleep(s.settleMs);
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

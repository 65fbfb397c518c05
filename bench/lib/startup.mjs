// Start-up, paired: each comparison alternates its two sides (A B, B A, …, rotated by run) and
// takes the median of each side within the run, so the ratio of the run pairs figures measured
// seconds apart. Also the gateway's resident memory with 1 and 50 servers, read from the same
// gateways once they are ready (the start-up timing is taken before anything else happens).

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './load.mjs';
import { ECHO, GATEWAY, OUT_DIR, open } from './paths.mjs';
import { rssOf, sleep, start, treeRss } from './procs.mjs';
import { StdioClient } from './stdio-client.mjs';

export const GNU_TIME = '/usr/bin/time';
const now = () => process.hrtime.bigint();
const ms = (a, b) => Number(b - a) / 1e6;

/** Alternating order for pair i of run `run`: [a, b] or [b, a]. */
export function alternate(i, run, a, b) {
  return (i + run) % 2 === 0 ? [a, b] : [b, a];
}

/** Runs a command to its end; resolves its wall time in ms (spawn → exit). Throws on a non-zero exit. */
async function timed(cmd, args, label) {
  const t0 = now();
  const proc = start(cmd, args, { label, stdio: ['ignore', 'ignore', 'pipe'] });
  await proc.exitPromise;
  const wall = ms(t0, now());
  if (proc.exitCode !== 0) throw new Error(`${label} exited with ${proc.exitCode ?? proc.exitSignal}: ${proc.stderrTail().slice(-500)}`);
  return wall;
}

/** Peak RSS (MB) of one run of a command, from GNU time's %M; NaN without /usr/bin/time. */
async function peakRss(cmd, args, label) {
  if (!existsSync(GNU_TIME)) return NaN;
  mkdirSync(OUT_DIR, { recursive: true });
  const file = join(OUT_DIR, `time-${process.pid}.txt`);
  await timed(GNU_TIME, ['-f', '%M', '-o', file, cmd, ...args], label);
  const kb = Number(readFileSync(file, 'utf8').trim().split('\n').pop());
  rmSync(file, { force: true });
  return kb / 1024;
}

/** `switchboard check` on a config with no servers vs `node -e 0`: wall time and peak RSS. */
export async function cliStartRun({ run, s, rec }) {
  mkdirSync(OUT_DIR, { recursive: true });
  const config = join(OUT_DIR, `empty-${process.pid}.yaml`);
  writeFileSync(config, '# written by bench/run.mjs: no servers\nservers: []\n');
  const sides = {
    'node -e 0': [process.execPath, ['-e', '0']],
    'switchboard check (no servers)': [process.execPath, [GATEWAY, 'check', '-c', config]],
  };
  const names = Object.keys(sides);
  try {
    if (run === 1 || s.cliWarmEveryRun) for (const n of names) await timed(...sides[n], n); // warm-up: file cache, not counted
    const wall = { [names[0]]: [], [names[1]]: [] };
    for (let i = 0; i < s.cliReps; i++) for (const n of alternate(i, run, ...names)) wall[n].push(await timed(...sides[n], n));
    const rss = { [names[0]]: [], [names[1]]: [] };
    for (let i = 0; i < s.rssReps; i++) for (const n of alternate(i, run, ...names)) rss[n].push(await peakRss(...sides[n], n));
    for (const n of names) {
      rec(n, 'wall ms', median(wall[n]));
      rec(n, 'peak RSS MB', median(rss[n]));
    }
  } finally {
    rmSync(config, { force: true });
  }
}

/** Spawn → initialize answered (and tools/list, with list: true) for one echo server, our client. */
async function echoAlone({ list = false } = {}) {
  const t0 = now();
  const client = new StdioClient(process.execPath, [ECHO], { label: 'echo-server' });
  try {
    await client.initialize();
    if (list) await client.request('tools/list', {});
    return ms(t0, now());
  } finally {
    await client.close();
  }
}

/** Gateway RSS once warm (a list and a few calls), for the memory figures. */
async function gatewayRss(handle, rec, row) {
  const params = JSON.stringify({ name: handle.toolName, arguments: { text: 'x'.repeat(100) } });
  await handle.session.request('tools/list', {});
  for (let i = 0; i < 20; i++) await handle.session.requestRaw('tools/call', params);
  await sleep(300);
  rec(row, 'gateway RSS MB', rssOf(handle.pid) / 2 ** 20);
  rec(row, 'tree RSS MB', treeRss(handle.pid).bytes / 2 ** 20);
}

/** Spawn → "listening on" for the gateway with `servers` echo servers; RSS too when memRow is given. */
async function gatewayReady(servers, rec, memRow) {
  const handle = await open('sb-http', { servers, connections: 2 });
  try {
    if (memRow) await gatewayRss(handle, rec, memRow);
    return handle.readyMs;
  } finally {
    await handle.close();
  }
}

/** One server behind the gateway (spawn → listening) vs that server alone answering initialize. */
export async function oneServerRun({ run, s, rec, recMemory }) {
  const sides = { alone: () => echoAlone(), gateway: (i) => gatewayReady(1, recMemory, i === 0 ? 'Switchboard, 1 server' : undefined) };
  const t = { alone: [], gateway: [] };
  for (let i = 0; i < s.oneReps; i++) for (const n of alternate(i, run, 'alone', 'gateway')) t[n].push(await sides[n](i));
  rec('one echo server alone', 'spawn → initialize answered ms', median(t.alone));
  rec('Switchboard, 1 server', 'spawn → listening ms', median(t.gateway));
}

/** 50 servers behind the gateway (spawn → listening) vs the harness starting the same 50 at once. */
export async function fiftyServersRun({ run, s, rec, recMemory }) {
  const N = 50;
  const direct = async () => {
    const t0 = now();
    const clients = Array.from({ length: N }, () => new StdioClient(process.execPath, [ECHO], { label: 'echo-server' }));
    try {
      await Promise.all(clients.map(async (c) => (await c.initialize(), await c.request('tools/list', {}))));
      return ms(t0, now());
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  };
  const t = { direct: [], gateway: [] };
  const sides = { direct, gateway: (i) => gatewayReady(N, recMemory, i === 0 ? 'Switchboard, 50 servers' : undefined) };
  for (let i = 0; i < s.fiftyReps; i++) for (const n of alternate(i, run, 'direct', 'gateway')) t[n].push(await sides[n](i));
  rec('50 servers, direct (all in parallel)', 'all ready ms', median(t.direct));
  rec('Switchboard, 50 servers', 'spawn → listening ms', median(t.gateway));
}

/** Spawn → first initialize + tools/list answered over HTTP, one server: Switchboard vs each peer. */
export async function firstAnswerRun({ run, paths, rec }) {
  const k = (run - 1) % paths.length;
  for (const path of [...paths.slice(k), ...paths.slice(0, k)]) {
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

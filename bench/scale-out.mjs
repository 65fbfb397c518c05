#!/usr/bin/env node
// What a shared store costs per call (issue 32): 2025-era sessions (Mcp-Session-Id) calling a stdio
// echo server through Switchboard over HTTP, 100 B, 32 calls at once, on four setups measured in
// alternated rounds (drift in the machine's load falls on all): one replica in memory, one on
// Redis, and, behind deploy/nginx.conf as shipped, one replica and three replicas on Redis. CPU per
// call counts the gateways and their echo servers (redis-server's CPU beside it; nginx's is left
// out, the same hop on both sides of the ratio it enters). Ratios are medians of per-round ratios.
//   node bench/scale-out.mjs [--quick] [--rounds N] [--duration MS]      (needs npm run build,
//   redis-server and nginx; goal: one-redis ÷ one-memory ≤ 1.2× CPU per call)

import { parseArgs } from 'node:util';
import { NGINX, clusterConfig, startNginx, startRedis, startReplicas } from './lib/cluster.mjs';
import { createAgent, HttpSession } from './lib/http-client.mjs';
import { removeConfigs } from './lib/paths.mjs';
import { median, runLoad } from './lib/load.mjs';
import { ensureBuilt, loadavgText } from './lib/prereq.mjs';
import { cpuNs, installCleanupHooks, processTree, stopAll } from './lib/procs.mjs';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, rounds: { type: 'string' }, duration: { type: 'string' }, concurrency: { type: 'string', default: '32' } },
  strict: true,
});
const rounds = Number(values.rounds ?? (values.quick ? 2 : 5));
const durationMs = Number(values.duration ?? (values.quick ? 400 : 3000));
const concurrency = Number(values.concurrency);
const PARAMS = JSON.stringify({ name: 'echo__echo', arguments: { text: 'x'.repeat(100) } });
const check = (r) => r?.content?.[0]?.text?.length === 100;

installCleanupHooks();
const buildError = ensureBuilt(console.log);
if (buildError) {
  console.error(buildError);
  process.exit(1);
}
if (NGINX === undefined) throw new Error('nginx is missing (apt-get install nginx-light)');

const redis = await startRedis();
const memoryConfig = clusterConfig();
const redisConfig = clusterConfig(redis.url);
const [oneMemory] = await startReplicas(memoryConfig, 1);
const [oneRedis] = await startReplicas(redisConfig, 1);
const [alone] = await startReplicas(redisConfig, 1);
const three = await startReplicas(redisConfig, 3);
const nginxOne = await startNginx([alone.port, alone.port, alone.port]);
const nginxThree = await startNginx(three.map((r) => r.port));

/** One setup: its entry URL, the gateway processes whose CPU it is charged, an open session. */
const setups = {
  'one-memory': { url: oneMemory.url, gateways: [oneMemory] },
  'one-redis': { url: oneRedis.url, gateways: [oneRedis] },
  'nginx-one-redis': { url: nginxOne.url, gateways: [alone] },
  'nginx-three-redis': { url: nginxThree.url, gateways: three },
};
for (const s of Object.values(setups)) {
  s.session = new HttpSession(s.url, createAgent(concurrency));
  await s.session.initialize();
  s.samples = [];
}

const treeCpu = (gateways) => gateways.flatMap((g) => processTree(g.proc.pid)).reduce((sum, pid) => sum + cpuNs(pid), 0);

async function measure(s, warmupMs) {
  const gw0 = treeCpu(s.gateways);
  const r0 = cpuNs(redis.proc.pid);
  const load = await runLoad({ call: () => s.session.requestRaw('tools/call', PARAMS), check, concurrency, warmupMs, durationMs, minCalls: 200 });
  return {
    cpuUs: (treeCpu(s.gateways) - gw0) / 1000 / load.totalCalls,
    redisUs: (cpuNs(redis.proc.pid) - r0) / 1000 / load.totalCalls,
    p50us: load.p50us,
    perSec: load.callsPerSec,
  };
}

const names = Object.keys(setups);
for (const name of names) await measure(setups[name], 200); // warm every path once
for (let r = 0; r < rounds; r++) {
  // Rotated each round, so that no setup is always first after another.
  const order = names.map((_, i) => names[(i + r) % names.length]);
  for (const name of order) setups[name].samples.push(await measure(setups[name], 100));
}

const med = (name, key) => median(setups[name].samples.map((x) => x[key]));
const ratio = (a, b, key) => {
  const rs = setups[a].samples.map((x, i) => x[key] / setups[b].samples[i][key]);
  return `${median(rs).toFixed(2)}× (range ${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)}×)`;
};
console.log(`\nscale-out: 2025-era session, tools/call 100 B echo, c=${concurrency}, ${rounds} rounds of ${durationMs} ms; load ${loadavgText()}`);
console.log('setup               CPU µs/call (gateways+echo)  redis-server µs/call  p50 µs   calls/s');
for (const name of names) {
  console.log(
    `${name.padEnd(20)}${med(name, 'cpuUs').toFixed(1).padStart(12)}${med(name, 'redisUs').toFixed(1).padStart(30)}${med(name, 'p50us').toFixed(0).padStart(10)}${med(name, 'perSec').toFixed(0).padStart(10)}`,
  );
}
console.log(`one replica, Redis ÷ memory: CPU per call ${ratio('one-redis', 'one-memory', 'cpuUs')} (goal ≤ 1.2×), p50 ${ratio('one-redis', 'one-memory', 'p50us')}`);
console.log(`behind nginx, three replicas ÷ one: CPU per call ${ratio('nginx-three-redis', 'nginx-one-redis', 'cpuUs')}, p50 ${ratio('nginx-three-redis', 'nginx-one-redis', 'p50us')}`);

for (const s of Object.values(setups)) await s.session.close();
await stopAll();
removeConfigs();
process.exit(0);

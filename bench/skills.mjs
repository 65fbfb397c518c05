#!/usr/bin/env node
// What Skills (SEP-2640) cost through the gateway (issue 34). The built gateway over HTTP with two
// entries of the hand-written skill server (test/fixtures/servers/skills.mjs, stdio): `plain`,
// which the lock file does not pin, and `locked`, whose skills `switchboard lock` pinned. Measured
// in alternated rounds from one session, `--concurrency` at once:
//   - resources/read of a skill's SKILL.md on `plain` and on `locked`: with pins, each read of a
//     skill file first asks the server's skills/get for the current entry (the hold check), so
//     this is the price of holding changed skills back;
//   - skills/list (asks every skill server on each call: skills are not in the catalog snapshot)
//     against tools/list (served from the snapshot), both with the same two servers.
// Figures: wall time and the gateway's CPU per request (/proc schedstat), and the ratios, from the
// same run. Needs `npm run build`.
//   node bench/skills.mjs [--requests 2000] [--rounds 5] [--concurrency 8]

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { createAgent, HttpSession } from './lib/http-client.mjs';
import { GATEWAY, ROOT_DIR, startGatewayHttp } from './lib/paths.mjs';
import { cpuNs, installCleanupHooks } from './lib/procs.mjs';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '5' }, concurrency: { type: 'string', default: '8' } } });
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
installCleanupHooks();

const dir = mkdtempSync(join(os.tmpdir(), 'switchboard-bench-skills-'));
const lockFile = join(dir, 'switchboard.lock');
const skillServer = (name) => ({ name, command: process.execPath, args: [join(ROOT_DIR, 'test/fixtures/servers/skills.mjs'), '--name', name, '--skills', 'git-workflow,refunds'] });
const write = (file, servers) => writeFileSync(file, JSON.stringify({ pinning: { lockFile }, servers }, null, 2)); // JSON is YAML
// The lock pins `locked` only; `plain` is added after, so the lock knows none of its skills.
const lockConfig = join(dir, 'lock.yaml');
write(lockConfig, [skillServer('locked')]);
execFileSync(process.execPath, [GATEWAY, 'lock', '-c', lockConfig], { stdio: ['ignore', 'ignore', 'inherit'] });
const configFile = join(dir, 'switchboard.yaml');
write(configFile, [skillServer('plain'), skillServer('locked')]);

const { proc: gw, url } = await startGatewayHttp(configFile, { env: { SWITCHBOARD_LOG_LEVEL: 'info', XDG_STATE_HOME: dir } });
const session = new HttpSession(url, createAgent(concurrency));
await session.initialize();

const CASES = {
  'read plain': ['resources/read', JSON.stringify({ uri: 'plain+skill://git-workflow/SKILL.md' })],
  'read locked': ['resources/read', JSON.stringify({ uri: 'locked+skill://git-workflow/SKILL.md' })],
  'tools/list': ['tools/list', '{}'],
  'skills/list': ['skills/list', '{}'],
};

/** Wall µs and gateway CPU µs per request of one case. */
async function measure(name) {
  const [method, body] = CASES[name];
  let left = requests;
  const worker = async () => {
    while (left-- > 0) await session.requestRaw(method, body);
  };
  const cpu0 = cpuNs(gw.pid);
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / requests;
  return { wall, cpu: (cpuNs(gw.pid) - cpu0) / 1000 / requests };
}

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** Alternated rounds of two cases; the median of each and of their per-round ratio. */
async function compare(base, other) {
  await measure(base);
  await measure(other);
  const pairs = [];
  for (let r = 0; r < rounds; r++) {
    const [first, second] = r % 2 === 0 ? [base, other] : [other, base];
    const a = await measure(first);
    const b = await measure(second);
    pairs.push(first === base ? { base: a, other: b } : { base: b, other: a });
  }
  for (const what of ['wall', 'cpu']) {
    const ratios = pairs.map((p) => p.other[what] / p.base[what]);
    console.log(
      `  ${what === 'wall' ? 'wall time  ' : 'gateway CPU'}: ${base} ${median(pairs.map((p) => p.base[what])).toFixed(1)} µs, ${other} ${median(pairs.map((p) => p.other[what])).toFixed(1)} µs; ratio ${median(ratios).toFixed(2)}× (range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×)`,
    );
  }
}

try {
  const read = await session.request('resources/read', { uri: 'locked+skill://git-workflow/SKILL.md' });
  if (!read?.contents?.[0]?.text?.includes('Served by locked')) throw new Error(`the pinned skill is not readable: ${JSON.stringify(read).slice(0, 200)}`);
  const listed = await session.request('skills/list', {});
  if (listed?.skills?.length !== 4) throw new Error(`skills/list gave ${listed?.skills?.length} skills, not 4`);
  console.log(`Skills through the built gateway (HTTP face, two stdio skill servers), c=${concurrency}, median of ${rounds} alternated rounds of ${requests}:`);
  console.log('SKILL.md read, server without skill pins vs with (the hold check asks skills/get first):');
  await compare('read plain', 'read locked');
  console.log('tools/list (catalog snapshot) vs skills/list (asks both servers, merges, pages):');
  await compare('tools/list', 'skills/list');
} finally {
  await session.close();
  await gw.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);

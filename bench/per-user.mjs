#!/usr/bin/env node
// What a per-user server costs a call once the user's connection is held (issue 33): the built
// gateway with two entries for one HTTP MCP server (test/fixtures/servers/api-key-server.mjs,
// `Authorization: Bearer <key>` required): `shared` with a static header, `mine` with
// `Bearer ${user.API_KEY}` filled from the caller's stored credential (seeded before start, so no
// connect page is involved). One client profile (a static token: the user is `profile:bench`)
// calls `whoami` on each, `--concurrency` at once, in alternated rounds so that drift in the
// machine's load falls on both. Figures: wall time per call and the gateway's CPU per call
// (/proc schedstat), and the per-user/shared ratio of each, from the same run. Needs `npm run build`.
//   node bench/per-user.mjs [--calls 4000] [--rounds 7] [--concurrency 8]

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { keyName, startApiKeyServer } from '../test/fixtures/servers/api-key-server.mjs';
import { createAgent, HttpSession } from './lib/http-client.mjs';
import { GATEWAY, ROOT_DIR } from './lib/paths.mjs';
import { cpuNs, installCleanupHooks, start } from './lib/procs.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '4000' }, rounds: { type: 'string', default: '7' }, concurrency: { type: 'string', default: '8' } } });
const calls = Number(values.calls);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
installCleanupHooks();

const dir = mkdtempSync(join(os.tmpdir(), 'switchboard-bench-per-user-'));
const key = randomBytes(32).toString('hex');
const sharedKey = `bench-shared-${randomBytes(8).toString('hex')}`;
const userKey = `bench-user-${randomBytes(8).toString('hex')}`;
const token = `bench-token-${randomBytes(8).toString('hex')}`;
const server = await startApiKeyServer();
const credentialsFile = join(dir, 'credentials.json');
const { openCredentialStore } = await import(pathToFileURL(join(ROOT_DIR, 'dist/state/open-credentials.js')).href);
const store = await openCredentialStore({ file: credentialsFile, env: { SWITCHBOARD_CREDENTIALS_KEY: key } });
await store.put('profile:bench', 'mine', { kind: 'secrets', values: { API_KEY: userKey } });
const config = {
  clients: [{ name: 'bench', token }],
  credentials: { file: credentialsFile },
  servers: [
    { name: 'shared', url: server.url, transport: 'streamable-http', headers: { Authorization: `Bearer ${sharedKey}` } },
    { name: 'mine', url: server.url, transport: 'streamable-http', headers: { Authorization: 'Bearer ${user.API_KEY}' } },
  ],
};
const configFile = join(dir, 'switchboard.yaml');
writeFileSync(configFile, JSON.stringify(config, null, 2)); // JSON is YAML

let onListening;
const listening = new Promise((resolve) => (onListening = resolve));
const gw = start(process.execPath, [GATEWAY, 'serve', '-c', configFile, '--http', '127.0.0.1:0'], {
  label: 'gateway',
  env: { ...process.env, SWITCHBOARD_CREDENTIALS_KEY: key, SWITCHBOARD_LOG_LEVEL: 'info', XDG_STATE_HOME: dir },
  onStderrLine: (line) => {
    const m = /listening on (https?:\/\/[^\s"'\\,]+)/.exec(line);
    if (m) onListening(m[1]);
  },
});
const url = await Promise.race([listening, gw.exitPromise.then(() => Promise.reject(new Error(`the gateway exited:\n${gw.stderrTail()}`)))]);

/** The bench client with the profile's token on every request (initialize rebuilds its headers midway). */
class AuthorizedSession extends HttpSession {
  get headers() {
    return this._headers;
  }
  set headers(h) {
    this._headers = { ...h, authorization: `Bearer ${token}` };
  }
}
const session = new AuthorizedSession(url, createAgent(concurrency));
await session.initialize();
const params = (name) => JSON.stringify({ name: `${name}__whoami`, arguments: {} });

/** Wall µs and gateway CPU µs per call for `calls` calls of `tool`, `concurrency` at once. */
async function measure(tool) {
  const body = params(tool);
  let left = calls;
  const worker = async () => {
    while (left-- > 0) {
      const reply = await session.requestRaw('tools/call', body);
      if (reply?.isError) throw new Error(`${tool}__whoami failed: ${JSON.stringify(reply).slice(0, 200)}`);
    }
  };
  const cpu0 = cpuNs(gw.pid);
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / calls;
  return { wall, cpu: (cpuNs(gw.pid) - cpu0) / 1000 / calls };
}

try {
  // Each entry reaches the server with its own key: the per-user one with the user's, filled per call's user.
  for (const [tool, key] of [
    ['shared', sharedKey],
    ['mine', userKey],
  ]) {
    const said = (await session.request('tools/call', { name: `${tool}__whoami`, arguments: {} }))?.content?.[0]?.text;
    if (said !== keyName(key)) throw new Error(`${tool}__whoami said ${said}, not ${keyName(key)}: the entry is not reached as configured`);
  }
  // Warm-up: the per-user connection is opened here (the first call), then held; both sides optimized.
  await measure('shared');
  await measure('mine');
  const pairs = [];
  for (let r = 0; r < rounds; r++) {
    const first = r % 2 === 0 ? 'shared' : 'mine';
    const a = await measure(first);
    const b = await measure(first === 'shared' ? 'mine' : 'shared');
    pairs.push(first === 'shared' ? { shared: a, mine: b } : { shared: b, mine: a });
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const line = (what) => {
    const ratios = pairs.map((p) => p.mine[what] / p.shared[what]);
    return `${what === 'wall' ? 'wall time' : 'gateway CPU'}: shared ${median(pairs.map((p) => p.shared[what])).toFixed(1)} µs, per-user ${median(pairs.map((p) => p.mine[what])).toFixed(1)} µs per call; ratio ${median(ratios).toFixed(3)}× (range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}×)`;
  };
  console.log(`tools/call through the built gateway to one HTTP server, shared entry vs per-user entry (connection held), c=${concurrency}, median of ${rounds} alternated rounds of ${calls}:`);
  console.log(`  ${line('wall')}`);
  console.log(`  ${line('cpu')}`);
} finally {
  await session.close();
  await gw.stop();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);

#!/usr/bin/env node
// Switchboard's benchmark harness: `npm run bench` (full, writes bench/RESULTS.md) and
// `npm run bench -- --quick` (CI smoke run, writes bench/.out/RESULTS-quick.md).
//
// One process tree per scenario, all on loopback: direct (raw client → echo server), Switchboard
// stdio→stdio and HTTP→stdio, mcp-proxy and supergateway HTTP→stdio, in front of
// bench/echo-server.mjs. Exits non-zero only when a scenario failed to run, never because a
// target was missed (timings on a shared machine are noisy).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, GATEWAY, MCP_PROXY_BIN, OUT_DIR, PATHS, ROOT_DIR, SUPERGATEWAY_BIN, removeConfigs, setGateway } from './lib/paths.mjs';
import { installCleanupHooks, stopAll } from './lib/procs.mjs';
import { Results } from './lib/results.mjs';
import { evaluateTargets, renderReport } from './lib/report.mjs';
import { callScenario, listScenario, memoryScenario, settings, startupScenario } from './lib/scenarios.mjs';

const SCENARIOS = ['call', 'list', 'startup', 'memory'];
const USAGE = `usage: node bench/run.mjs [options]
  --quick            short smoke run (1 run, 0.5 s per point); writes bench/.out/RESULTS-quick.md
  --only LIST        scenarios to run, comma-separated: ${SCENARIOS.join(', ')}
                     (a partial run writes bench/.out/RESULTS-partial.md, not bench/RESULTS.md)
  --paths LIST       tools/call paths: ${Object.keys(PATHS).join(', ')} (default: all)
  --runs N           runs per scenario (default 3, quick 1)
  --duration MS      measured milliseconds per tools/call point (default 3000, quick 500)
  --profile          instead: run the gateway under --cpu-prof (stdio→stdio, c=32, 100 B; with
                     --paths sb-http: HTTP→stdio) and print its top self-time functions
                     (bench/.out/prof/summary.txt)
  --gateway FILE     measure another build of the gateway (its main.js) instead of dist/main.js;
                     the report is then written to bench/.out/, never to bench/RESULTS.md
  --help`;

let args;
try {
  args = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      paths: { type: 'string' },
      runs: { type: 'string' },
      duration: { type: 'string' },
      profile: { type: 'boolean', default: false },
      gateway: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  }).values;
} catch (err) {
  console.error(`${err.message}\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

const list = (v, allowed, what) => {
  if (v === undefined) return allowed;
  const out = v.split(',').map((x) => x.trim()).filter(Boolean);
  for (const x of out) {
    if (!allowed.includes(x)) {
      console.error(`unknown ${what} "${x}" (one of: ${allowed.join(', ')})`);
      process.exit(2);
    }
  }
  return out;
};
const only = list(args.only, SCENARIOS, 'scenario');
let paths = list(args.paths, Object.keys(PATHS), 'path');
const s = settings(args.quick);
if (args.runs !== undefined) s.runs = Math.max(1, Number(args.runs) | 0);
if (args.duration !== undefined) s.durationMs = Math.max(100, Number(args.duration) | 0);

if (args.gateway !== undefined) {
  const file = resolve(args.gateway);
  if (!existsSync(file)) {
    console.error(`--gateway: no such file ${file}`);
    process.exit(2);
  }
  setGateway(file);
}

installCleanupHooks();
mkdirSync(OUT_DIR, { recursive: true });
const log = (...a) => console.log(...a);
const wallStart = Date.now();
const results = new Results();

// --- prerequisites: the built gateway and the pinned peers -----------------------------------

function ensureBuilt() {
  if (existsSync(GATEWAY) || args.gateway !== undefined) return;
  log('bench: dist/main.js missing, running npm run build');
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT_DIR, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(GATEWAY)) {
    console.error(`${r.stdout}\n${r.stderr}\nbench: npm run build failed`);
    process.exit(1);
  }
}

function ensurePeers() {
  if (existsSync(MCP_PROXY_BIN) && existsSync(SUPERGATEWAY_BIN)) return true;
  log('bench: installing the pinned peer gateways (npm ci --prefix bench)');
  const r = spawnSync('npm', ['ci', '--prefix', BENCH_DIR, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0 || !existsSync(MCP_PROXY_BIN) || !existsSync(SUPERGATEWAY_BIN)) {
    const why = `npm ci --prefix bench failed (exit ${r.status}): ${(r.stderr || r.stdout || '').trim().slice(-1500)}`;
    console.error(`bench: ${why}`);
    results.fail('install peers', why);
    return false;
  }
  return true;
}

/** A dist/ older than src/ measures yesterday's gateway: say so (the report says it too). */
function staleBuild() {
  try {
    const built = statSync(GATEWAY).mtimeMs;
    const src = join(ROOT_DIR, 'src');
    return readdirSync(src, { recursive: true }).some((f) => String(f).endsWith('.ts') && statSync(join(src, String(f))).mtimeMs > built);
  } catch {
    return false;
  }
}

ensureBuilt();
const stale = args.gateway === undefined && staleBuild();
if (stale) log('bench: warning: some src/ files are newer than dist/main.js — run `npm run build` first to measure them');
const needPeers = paths.some((p) => PATHS[p].peer) && (args.profile ? false : true);
if (needPeers && !ensurePeers()) paths = paths.filter((p) => !PATHS[p].peer);
const peers = paths.filter((p) => PATHS[p].peer);

if (args.profile) {
  const { profileGateway } = await import('./lib/profile.mjs');
  try {
    const path = args.paths === 'sb-http' ? 'sb-http' : 'sb-stdio';
    log(await profileGateway({ path, durationMs: args.duration ? s.durationMs : 3000 }));
  } catch (err) {
    console.error(err);
    await stopAll();
    process.exit(1);
  }
  await stopAll();
  removeConfigs();
  process.exit(0);
}

// --- the runs ------------------------------------------------------------------------------------

const loadBefore = os.loadavg().map((x) => x.toFixed(2)).join(' / ');
log(`bench: ${args.quick ? 'quick' : 'full'} run — ${s.runs} run(s), scenarios ${only.join(', ')}, paths ${paths.join(', ')}; load average ${loadBefore}`);

// A scenario that hangs (a gateway that stops answering) is ended: killing its processes makes
// every pending request fail, so the scenario throws instead of waiting forever.
const SCENARIO_TIMEOUT_MS = args.quick ? 60_000 : 300_000;

async function attempt(name, fn) {
  const t0 = Date.now();
  let timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    log(`  ${name}: no progress after ${SCENARIO_TIMEOUT_MS / 1000} s, stopping its processes`);
    void stopAll();
  }, SCENARIO_TIMEOUT_MS);
  try {
    await fn();
    if (timedOut) throw new Error(`timed out after ${SCENARIO_TIMEOUT_MS / 1000} s`);
    log(`  ${name}: ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (err) {
    log(`  ${name}: FAILED — ${String(err?.message ?? err).split('\n')[0]}`);
    results.fail(name, err);
  } finally {
    clearTimeout(watchdog);
    await stopAll(); // anything a failing scenario left behind
  }
}

const show = (scenario, key) => (row, figure, value) => {
  results.add(scenario, key ?? row, key ? `${row}|${figure}` : figure, value);
};

for (let run = 1; run <= s.runs; run++) {
  log(`run ${run}/${s.runs}`);
  if (only.includes('call')) {
    for (const path of paths) {
      await attempt(`call ${path}`, async () => {
        await callScenario(path, s, show('call', path));
        const f = (row) => `${Math.round(results.values('call', path, `${row}|calls/s`).at(-1))}/s p50 ${Math.round(results.values('call', path, `${row}|p50 µs`).at(-1))} µs`;
        log(`    ${PATHS[path].label}: 100B c=1 ${f('100B c=1')}; c=32 ${f('100B c=32')}; 64KiB c=32 ${f('64KiB c=32')}`);
      });
    }
  }
  if (only.includes('list')) await attempt('list', () => listScenario(s, show('list'), { peers }));
  if (only.includes('startup')) await attempt('startup', () => startupScenario(s, show('startup'), { peers }));
  if (only.includes('memory')) await attempt('memory', () => memoryScenario(s, show('memory'), { peers }));
}

// --- the report ----------------------------------------------------------------------------------

function versionOf(pkgJson) {
  try {
    return JSON.parse(readFileSync(pkgJson, 'utf8')).version;
  } catch {
    return '?';
  }
}
function gitDescribe() {
  const r = spawnSync('git', ['-C', ROOT_DIR, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  if (r.status !== 0) return 'no git';
  const dirty = spawnSync('git', ['-C', ROOT_DIR, 'status', '--porcelain', '--', 'src'], { encoding: 'utf8' }).stdout.trim();
  return `commit ${r.stdout.trim()}${dirty ? ' + uncommitted changes in src/' : ''}`;
}
function cpuModel() {
  try {
    const m = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) return m[1].trim();
  } catch {
    /* not Linux */
  }
  return os.cpus()[0]?.model ?? 'unknown CPU';
}

const meta = {
  quick: args.quick,
  date: new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'),
  cpu: cpuModel(),
  cores: os.availableParallelism?.() ?? os.cpus().length,
  memGiB: (os.totalmem() / 2 ** 30).toFixed(0),
  os: `${os.type()} ${os.release()}`,
  loadBefore,
  loadAfter: os.loadavg().map((x) => x.toFixed(2)).join(' / '),
  node: process.version,
  gateway:
    args.gateway !== undefined
      ? `from ${GATEWAY} (--gateway)`
      : `${versionOf(join(ROOT_DIR, 'package.json'))} (${gitDescribe()}${stale ? '; WARNING: dist/ older than src/' : ''})`,
  peerVersions: `mcp-proxy ${versionOf(join(BENCH_DIR, 'node_modules', 'mcp-proxy', 'package.json'))}, supergateway ${versionOf(join(BENCH_DIR, 'node_modules', 'supergateway', 'package.json'))}`,
  runs: s.runs,
  warmupMs: s.warmupMs,
  durationMs: s.durationMs,
  wallSeconds: Math.round((Date.now() - wallStart) / 1000),
  paths,
};

const partial = !args.quick && (only.length !== SCENARIOS.length || paths.length !== Object.keys(PATHS).length || args.gateway !== undefined);
const mdFile = args.quick ? join(OUT_DIR, 'RESULTS-quick.md') : partial ? join(OUT_DIR, 'RESULTS-partial.md') : join(BENCH_DIR, 'RESULTS.md');
const jsonFile = join(OUT_DIR, args.quick ? 'results-quick.json' : partial ? 'results-partial.json' : 'results.json');
writeFileSync(mdFile, renderReport(results, meta));
writeFileSync(jsonFile, JSON.stringify({ meta, settings: s, ...results.toJSON() }, null, 2) + '\n');

log('');
for (const t of evaluateTargets(results)) {
  if (t.ok !== undefined) log(`${t.ok ? 'ok  ' : 'MISS'}  ${t.name}: ${t.measured} (goal ${t.goal})`);
}
log(`\nbench: wrote ${relative(process.cwd(), mdFile)} and ${relative(process.cwd(), jsonFile)} in ${meta.wallSeconds} s`);
await stopAll();
removeConfigs();
if (results.failures.length > 0) {
  console.error(`bench: ${results.failures.length} scenario(s) failed to run: ${results.failures.map((f) => f.scenario).join(', ')}`);
  process.exit(1);
}
process.exit(0);

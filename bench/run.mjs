#!/usr/bin/env node
// Switchboard's benchmark harness: `npm run bench` (full, writes bench/RESULTS.md) and
// `npm run bench -- --quick` (CI smoke run, < 1 min, writes bench/.out/RESULTS-quick.md).
//
// Paths in front of bench/echo-server.mjs: direct, Switchboard stdio→stdio and HTTP→stdio,
// mcp-proxy and supergateway. Every comparison is paired inside a run (lib/paired.mjs,
// lib/startup.mjs) and judged on the median of per-run ratios. Exits non-zero only when a
// scenario failed to run, never because a target was missed.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pairedCallRun } from './lib/paired.mjs';
import { BASELINE, BENCH_DIR, GATEWAY, OUT_DIR, PATHS, removeConfigs, setBaseline, setGateway } from './lib/paths.mjs';
import { buildIsStale, ensureBuilt, ensureCRelay, ensurePeers, gitDescribe, loadavgText, machineMeta, versionOf } from './lib/prereq.mjs';
import { installCleanupHooks, stopAll } from './lib/procs.mjs';
import { consoleSummary, renderReport } from './lib/report.mjs';
import { Results, summary } from './lib/results.mjs';
import { listScenario, memoryScenario } from './lib/scenarios.mjs';
import { POINTS, settings } from './lib/settings.mjs';
import { cliStartRun, fiftyServersRun, firstAnswerRun, oneServerRun } from './lib/startup.mjs';
import { load1, startBurners, stopBurners } from './lib/sysload.mjs';

const SCENARIOS = ['call', 'startup', 'list', 'memory'];
const USAGE = `usage: node bench/run.mjs [options]
  --quick            CI smoke run (2 runs, short windows, < 1 min); writes bench/.out/RESULTS-quick.md
  --only LIST        scenarios, comma-separated: ${SCENARIOS.join(', ')}
                     (a partial run writes bench/.out/RESULTS-partial.md, not bench/RESULTS.md)
  --paths LIST       tools/call paths: ${Object.keys(PATHS).join(', ')} (default: all but
                     sb-http-nometrics and base-*; full runs add the byte relays
                     relay-node and relay-c, the latter when \`cc\` is there)
  --metrics-cost     also measure sb-http-nometrics (SWITCHBOARD_METRICS=off) beside sb-http: the
                     report gives sb-http ÷ sb-http-nometrics (what counting every call costs)
  --runs N           paired runs (default 3, quick 2)
  --duration MS      measured ms per path per tools/call point (default 3000, quick 400)
  --burn N           start N busy-loop processes for the whole run (how figures move with load);
                     the report goes to bench/.out/
  --profile          instead: profile the gateway (stdio→stdio, c=32, 100 B; --paths sb-http for
                     HTTP→stdio, sb-http-modern for a stateless client, floor-stdio or floor-http
                     for the floor proxy) with Linux perf where it
                     works, else V8 --cpu-prof
  --profiler NAME    with --profile: auto (default), perf or cpu-prof
  --point KEY        with --profile: the tools/call point to load it with (default "100B c=32"; one of
                     ${POINTS.map((p) => `"${p.key}"`).join(', ')})
  --gateway FILE     measure another build's main.js instead of dist/main.js (report to bench/.out/)
  --baseline FILE    also measure another build's main.js (an older main) on base-stdio and base-http,
                     in the same windows: the report gives CPU per call ÷ that build's
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
      burn: { type: 'string' },
      profile: { type: 'boolean', default: false },
      profiler: { type: 'string', default: 'auto' },
      point: { type: 'string', default: '100B c=32' },
      gateway: { type: 'string' },
      baseline: { type: 'string' },
      'metrics-cost': { type: 'boolean', default: false },
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
  const out = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const bad = out.find((x) => !allowed.includes(x));
  if (bad !== undefined) {
    console.error(`unknown ${what} "${bad}" (one of: ${allowed.join(', ')})`);
    process.exit(2);
  }
  return out;
};
const only = list(args.only, SCENARIOS, 'scenario');
let paths = args.paths === undefined ? Object.keys(PATHS).filter((p) => !PATHS[p].optIn) : list(args.paths, Object.keys(PATHS), 'path');
if (args['metrics-cost']) for (const p of ['sb-http', 'sb-http-nometrics']) if (!paths.includes(p)) paths.push(p);
const s = settings(args.quick);
if (args.runs !== undefined) s.runs = Math.max(1, Number(args.runs) | 0);
if (args.duration !== undefined) s.durationMs = Math.max(100, Number(args.duration) | 0);
const burn = Math.max(0, Number(args.burn ?? 0) | 0);
if (!['auto', 'perf', 'cpu-prof'].includes(args.profiler)) {
  console.error(`--profiler: auto, perf or cpu-prof\n${USAGE}`);
  process.exit(2);
}
/** A build's main.js given on the command line; exits when there is no such file. */
function buildFile(option) {
  const file = resolve(args[option]);
  if (!existsSync(file)) {
    console.error(`--${option}: no such file ${file}`);
    process.exit(2);
  }
  return file;
}
if (args.baseline !== undefined) {
  setBaseline(buildFile('baseline'));
  if (args.paths === undefined) paths.push('base-stdio', 'base-http');
}
if (args.gateway !== undefined) setGateway(buildFile('gateway'));
// Full runs measure the byte relays beside the floor; quick runs (CI) skip them.
if (args.paths === undefined && !args.quick && !args.profile) paths.push('relay-node', 'relay-c');

installCleanupHooks();
mkdirSync(OUT_DIR, { recursive: true });
const log = (...a) => console.log(...a);
const wallStart = Date.now();
const results = new Results();
const command = `${process.env.npm_lifecycle_event === 'bench' ? 'npm run bench' : 'node bench/run.mjs'}${process.argv.length > 2 ? `${process.env.npm_lifecycle_event === 'bench' ? ' --' : ''} ${process.argv.slice(2).join(' ')}` : ''}`;

if (args.gateway === undefined) {
  const err = ensureBuilt(log);
  if (err) {
    console.error(err);
    process.exit(1);
  }
}
if (!args.profile && paths.some((p) => PATHS[p].peer)) {
  const err = ensurePeers(log);
  if (err) {
    console.error(`bench: ${err}`);
    results.fail('install peers', err);
    paths = paths.filter((p) => !PATHS[p].peer);
  }
}
const peers = paths.filter((p) => PATHS[p].peer);
if (!args.profile && paths.includes('relay-c')) {
  const err = ensureCRelay();
  if (err) {
    log(`bench: relay-c left out: ${err}`);
    paths = paths.filter((p) => p !== 'relay-c');
  }
}

if (args.profile) {
  const { profileGateway } = await import('./lib/profile.mjs');
  let code = 0;
  try {
    // One of the gateway's own paths (sb-stdio, sb-http, sb-http-modern...), or the floor proxy's
    // (floor-stdio, floor-http) to set beside it; stdio→stdio by default.
    const profilable = (p) => (p.startsWith('sb-') || p.startsWith('floor-')) && PATHS[p] !== undefined;
    const path = args.paths !== undefined && profilable(args.paths) ? args.paths : 'sb-stdio';
    const point = POINTS.find((p) => p.key === args.point);
    if (!point) throw new Error(`--point: one of ${POINTS.map((p) => `"${p.key}"`).join(', ')}`);
    log(await profileGateway({ path, point, durationMs: args.duration ? s.durationMs : 3000, profiler: args.profiler }));
  } catch (err) {
    console.error(err);
    code = 1;
  }
  await stopAll();
  removeConfigs();
  process.exit(code);
}

// --- the runs ------------------------------------------------------------------------------------

const loadBefore = loadavgText();
log(`bench: ${args.quick ? 'quick' : 'full'} run — ${s.runs} runs, scenarios ${only.join(', ')}, paths ${paths.join(', ')}; load average ${loadBefore}${burn ? `; ${burn} burners` : ''}`);
const burners = startBurners(burn);
const keep = new Set(burners.map((b) => b.pid));
const SCENARIO_TIMEOUT_MS = args.quick ? 60_000 : 300_000;

/** Runs one scenario of one run; a failure (or a hang, ended by a watchdog) is recorded, not thrown. */
async function attempt(name, run, fn, timeoutMs = SCENARIO_TIMEOUT_MS) {
  const t0 = Date.now();
  let timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    log(`  ${name}: no progress after ${timeoutMs / 1000} s, stopping its processes`);
    void stopAll(keep);
  }, timeoutMs);
  try {
    await fn();
    if (timedOut) throw new Error(`timed out after ${timeoutMs / 1000} s`);
    log(`  ${name}: ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (err) {
    log(`  ${name}: FAILED — ${String(err?.message ?? err).split('\n')[0]}`);
    results.fail(name, err, run);
  } finally {
    clearTimeout(watchdog);
    await stopAll(keep); // anything a failing scenario left behind
  }
}

/** rec(row, figure, value) for one scenario and run; withLoad also notes the load average per row. */
const recorder = (scenario, run, withLoad) => (row, figure, value) => {
  results.add(scenario, row, figure, value, run);
  if (withLoad) results.add(scenario, row, 'load', load1(), run);
};

for (let run = 1; run <= s.runs; run++) {
  log(`run ${run}/${s.runs} (load ${load1().toFixed(2)})`);
  if (only.includes('call')) {
    await attempt(
      'call',
      run,
      () =>
        pairedCallRun({
          run,
          paths,
          s,
          rec: (path, figure, value) => results.add('call', path, figure, value, run),
          fail: (path, err) => {
            log(`    ${path}: FAILED — ${String(err?.message ?? err).split('\n')[0]}`);
            results.fail(`call ${path}`, err, run);
          },
          log,
        }),
      3 * SCENARIO_TIMEOUT_MS, // every path at every point; each slice has its own bound
    );
  }
  if (only.includes('startup')) {
    const rec = recorder('startup', run, true);
    const ctx = { run, s, rec, recMemory: rec, paths: ['sb-http', ...peers] };
    await attempt('startup: CLI check vs node -e 0', run, () => cliStartRun(ctx));
    await attempt('startup: one server', run, () => oneServerRun(ctx));
    await attempt('startup: 50 servers', run, () => fiftyServersRun(ctx));
    if (s.peersElsewhere && peers.length > 0) await attempt('startup: first answer vs peers', run, () => firstAnswerRun(ctx));
  }
  const others = { peers: s.peersElsewhere ? peers : [] };
  if (only.includes('list') && run <= s.listRuns) await attempt('list', run, () => listScenario(s, recorder('list', run, true), others));
  if (only.includes('memory') && run <= s.memoryRuns) await attempt('memory', run, () => memoryScenario(s, recorder('memory', run, true), others));
}
await stopBurners(burners);

// --- the report ----------------------------------------------------------------------------------

const during = summary(
  ['call', 'startup', 'list', 'memory'].flatMap((sc) =>
    Object.entries(results.data[sc] ?? {}).flatMap(([, figs]) =>
      Object.entries(figs)
        .filter(([f]) => f.endsWith('load'))
        .flatMap(([, byRun]) => Object.values(byRun)),
    ),
  ),
);
const meta = {
  ...machineMeta(),
  quick: args.quick,
  command,
  date: new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC'),
  loadBefore,
  loadAfter: loadavgText(),
  loadDuring: during.n ? `${during.min.toFixed(2)}–${during.max.toFixed(2)}` : '—',
  burners: burn,
  gateway:
    args.gateway !== undefined ? `from ${GATEWAY} (--gateway)` : `${versionOf(join(BENCH_DIR, '..', 'package.json'))} (${gitDescribe()}${buildIsStale() ? '; WARNING: dist/ older than src/' : ''})`,
  baseline: BASELINE === undefined ? undefined : `${BASELINE} (${gitDescribe(resolve(BASELINE, '..', '..'))})`,
  runs: s.runs,
  listRuns: Math.min(s.runs, s.listRuns),
  memoryRuns: Math.min(s.runs, s.memoryRuns),
  mirror: s.mirror,
  warmupMs: s.warmupMs,
  rewarmMs: s.rewarmMs,
  durationMs: s.durationMs,
  wallSeconds: Math.round((Date.now() - wallStart) / 1000),
  paths,
};

// A full run measures every path but the opt-in ones (an extra opt-in path still writes RESULTS.md).
const everyDefaultPath = Object.keys(PATHS).every((p) => PATHS[p].optIn || paths.includes(p));
const partial = !args.quick && (only.length !== SCENARIOS.length || !everyDefaultPath || args.gateway !== undefined || burn > 0);
const name = args.quick ? 'quick' : partial ? 'partial' : '';
const mdFile = name ? join(OUT_DIR, `RESULTS-${name}.md`) : join(BENCH_DIR, 'RESULTS.md');
const jsonFile = join(OUT_DIR, name ? `results-${name}.json` : 'results.json');
writeFileSync(mdFile, renderReport(results, meta));
writeFileSync(jsonFile, `${JSON.stringify({ meta, settings: s, ...results.toJSON() }, null, 2)}\n`);

log(consoleSummary(results, paths));
log(`\nbench: wrote ${relative(process.cwd(), mdFile)} and ${relative(process.cwd(), jsonFile)} in ${meta.wallSeconds} s`);
await stopAll();
removeConfigs();
if (results.failures.length > 0) {
  console.error(`bench: ${results.failures.length} scenario(s) failed to run: ${results.failures.map((f) => f.scenario).join(', ')}`);
  process.exit(1);
}
process.exit(0);

#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16) against the
// gateway. Needs a build (`npm run build`); builds nothing itself. See conformance/README.md.
//
//   node scripts/conformance.mjs                  server scenarios through the gateway
//   node scripts/conformance.mjs --client         client scenarios against our outbound client
//   node scripts/conformance.mjs --client --requirements 2026-07-28
//                                                 the client scenarios a revision requires (suite
//                                                 0.2.0-alpha.12), auth/* as expected failures
//
// Server mode writes a temporary config whose servers are the conformance fixture
// (test/fixtures/servers/conformance-server.mjs, prefix "") and server-everything (default
// prefix, to show that aggregation changes nothing), starts `dist/main.js serve --http
// 127.0.0.1:0`, takes the URL from its log, runs `conformance server`, prints a summary, stops
// the gateway (SIGTERM, then its whole process group) and exits with the suite's exit code.
//
// Flags:
//   --scenario NAME          one scenario (passed through)
//   --suite active|all|pending   server scenarios to run (passed through; default active)
//   --requirements REV       instead of --suite: exactly the scenarios revision REV requires, at
//                            its wire (e.g. 2026-07-28 or 2025-11-25); uses suite 0.2.0-alpha.12
//   --out DIR                results folder (default: a new temp folder); summary.json goes there
//   --fixture-only           config with the fixture alone (no server-everything)
//   --direct                 run against the fixture's own HTTP harness instead of the gateway
//   --client                 client scenarios (initialize, tools_call,
//                            elicitation-sep1034-client-defaults, sse-retry, then the auth suite:
//                            the 14 auth/* scenarios of spec 2025-11-25, with the suite's
//                            0.2.0-alpha.12, which checks them most closely) with
//                            conformance/client-driver.mjs, inside a private network namespace
//   --no-auth                client mode without the auth suite
//                            With --requirements REV: the client scenarios REV requires (auth/*
//                            among them), with the baseline conformance/expected-failures-client.yaml;
//                            with --scenario, that one scenario at REV's wire
//   --no-netns               client mode without `unshare -n` (the suite's test servers then
//                            listen on every interface while they run)
//   --expected-failures FILE baseline (default conformance/expected-failures.yaml, or
//                            conformance/expected-failures-client.yaml with --client --requirements;
//                            "" for none)
//   --verbose                the suite's verbose output
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// --requirements needs the 0.2 line (still alpha on npm; `latest` is 0.1.16): the frozen check set
// of one revision, at that revision's wire (2026-07-28 = stateless requests).
const SUITE_VERSION = process.argv.includes('--requirements') ? '0.2.0-alpha.12' : '0.1.16';
const SUITE_PACKAGES = ['-p', 'node@22', '-p', `@modelcontextprotocol/conformance@${SUITE_VERSION}`];
/** Without --requirements the auth suite still runs with the 0.2 line: more checks per scenario (RFC 9207 iss, metadata). */
const AUTH_SUITE_PACKAGES = ['-p', 'node@22', '-p', '@modelcontextprotocol/conformance@0.2.0-alpha.12'];
const AUTH_SPEC_VERSION = '2025-11-25';
const CLIENT_SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];
const FIXTURE = path.join(ROOT, 'test/fixtures/servers/conformance-server.mjs');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const DRIVER = path.join(ROOT, 'conformance/client-driver.mjs');
const MODERN_FIXTURE = path.join(ROOT, 'test/fixtures/servers/modern-conformance.mjs');
const MODERN_ELICITATION_TOOL = 'test_input_required_result_elicitation';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

let flags;
try {
  ({ values: flags } = parseArgs({
    options: {
      scenario: { type: 'string' },
      suite: { type: 'string' },
      requirements: { type: 'string' },
      out: { type: 'string' },
      'fixture-only': { type: 'boolean' },
      direct: { type: 'boolean' },
      client: { type: 'boolean' },
      'no-netns': { type: 'boolean' },
      'no-auth': { type: 'boolean' },
      'expected-failures': { type: 'string' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }));
} catch (err) {
  console.error(`conformance: ${err.message}`);
  process.exit(2);
}
if (flags.help) {
  const text = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8');
  console.log(
    text
      .split('\n')
      .filter((l) => l.startsWith('//'))
      .map((l) => l.slice(3))
      .join('\n'),
  );
  process.exit(0);
}

const say = (msg) => console.log(`[conformance] ${msg}`);
const die = (msg) => {
  console.error(`[conformance] ${msg}`);
  process.exit(2);
};

// Client mode's revision runs have their own baseline (auth/* until OAuth is wired outbound).
const defaultBaseline = flags.client && flags.requirements !== undefined ? 'conformance/expected-failures-client.yaml' : 'conformance/expected-failures.yaml';
const baseline = flags['expected-failures'] ?? path.join(ROOT, defaultBaseline);
if (baseline !== '' && !fs.existsSync(baseline)) die(`no expected-failures file at ${baseline}`);
const outDir = path.resolve(flags.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-conformance-')));
fs.mkdirSync(outDir, { recursive: true });

/** Processes we started and must not leave behind: { child, group }. */
const started = new Set();

let interruptedBy;
process.on('SIGINT', () => interrupted('SIGINT'));
process.on('SIGTERM', () => interrupted('SIGTERM'));
async function interrupted(signal) {
  if (interruptedBy) return;
  interruptedBy = signal;
  say(`${signal}: stopping`);
  await stopAll();
  process.exit(130);
}

/** Stops everything we started, newest first (the suite before the server it talks to). */
async function stopAll() {
  for (const entry of [...started].reverse()) await stop(entry);
}

/** SIGTERM, wait for exit; then SIGTERM/SIGKILL what is left of its process group. */
async function stop(entry) {
  const { child, group } = entry;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  if (!exited()) {
    const done = new Promise((resolve) => child.once('exit', resolve));
    try {
      child.kill('SIGTERM');
    } catch {}
    const timedOut = await Promise.race([done.then(() => false), sleep(STOP_TIMEOUT_MS).then(() => true)]);
    if (timedOut) {
      say(`pid ${child.pid} did not exit within ${STOP_TIMEOUT_MS / 1000}s of SIGTERM: SIGKILL`);
      signalGroup(child.pid, 'SIGKILL');
      await done;
    }
  }
  if (group && groupAlive(child.pid)) {
    // Grandchildren (the gateway's stdio servers) that outlived their parent.
    signalGroup(child.pid, 'SIGTERM');
    for (let i = 0; i < 50 && groupAlive(child.pid); i++) await sleep(100);
    if (groupAlive(child.pid)) signalGroup(child.pid, 'SIGKILL');
  }
  started.delete(entry);
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {}
}
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts a server process in its own process group and waits for "listening on URL" on its
 * stderr (JSON log lines or plain text). Its stderr is copied to `logFile`.
 */
async function startServer(label, args, logFile) {
  const log = fs.createWriteStream(logFile);
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const entry = { child, group: true };
  started.add(entry);
  const lines = readline.createInterface({ input: child.stderr });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not report its URL within ${START_TIMEOUT_MS / 1000}s (log: ${logFile})`)), START_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${signal ?? code}) before listening (log: ${logFile})`));
    });
    lines.on('line', (line) => {
      log.write(`${line}\n`);
      let text = line;
      try {
        text = JSON.parse(line).msg ?? line;
      } catch {}
      const m = /listening on (https?:\/\/\S+)/.exec(String(text));
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  child.removeAllListeners('exit');
  child.once('exit', () => log.end());
  return { entry, url };
}

/**
 * Runs a command in its own process group (npx and the suite's Node below it: on an interrupt
 * the whole group goes) with inherited stdout/stderr; resolves with its exit code.
 */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], detached: true, ...options });
    const entry = { child, group: true };
    started.add(entry);
    child.once('error', (err) => {
      console.error(`[conformance] ${command}: ${err.message}`);
      started.delete(entry);
      resolve(127);
    });
    child.once('exit', (code, signal) => {
      started.delete(entry);
      resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1));
    });
  });
}

/**
 * `fixtureUrl`: the fixture served over Streamable HTTP instead of stdio. The 2026-07-28 run
 * needs it: the suite abandons many input rounds half-way, and each abandoned round keeps a
 * bridged call in flight on the fixture; over stdio a 2025 server's requests to the client say
 * nothing of which call they belong to, so with several in flight the gateway rightly refuses
 * to guess, while over HTTP each arrives on its call's own stream.
 */
function gatewayConfig(fixtureUrl) {
  const servers = [fixtureUrl ? { name: 'conformance', url: fixtureUrl, transport: 'streamable-http', prefix: '' } : { name: 'conformance', command: process.execPath, args: [FIXTURE], prefix: '' }];
  if (fixtureUrl) {
    // Its input_required results must carry keys only the server can choose ("user_name"): that
    // one tool comes from a 2026-07-28 server, passed through; the 2025 fixture's is hidden.
    servers[0].tools = { deny: [MODERN_ELICITATION_TOOL] };
    servers.push({ name: 'modern', command: process.execPath, args: [MODERN_FIXTURE], prefix: '' });
  }
  if (!flags['fixture-only']) servers.push({ name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'] });
  return { listen: { host: '127.0.0.1', port: 0, path: '/mcp' }, servers };
}

/** Scenario result folders the suite wrote in outDir since `before` (auth ones in outDir/auth/). */
function newResults(before) {
  const found = [];
  const scan = (sub) => {
    const dir = path.join(outDir, sub);
    if (!fs.existsSync(dir)) return;
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const rel = sub ? `${sub}/${d.name}` : d.name;
      if (d.isDirectory() && !before.has(rel) && fs.existsSync(path.join(outDir, rel, 'checks.json'))) found.push(rel);
    }
  };
  scan('');
  scan('auth');
  return found.sort();
}

/** Every result folder there is now, as newResults names them. */
function existingResults() {
  const all = new Set(fs.readdirSync(outDir));
  if (fs.existsSync(path.join(outDir, 'auth'))) for (const d of fs.readdirSync(path.join(outDir, 'auth'))) all.add(`auth/${d}`);
  return all;
}

function summarize(dirs, prefix) {
  const rows = [];
  for (const dir of dirs) {
    const scenario = dir.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '').replace(prefix, '');
    let checks = [];
    try {
      checks = JSON.parse(fs.readFileSync(path.join(outDir, dir, 'checks.json'), 'utf8'));
    } catch {}
    const count = (s) => checks.filter((c) => c.status === s).length;
    const failing = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => ({ id: c.id, status: c.status, message: c.errorMessage ?? c.description }));
    rows.push({ scenario, dir, passed: failing.length === 0, success: count('SUCCESS'), failure: count('FAILURE'), warning: count('WARNING'), failing });
  }
  return rows;
}

function printSummary(rows, title) {
  console.log(`\n=== ${title} ===`);
  const width = Math.max(8, ...rows.map((r) => r.scenario.length));
  for (const r of rows) {
    const warn = r.warning ? `, ${r.warning} warning${r.warning > 1 ? 's' : ''}` : '';
    console.log(`${r.passed ? 'PASS' : 'FAIL'}  ${r.scenario.padEnd(width)}  ${r.success} ok, ${r.failure} failed${warn}`);
  }
  const bad = rows.filter((r) => !r.passed);
  if (bad.length) {
    console.log('\nFailing checks:');
    for (const r of bad) for (const f of r.failing) console.log(`  ${r.scenario}: [${f.status}] ${f.id}: ${f.message}`);
  }
  const sum = (k) => rows.reduce((n, r) => n + r[k], 0);
  console.log(`\nScenarios: ${rows.length - bad.length}/${rows.length} passed. Checks: ${sum('success')} ok, ${sum('failure')} failed, ${sum('warning')} warnings.`);
}

function suiteArgs(rest, packages = SUITE_PACKAGES) {
  return ['-y', ...packages, '--', 'conformance', ...rest];
}

async function serverMode() {
  if (!flags.direct && !fs.existsSync(path.join(ROOT, 'dist/main.js'))) die('dist/main.js is missing: run `npm run build` first');
  let target;
  let mode;
  if (flags.direct) {
    mode = 'direct (fixture HTTP harness)';
    target = await startServer('fixture', [FIXTURE, '--http', '127.0.0.1:0'], path.join(outDir, 'fixture.log'));
  } else {
    const fixture = flags.requirements === '2026-07-28' ? await startServer('fixture', [FIXTURE, '--http', '127.0.0.1:0'], path.join(outDir, 'fixture.log')) : undefined;
    const config = gatewayConfig(fixture?.url);
    mode = `gateway (${config.servers.map((s) => s.name).join(' + ')})`;
    const configFile = path.join(outDir, 'switchboard.yaml');
    // JSON is YAML: no quoting questions.
    fs.writeFileSync(configFile, `# written by scripts/conformance.mjs\n${JSON.stringify(config, null, 2)}\n`);
    target = await startServer('gateway', [path.join(ROOT, 'dist/main.js'), 'serve', '-c', configFile, '--http', '127.0.0.1:0'], path.join(outDir, 'gateway.log'));
  }
  say(`${mode} at ${target.url}; results in ${outDir}`);

  const before = new Set(fs.readdirSync(outDir));
  const rest = ['server', '--url', target.url, '-o', outDir];
  if (flags.scenario) rest.push('--scenario', flags.scenario);
  if (flags.requirements) rest.push('--requirements', flags.requirements);
  else if (flags.suite) rest.push('--suite', flags.suite);
  if (baseline !== '') rest.push('--expected-failures', baseline);
  if (flags.verbose) rest.push('--verbose');
  let code;
  try {
    code = await run('npx', suiteArgs(rest));
  } finally {
    await stop(target.entry);
  }

  const rows = summarize(newResults(before), /^server-/);
  printSummary(rows, `server scenarios, ${mode}`);
  fs.writeFileSync(path.join(outDir, 'summary.json'), JSON.stringify({ kind: 'server', mode, url: target.url, exitCode: code, scenarios: rows }, null, 2));
  say(`suite exit code ${code}; results in ${outDir}`);
  return code;
}

/** The folder holding the suite's `conformance` and Node 22 `node` binaries (npx cache). */
function suiteBinDir(packages = SUITE_PACKAGES) {
  const probe = spawnSync('npx', ['-y', ...packages, '--', 'sh', '-c', 'dirname "$(command -v conformance)"'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const dir = probe.stdout?.trim().split('\n').pop();
  if (probe.status !== 0 || !dir || !fs.existsSync(path.join(dir, 'conformance'))) die('could not install or find the conformance suite with npx');
  return dir;
}

async function clientMode() {
  if (!fs.existsSync(path.join(ROOT, 'dist/outbound/server-connection.js'))) die('dist/ is missing: run `npm run build` first');
  const revision = flags.requirements;
  const single = flags.scenario;
  /** Each `conformance client` run: what it selects and which suite runs it. */
  const runs = [];
  if (revision !== undefined) {
    // The suite picks the scenarios the revision requires, auth/* among them (one run).
    runs.push({ select: single ? ['--scenario', single, '--spec-version', revision] : ['--requirements', revision], packages: SUITE_PACKAGES, label: single ?? `--requirements ${revision}` });
  } else {
    for (const scenario of single ? (single.startsWith('auth/') ? [] : [single]) : CLIENT_SCENARIOS) runs.push({ select: ['--scenario', scenario], packages: SUITE_PACKAGES, label: scenario });
    const auth = single ? (single.startsWith('auth/') ? ['--scenario', single] : undefined) : flags['no-auth'] ? undefined : ['--suite', 'auth', '--spec-version', AUTH_SPEC_VERSION];
    if (auth) runs.push({ select: auth, packages: AUTH_SUITE_PACKAGES, label: single ?? `auth suite (spec ${AUTH_SPEC_VERSION})` });
  }
  const netns = !flags['no-netns'];
  if (netns && spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up']).status !== 0) {
    die('`unshare -n` (with `ip link set lo up`) does not work here: it needs root or user namespaces and iproute2; use --no-netns to run without it');
  }
  // npx resolves (and if needed downloads) the suites outside the namespace, which has no network.
  const bins = new Map();
  for (const r of runs) if (!bins.has(r.packages)) bins.set(r.packages, suiteBinDir(r.packages));
  const command = `${process.execPath} ${DRIVER}`;
  if (/\s/.test(process.execPath) || /\s/.test(DRIVER)) die('the suite splits --command on spaces: node and the repository must live at paths without spaces');
  const what = revision !== undefined ? `${single ?? 'every client scenario'} required by ${revision}` : runs.map((r) => r.label).join(', ');
  say(`client scenarios: ${what}${netns ? ' (private network namespace)' : ''}; results in ${outDir}`);

  const before = existingResults();
  let worst = 0;
  for (const { select, packages, label } of runs) {
    const rest = ['client', '--command', command, ...select, '-o', outDir];
    if (baseline !== '') rest.push('--expected-failures', baseline);
    if (flags.verbose) rest.push('--verbose');
    const env = { ...process.env, PATH: `${bins.get(packages)}${path.delimiter}${process.env.PATH}` };
    let code;
    if (netns) {
      const quoted = rest.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
      code = await run('unshare', ['-n', 'sh', '-c', `ip link set lo up && exec conformance ${quoted}`], { env });
    } else {
      code = await run('conformance', rest, { env });
    }
    say(`${label}: exit code ${code}`);
    worst = Math.max(worst, code);
  }

  const rows = summarize(newResults(before), /^$/);
  printSummary(rows, `client scenarios${revision ? ` (${revision})` : ''}, gateway outbound client (ServerConnection)`);
  fs.writeFileSync(path.join(outDir, 'summary.json'), JSON.stringify({ kind: 'client', requirements: revision, exitCode: worst, scenarios: rows }, null, 2));
  return worst;
}

let exitCode = 2;
try {
  exitCode = flags.client ? await clientMode() : await serverMode();
} catch (err) {
  console.error(`[conformance] ${err?.message ?? err}`);
} finally {
  await stopAll();
}
process.exit(interruptedBy ? 130 : exitCode);

#!/usr/bin/env node
// Switchboard's soak run: many tools/calls over many sessions while the servers behind the gateway
// are SIGKILLed at random; every response must come back exactly once with exactly its payload,
// and the gateway's memory and open files must not grow.
//
//   npm run soak                  # full: 100,000 calls over HTTP + 50,000 over stdio; writes bench/SOAK.md
//   npm run soak -- --quick       # CI: 10,000 + 5,000 calls, < 60 s; writes bench/.out/SOAK-quick.md
//
// Exits 1 when a call was lost, answered twice, answered with another payload, misrouted, failed
// for a reason other than its server being killed, when the gateway's open fds grew by more than
// --max-fd-growth or its RSS by more than --max-rss-growth-mb, or when the run itself failed.

import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { percentile } from './lib/load.mjs';
import { BENCH_DIR, ECHO, GATEWAY, OUT_DIR, ROOT_DIR, setGateway } from './lib/paths.mjs';
import { installCleanupHooks, processTree, rssOf, sleep, start, stopAll } from './lib/procs.mjs';
import { Ledger, SoakHttpSession, SoakStdioSession } from './lib/soak-client.mjs';
import { HEAP_SIGNAL_OPTION, heapGrowth, summarizeSnapshot, takeHeapSnapshot } from './lib/soak-heap.mjs';

const USAGE = `usage: node bench/soak.mjs [options]
  --quick                CI run: 10,000 HTTP + 5,000 stdio calls; writes bench/.out/SOAK-quick.md
  --calls N              tools/calls over HTTP (default 100000; quick 10000)
  --stdio-calls N        tools/calls over stdio, 0 to skip (default 50000; quick 5000)
  --sessions N           HTTP sessions open at once (default 16)
  --concurrency N        calls in flight per HTTP session (default 4; stdio: sessions × this)
  --session-calls N      calls per HTTP session before it is closed and replaced (default 500; quick 250)
  --servers N            echo servers behind the gateway (default 4)
  --kill-every MIN-MAX   SIGKILL a random server every MIN..MAX ms (default 1000-2000; quick 200-500)
  --stdio-kill-every MIN-MAX
                         the same for the stdio leg, which runs several times faster
                         (default 200-400; quick 100-200)
  --settle MS            quiet time before each memory/fd sample (default 2000; quick 1000)
  --max-fd-growth N      fail when the gateway's open fds grow by more (default 16)
  --max-rss-growth-mb N  fail when the gateway's RSS grows by more (default 50)
  --heap-snapshots       take a heap snapshot of the gateway (which collects garbage first)
                         after each memory sample and judge the live heap's growth instead of
                         RSS (RSS also holds V8's young-generation headroom, which grows with
                         load and is not given back). On by default in the full run, which
                         judges leaks; --quick judges RSS. --no-heap-snapshots turns it off.
  --max-heap-growth-mb N with --heap-snapshots: fail when the live heap grows by more (default 8)
  --gateway FILE         soak another build (its main.js); the report goes to bench/.out/
  --replicas 3           instead: three gateways on one redis-server behind deploy/nginx.conf, a
                         random replica SIGKILLed every --kill-every ms and restarted; judges lost
                         and duplicated answers (bench/lib/soak-replicas.mjs; needs redis-server
                         and nginx); writes bench/.out/SOAK-replicas[-quick].md
  --help`;

let args;
try {
  args = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      calls: { type: 'string' },
      'stdio-calls': { type: 'string' },
      sessions: { type: 'string' },
      concurrency: { type: 'string' },
      'session-calls': { type: 'string' },
      servers: { type: 'string' },
      'kill-every': { type: 'string' },
      'stdio-kill-every': { type: 'string' },
      settle: { type: 'string' },
      'max-fd-growth': { type: 'string' },
      'max-rss-growth-mb': { type: 'string' },
      gateway: { type: 'string' },
      'heap-snapshots': { type: 'boolean' },
      'max-heap-growth-mb': { type: 'string' },
      replicas: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowNegative: true,
  }).values;
} catch (err) {
  console.error(`${err.message}\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

function int(name, fallback, min = 0) {
  const v = args[name];
  if (v === undefined) return fallback;
  const n = Number(v.replaceAll('_', '').replaceAll(',', ''));
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name}: expected an integer ≥ ${min}, got ${JSON.stringify(v)}`);
    process.exit(2);
  }
  return n;
}

const quick = args.quick;
const cfg = {
  httpCalls: int('calls', quick ? 10_000 : 100_000),
  stdioCalls: int('stdio-calls', quick ? 5_000 : 50_000),
  sessions: int('sessions', 16, 1),
  concurrency: int('concurrency', 4, 1),
  sessionCalls: int('session-calls', quick ? 250 : 500, 1),
  servers: int('servers', 4, 1),
  settleMs: int('settle', quick ? 1000 : 2000),
  maxFdGrowth: int('max-fd-growth', 16),
  maxRssGrowthMb: int('max-rss-growth-mb', 50),
  kill: { http: quick ? [200, 500] : [1000, 2000], stdio: quick ? [100, 200] : [200, 400] },
  /** Share of each leg's calls run before the first sample, with no kills. */
  warmupShare: 0.05,
  reconnect: { initialDelay: '50ms', maxDelay: '250ms', maxFailures: 1000 },
  serverTimeout: '10s',
  requestTimeoutMs: 30_000,
  heapSnapshots: args['heap-snapshots'] ?? !quick,
  maxHeapGrowthMb: int('max-heap-growth-mb', 8),
};
for (const [flag, leg] of [
  ['kill-every', 'http'],
  ['stdio-kill-every', 'stdio'],
]) {
  if (args[flag] === undefined) continue;
  const m = /^(\d+)-(\d+)$/.exec(args[flag]);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < Number(m[1])) {
    console.error(`--${flag}: expected MIN-MAX in ms, got ${JSON.stringify(args[flag])}`);
    process.exit(2);
  }
  cfg.kill[leg] = [Number(m[1]), Number(m[2])];
}
if (args.gateway !== undefined) {
  const file = resolve(args.gateway);
  if (!existsSync(file)) {
    console.error(`--gateway: no such file ${file}`);
    process.exit(2);
  }
  setGateway(file);
}
const gatewayFile = args.gateway !== undefined ? resolve(args.gateway) : GATEWAY;
// The default run of each mode writes the committed report (full) or the CI one (quick).
const nonDefaultHeap = args['heap-snapshots'] !== undefined && args['heap-snapshots'] === quick;
const variant = `${nonDefaultHeap ? (quick ? '-heap' : '-rss') : ''}${quick ? '-quick' : ''}`;
const reportFile = variant === '' && args.gateway === undefined ? join(BENCH_DIR, 'SOAK.md') : join(OUT_DIR, `SOAK${variant || '-other'}.md`);
const jsonFile = join(OUT_DIR, `soak${variant}.json`);

const log = (...a) => console.log(...a);
installCleanupHooks();
mkdirSync(OUT_DIR, { recursive: true });
const configFiles = [];
process.on('exit', () => {
  for (const f of configFiles) rmSync(f, { force: true });
});
// A watchdog: a soak that hangs is a failed soak, and leaves nothing behind.
const watchdogMs = quick ? 180_000 : 1_200_000;
setTimeout(() => {
  console.error(`soak: still running after ${watchdogMs / 1000} s, giving up`);
  process.exit(1); // the exit hook kills every child tree
}, watchdogMs).unref();

if (!existsSync(gatewayFile)) {
  console.error(`soak: ${gatewayFile} does not exist: run \`npm run build\` first`);
  process.exit(1);
}

if (args.replicas !== undefined) {
  const { soakReplicas } = await import('./lib/soak-replicas.mjs');
  const code = await soakReplicas({ ...cfg, replicas: int('replicas', 3, 1), calls: cfg.httpCalls, killEvery: cfg.kill.http, gateway: gatewayFile, quick, log });
  process.exit(code);
}

/** With --heap-snapshots: the gateways' working folder, where they write their snapshots. */
const heapDir = join(OUT_DIR, `soak-heap-${process.pid}`);
const nodeArgs = cfg.heapSnapshots ? [HEAP_SIGNAL_OPTION] : [];
if (cfg.heapSnapshots) {
  mkdirSync(heapDir, { recursive: true });
  process.on('exit', () => rmSync(heapDir, { recursive: true, force: true }));
}

const SERVERS = Array.from({ length: cfg.servers }, (_, i) => `echo-${i}`);

function writeConfig(kind) {
  const file = join(OUT_DIR, `soak-${process.pid}-${kind}.yaml`);
  const lines = ['# written by bench/soak.mjs', 'servers:'];
  for (const name of SERVERS) {
    lines.push(
      `  - name: ${name}`,
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: ${JSON.stringify([ECHO, '--name', name])}`,
      `    reconnect: { initialDelay: ${cfg.reconnect.initialDelay}, maxDelay: ${cfg.reconnect.maxDelay}, maxFailures: ${cfg.reconnect.maxFailures} }`,
      `    timeout: ${cfg.serverTimeout}`,
    );
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  configFiles.push(file);
  return file;
}

// --- what the gateway says about its servers ---------------------------------------------------

/** Per server: when it came up (ready / reconnected) and went down, from the gateway's JSON log. */
class GatewayLog {
  constructor() {
    this.up = new Map(SERVERS.map((s) => [s, []]));
    this.down = new Map(SERVERS.map((s) => [s, []]));
    this.reconnects = 0;
    this.downs = 0;
    this.gaveUp = [];
    this.warnings = [];
    this.listening = undefined;
    this.listeners = new Set();
  }

  line(text) {
    const m = /listening on (http:\/\/[^\s"]+)/.exec(text);
    if (m) this.listening = m[1];
    if (!text.startsWith('{')) return this.#notify();
    let entry;
    try {
      entry = JSON.parse(text);
    } catch {
      return;
    }
    // A server's first ready is the CLI's "<name>: connected (…)" line (the connection's own
    // "ready" is a debug line); later ones are the connection's "reconnected".
    const connected = typeof entry.msg === 'string' ? /^(\S+): connected \(/.exec(entry.msg) : null;
    if (connected && entry.server === undefined && this.up.has(connected[1])) this.up.get(connected[1]).push(entry.time);
    const server = entry.server;
    if (server !== undefined && this.up.has(server)) {
      if (entry.msg === 'reconnected' || entry.msg === 'ready') {
        this.up.get(server).push(entry.time);
        if (entry.msg === 'reconnected') this.reconnects++;
      } else if (entry.msg === 'server down; reconnecting') {
        this.down.get(server).push(entry.time);
        this.downs++;
      } else if (typeof entry.msg === 'string' && entry.msg.startsWith('server failed')) {
        this.gaveUp.push(`${server}: ${entry.msg}`);
      }
    }
    // Anything at warn or worse that is not part of a server's expected down-and-up (the calls
    // that failed because of it are logged one by one, and are in the ledger).
    const expected =
      (server !== undefined && /^(server down; reconnecting|still down)/.test(entry.msg ?? '')) ||
      /: down, reconnecting in /.test(entry.msg ?? '') ||
      (entry.method !== undefined && (entry.code === 'CONNECTION_CLOSED' || entry.code === 'SERVER_UNAVAILABLE'));
    if (entry.level >= 40 && !expected) {
      if (this.warnings.length < 20) this.warnings.push(text.slice(0, 400));
      else this.warnings.length === 20 && this.warnings.push('…');
    }
    this.#notify();
  }

  #notify() {
    for (const f of this.listeners) f();
  }

  /** Resolves when check() is true (re-checked on each log line), rejects after timeoutMs. */
  until(check, timeoutMs, what) {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(f);
        reject(new Error(`gave up waiting for ${what} after ${timeoutMs} ms`));
      }, timeoutMs);
      const f = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.listeners.delete(f);
        resolve();
      };
      this.listeners.add(f);
    });
  }
}

// --- the gateway's processes, from /proc ---------------------------------------------------------

function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The gateway's echo-server children: [{ pid, server, zombie }]. */
function echoChildren(gatewayPid) {
  const out = [];
  for (const pid of processTree(gatewayPid)) {
    if (pid === gatewayPid) continue;
    const f = procStat(pid);
    if (!f || Number(f[1]) !== gatewayPid) continue;
    let argv;
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
    } catch {
      continue;
    }
    const zombie = f[0] === 'Z';
    const i = argv.indexOf('--name');
    out.push({ pid, server: i >= 0 ? argv[i + 1] : undefined, zombie, echo: argv.some((a) => a.endsWith('echo-server.mjs')) || zombie });
  }
  return out;
}

function sampleGateway(pid) {
  let fds = NaN;
  try {
    fds = readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    /* gone */
  }
  const status = (() => {
    try {
      return readFileSync(`/proc/${pid}/status`, 'latin1');
    } catch {
      return '';
    }
  })();
  const threads = Number(/Threads:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  const kids = echoChildren(pid);
  return { at: Date.now(), rss: rssOf(pid), fds, threads, children: kids.filter((k) => !k.zombie).length, zombies: kids.filter((k) => k.zombie).length };
}

// --- killing servers ----------------------------------------------------------------------------

function startKiller(gatewayPid, kills, [minMs, maxMs]) {
  let timer;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        const live = echoChildren(gatewayPid).filter((k) => !k.zombie && k.echo && SERVERS.includes(k.server));
        if (live.length > 0) {
          const victim = live[Math.floor(Math.random() * live.length)];
          try {
            process.kill(victim.pid, 'SIGKILL');
            kills.push({ server: victim.server, pid: victim.pid, at: Date.now() });
          } catch {
            /* it died by itself in between */
          }
        }
        next();
      },
      minMs + Math.random() * (maxMs - minMs),
    );
  };
  next();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Every server came up after its last kill (per the gateway's log) and runs one live process. */
async function allServersBack(gatewayPid, gwLog, kills, timeoutMs = 30_000) {
  const lastKill = (s) => Math.max(0, ...kills.filter((k) => k.server === s).map((k) => k.at));
  await gwLog.until(() => SERVERS.every((s) => gwLog.up.get(s).some((t) => t >= lastKill(s))), timeoutMs, 'every server to reconnect after its last kill');
  // Its process: an OS fact, polled.
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const live = echoChildren(gatewayPid).filter((k) => !k.zombie && k.echo);
    if (SERVERS.every((s) => live.some((k) => k.server === s))) return;
    if (Date.now() > deadline) throw new Error(`servers without a process: ${SERVERS.filter((s) => !live.some((k) => k.server === s)).join(', ')}`);
    await sleep(50);
  }
}

// --- judging errors -----------------------------------------------------------------------------

/**
 * An error is expected only when its server was killed: CONNECTION_CLOSED for a call in flight at
 * the kill, SERVER_UNAVAILABLE for one sent before the server was back. Anything else is not.
 */
function classifyErrors(errors, kills, gwLog) {
  const expected = {};
  const unexpected = [];
  /** Expected, but without data.server (docs/errors.md: it names the server when one is involved). */
  const unnamed = [];
  const SLACK_MS = 100; // the log's timestamp is taken just after the state changes
  for (const e of errors) {
    let ok = false;
    if ((e.code === 'SERVER_UNAVAILABLE' || e.code === 'CONNECTION_CLOSED') && (e.errorServer === e.server || e.errorServer === null)) {
      const before = kills.filter((k) => k.server === e.server && k.at <= e.at + SLACK_MS);
      const kill = before[before.length - 1];
      if (kill) {
        const back = gwLog.up.get(e.server).find((t) => t >= kill.at);
        ok = back === undefined || back >= e.sentAt - SLACK_MS;
      }
    }
    if (!ok) unexpected.push(e);
    else {
      expected[e.code] = (expected[e.code] ?? 0) + 1;
      if (e.errorServer === null) unnamed.push(e);
    }
  }
  return { expected, unexpected, unnamed };
}

/** Drops the gateway logged that no kill of ours explains (a kill at most 5 s before). */
function unexplainedDrops(gwLog, kills) {
  let n = 0;
  for (const s of SERVERS) for (const t of gwLog.down.get(s)) if (!kills.some((k) => k.server === s && k.at <= t + 50 && k.at >= t - 5000)) n++;
  return n;
}

// --- one leg: the gateway over HTTP or over stdio -------------------------------------------------

function payload(key, n) {
  // Unique, of varying length, and now and then with multi-byte characters that a chunk
  // boundary could split.
  return `${key}|${'0123456789'.repeat(n % 24)}${n % 7 === 0 ? '|ü€😀' : ''}`;
}

async function httpLeg(total) {
  const gwLog = new GatewayLog();
  const proc = start(process.execPath, [...nodeArgs, gatewayFile, 'serve', '-c', writeConfig('http'), '--http', '127.0.0.1:0'], {
    label: 'switchboard',
    cwd: cfg.heapSnapshots ? heapDir : undefined,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, SWITCHBOARD_LOG_LEVEL: 'info' },
    onStderrLine: (l) => gwLog.line(l),
  });
  const exited = proc.exitPromise.then(() => {
    throw new Error(`gateway exited (code ${proc.exitCode}, signal ${proc.exitSignal})\n${proc.stderrTail().slice(-2000)}`);
  });
  exited.catch(() => {});
  await Promise.race([gwLog.until(() => gwLog.listening !== undefined, 60_000, '"listening on"'), exited]);
  const url = gwLog.listening;
  log(`  http: gateway pid ${proc.pid} at ${url}`);

  const ledger = new Ledger();
  const agents = { post: newPostAgent(), stream: new Agent({ connections: cfg.sessions * 4, pipelining: 1, keepAliveTimeout: 60_000 }) };
  const counters = { opened: 0, closed: 0, getNotEnded: 0, deleteFailed: 0, callNo: 0 };
  const closings = [];

  function newPostAgent() {
    return new Agent({ connections: cfg.sessions * cfg.concurrency, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
  }

  async function openSession() {
    let lastErr;
    for (let attempt = 0; attempt < 3; attempt++) {
      const s = new SoakHttpSession(url, { agents, ledger, requestTimeoutMs: cfg.requestTimeoutMs });
      try {
        await s.open();
        counters.opened++;
        return s;
      } catch (err) {
        lastErr = err;
        if (proc.exited) break;
      }
    }
    throw new Error(`could not open a session: ${lastErr?.message}`);
  }

  function closeSession(s) {
    closings.push(
      s.close().then((endedByServer) => {
        counters.closed++;
        if (!endedByServer) counters.getNotEnded++;
        if (s.deleteStatus !== 200) counters.deleteFailed++;
      }),
    );
  }

  const slots = [];
  for (let i = 0; i < cfg.sessions; i++) slots.push({ current: await openSession(), opening: undefined });

  async function acquire(slot) {
    for (;;) {
      if (slot.opening) {
        await slot.opening;
        continue;
      }
      const s = slot.current;
      if (s.used < cfg.sessionCalls) {
        s.used++;
        s.inflight++;
        return s;
      }
      s.retired = true;
      if (s.inflight === 0) closeSession(s);
      slot.opening = openSession()
        .then((fresh) => {
          slot.current = fresh;
        })
        .finally(() => {
          slot.opening = undefined;
        });
    }
  }

  function release(s) {
    s.inflight--;
    if (s.retired && s.inflight === 0) closeSession(s);
  }

  async function run(n) {
    let remaining = n;
    const workers = [];
    for (const slot of slots) {
      for (let c = 0; c < cfg.concurrency; c++) {
        workers.push(
          (async () => {
            while (remaining > 0) {
              remaining--;
              const s = await acquire(slot);
              const k = counters.callNo++;
              const server = SERVERS[k % SERVERS.length];
              await s.call(server, `${server}__echo`, (key) => payload(key, k));
              release(s);
            }
          })(),
        );
      }
    }
    await Promise.race([Promise.all(workers), exited]);
  }

  /** No load, the POST sockets closed (the GET streams stay), a quiet moment, then /proc. */
  async function quietSample() {
    const old = agents.post;
    agents.post = newPostAgent();
    await old.close();
    await sleep(cfg.settleMs);
    return sampleGateway(proc.pid);
  }

  return runLeg({ kind: 'http', total, proc, gwLog, ledger, run, quietSample, exited, counters, closings, slots, closeSession, agents });
}

async function stdioLeg(total) {
  const gwLog = new GatewayLog();
  const ledger = new Ledger();
  const session = new SoakStdioSession(process.execPath, [...nodeArgs, gatewayFile, 'serve', '-c', writeConfig('stdio'), '--stdio'], {
    ledger,
    cwd: cfg.heapSnapshots ? heapDir : undefined,
    env: { ...process.env, SWITCHBOARD_LOG_LEVEL: 'info' },
    onStderrLine: (l) => gwLog.line(l),
  });
  const proc = session.proc;
  const exited = proc.exitPromise.then(() => {
    throw new Error(`gateway exited (code ${proc.exitCode}, signal ${proc.exitSignal})\n${proc.stderrTail().slice(-2000)}`);
  });
  exited.catch(() => {});
  await Promise.race([session.open(), exited]);
  log(`  stdio: gateway pid ${proc.pid}`);
  const counters = { callNo: 0 };
  const inflight = cfg.sessions * cfg.concurrency;

  async function run(n) {
    let remaining = n;
    const workers = Array.from({ length: inflight }, async () => {
      while (remaining > 0) {
        remaining--;
        const k = counters.callNo++;
        const server = SERVERS[k % SERVERS.length];
        await session.call(server, `${server}__echo`, (key) => payload(key, k), cfg.requestTimeoutMs);
      }
    });
    await Promise.race([Promise.all(workers), exited]);
  }

  async function quietSample() {
    await sleep(cfg.settleMs);
    return sampleGateway(proc.pid);
  }

  return runLeg({ kind: 'stdio', total, proc, gwLog, ledger, run, quietSample, exited, counters, stdin: proc.child.stdin });
}

async function runLeg(leg) {
  const { kind, total, proc, gwLog, ledger, run, quietSample } = leg;
  const warmup = Math.max(1, Math.round(total * cfg.warmupShare));
  const main = total - warmup;
  const kills = [];
  const out = { kind, calls: total, warmup };
  try {
    await gwLog.until(() => SERVERS.every((s) => gwLog.up.get(s).length > 0), 60_000, 'every server ready');

    log(`  ${kind}: warm-up, ${warmup} calls`);
    await run(warmup);
    out.start = await quietSample();
    log(`  ${kind}: start: RSS ${mb(out.start.rss)} MB, ${out.start.fds} fds; ${main} calls, killing a server every ${cfg.kill[kind].join('–')} ms`);
    let heapStart;
    if (cfg.heapSnapshots) {
      heapStart = summarizeSnapshot(await takeHeapSnapshot(proc.pid, heapDir));
      log(`  ${kind}: live heap ${mb(heapStart.bytes)} MB (${fmt(heapStart.nodes)} objects)`);
    }

    const t0 = Date.now();
    const stopKiller = startKiller(proc.pid, kills, cfg.kill[kind]);
    out.trend = [];
    const progress = setInterval(
      () => {
        const s = sampleGateway(proc.pid);
        out.trend.push({ answered: ledger.answered, rss: s.rss, fds: s.fds });
        log(`  ${kind}: ${ledger.answered}/${total} answered, ${kills.length} kills, RSS ${mb(s.rss)} MB, ${s.fds} fds`);
      },
      quick ? 2000 : 5000,
    );
    try {
      await run(main);
    } finally {
      stopKiller();
      clearInterval(progress);
    }
    out.durationMs = Date.now() - t0;
    await Promise.race([allServersBack(proc.pid, gwLog, kills), leg.exited]);
    out.end = await quietSample();
    log(`  ${kind}: end: RSS ${mb(out.end.rss)} MB, ${out.end.fds} fds`);
    if (heapStart) {
      const heapEnd = summarizeSnapshot(await takeHeapSnapshot(proc.pid, heapDir));
      out.heap = { start: { bytes: heapStart.bytes, nodes: heapStart.nodes }, end: { bytes: heapEnd.bytes, nodes: heapEnd.nodes }, growth: heapGrowth(heapStart, heapEnd) };
      log(`  ${kind}: live heap ${mb(heapEnd.bytes)} MB (${fmt(heapEnd.nodes)} objects)`);
    }

    if (kind === 'http') {
      // Close every session, then sample once more (for information: the start had them open).
      for (const slot of leg.slots) {
        if (slot.opening) await slot.opening;
        slot.current.retired = true;
        if (slot.current.inflight === 0) leg.closeSession(slot.current);
      }
      await Promise.all(leg.closings);
      await leg.agents.post.close();
      await leg.agents.stream.close();
      await sleep(cfg.settleMs);
      out.closed = sampleGateway(proc.pid);
      out.sessions = { opened: leg.counters.opened, closed: leg.counters.closed, getNotEnded: leg.counters.getNotEnded, deleteFailed: leg.counters.deleteFailed };
    }

    // Shutdown: SIGTERM (stdio: stdin's end), exit 0, nothing left behind.
    const childrenBefore = echoChildren(proc.pid).map((k) => k.pid);
    if (leg.stdin) leg.stdin.end();
    else process.kill(proc.pid, 'SIGTERM');
    await Promise.race([proc.exitPromise, sleep(15_000)]);
    out.exit = proc.exited ? { code: proc.exitCode, signal: proc.exitSignal } : { code: 'still running after 15 s' };
    await sleep(200);
    out.leftBehind = childrenBefore.filter((p) => {
      const f = procStat(p);
      return f !== undefined && f[0] !== 'Z';
    }).length;
  } catch (err) {
    out.failure = err.message;
  } finally {
    await proc.stop(500);
  }

  out.kills = kills.length;
  out.killsPerServer = Object.fromEntries(SERVERS.map((s) => [s, kills.filter((k) => k.server === s).length]));
  out.reconnects = gwLog.reconnects;
  out.downs = gwLog.downs;
  out.unexplainedDrops = unexplainedDrops(gwLog, kills);
  out.gaveUp = gwLog.gaveUp;
  out.warnings = gwLog.warnings;
  const { expected, unexpected, unnamed } = classifyErrors(ledger.errors, kills, gwLog);
  const lost = ledger.lost();
  Object.assign(out, {
    sent: ledger.sent,
    answered: ledger.answered,
    ok: ledger.ok,
    errors: ledger.errors.length,
    expectedErrors: expected,
    unexpectedErrors: unexpected.length,
    unexpectedSamples: unexpected.slice(0, 5),
    unnamedErrors: unnamed.length,
    unnamedSamples: unnamed.slice(0, 3),
    lost: lost.length,
    lostSamples: lost.slice(0, 5),
    duplicated: ledger.duplicated,
    mismatched: ledger.mismatched,
    stray: ledger.stray,
    misrouted: ledger.misrouted,
    transportErrors: ledger.transportErrors,
    samples: ledger.samples,
    notifications: Object.fromEntries(ledger.notifications),
  });
  const lat = ledger.latenciesUs.sort((a, b) => a - b);
  out.p50ms = percentile(lat, 0.5) / 1000;
  out.p99ms = percentile(lat, 0.99) / 1000;
  out.callsPerSec = out.durationMs ? (main / out.durationMs) * 1000 : NaN;
  out.checks = judge(out);
  return out;
}

function judge(o) {
  const checks = [];
  const add = (what, pass, detail) => checks.push({ what, pass, detail });
  add('the run completed', !o.failure, o.failure ?? '');
  add('every call sent', o.sent === o.calls, `${o.sent} of ${o.calls}`);
  add('no call lost', o.lost === 0, `${o.lost}`);
  add('no response duplicated', o.duplicated === 0, `${o.duplicated}`);
  add('no payload mismatched', o.mismatched === 0, `${o.mismatched}`);
  add('no stray or misrouted response', o.stray === 0 && o.misrouted === 0, `${o.stray} stray, ${o.misrouted} misrouted`);
  add('no HTTP/transport failure', o.transportErrors === 0, `${o.transportErrors}`);
  add('errors only from killed servers', o.unexpectedErrors === 0, `${o.unexpectedErrors} unexpected`);
  add('every such error names its server (data.server)', o.unnamedErrors === 0, `${o.unnamedErrors} without data.server`);
  if (o.start && o.end) {
    const fd = o.end.fds - o.start.fds;
    add(`open fds grew by ≤ ${cfg.maxFdGrowth}`, Number.isFinite(fd) && fd <= cfg.maxFdGrowth, `${signed(fd)}`);
    const rss = (o.end.rss - o.start.rss) / 2 ** 20;
    if (o.heap) {
      const heap = (o.heap.end.bytes - o.heap.start.bytes) / 2 ** 20;
      add(`live heap grew by ≤ ${cfg.maxHeapGrowthMb} MB`, heap <= cfg.maxHeapGrowthMb, `${signed(heap.toFixed(1))} MB (RSS ${signed(rss.toFixed(1))} MB, not judged: the snapshots inflate it)`);
    } else {
      add(`RSS grew by ≤ ${cfg.maxRssGrowthMb} MB`, rss <= cfg.maxRssGrowthMb, `${signed(rss.toFixed(1))} MB`);
    }
    add('no zombie or missing server process', o.end.zombies === 0 && o.end.children === SERVERS.length, `${o.end.children} live, ${o.end.zombies} zombies`);
  }
  if (o.sessions)
    add('every GET stream ended by DELETE', o.sessions.getNotEnded === 0 && o.sessions.deleteFailed === 0, `${o.sessions.getNotEnded} not ended, ${o.sessions.deleteFailed} DELETEs failed`);
  if (o.exit) add('clean shutdown: exit 0, no server left', o.exit.code === 0 && o.leftBehind === 0, `exit ${o.exit.code}, ${o.leftBehind} left`);
  add('no server given up on', o.gaveUp.length === 0, o.gaveUp.join('; '));
  return checks;
}

// --- the report -----------------------------------------------------------------------------------

const mb = (b) => (b / 2 ** 20).toFixed(1);
const signed = (x) => (Number(x) > 0 ? `+${x}` : `${x}`);
const fmt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');

function legTable(o) {
  const rows = [];
  const r = (k, v) => rows.push(`| ${k} | ${v} |`);
  r('calls sent / answered', `${fmt(o.sent)} / ${fmt(o.answered)} (${fmt(o.warmup)} of them warm-up)`);
  r('ok (payload echoed exactly)', fmt(o.ok));
  r(
    'errors from killed servers',
    `${fmt(o.errors - o.unexpectedErrors)}${
      Object.keys(o.expectedErrors).length
        ? ` (${Object.entries(o.expectedErrors)
            .map(([c, n]) => `${c} ${fmt(n)}`)
            .join(', ')})`
        : ''
    }`,
  );
  r('other errors', fmt(o.unexpectedErrors));
  r('**lost** (never answered)', `**${fmt(o.lost)}**`);
  r('**duplicated**', `**${fmt(o.duplicated)}**`);
  r('**mismatched payloads**', `**${fmt(o.mismatched)}**`);
  r('stray / misrouted responses', `${fmt(o.stray)} / ${fmt(o.misrouted)}`);
  r('transport failures', fmt(o.transportErrors));
  r(
    'servers killed (SIGKILL)',
    `${fmt(o.kills)} (${Object.entries(o.killsPerServer)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')})`,
  );
  r('reconnects logged / drops logged', `${fmt(o.reconnects)} / ${fmt(o.downs)}${o.unexplainedDrops ? ` (${o.unexplainedDrops} not explained by a kill)` : ''}`);
  if (o.sessions) r('HTTP sessions opened / closed', `${fmt(o.sessions.opened)} / ${fmt(o.sessions.closed)}`);
  if (o.start && o.end) {
    r('gateway RSS start → end', `${mb(o.start.rss)} → ${mb(o.end.rss)} MB (${signed(mb(o.end.rss - o.start.rss))} MB)`);
    r('gateway open fds start → end', `${o.start.fds} → ${o.end.fds} (${signed(o.end.fds - o.start.fds)})`);
    r('gateway threads start → end', `${o.start.threads} → ${o.end.threads}`);
    if (o.closed) r('after closing every session', `RSS ${mb(o.closed.rss)} MB, ${o.closed.fds} fds`);
    if (o.trend?.length) r(`RSS under load, every ${quick ? 2 : 5} s`, `${o.trend.map((t) => mb(t.rss)).join(', ')} MB`);
  }
  r('duration (after warm-up) / calls/s', `${(o.durationMs / 1000).toFixed(1)} s / ${fmt(o.callsPerSec)}`);
  r('latency of ok calls p50 / p99', `${o.p50ms.toFixed(2)} / ${o.p99ms.toFixed(2)} ms`);
  if (o.heap) {
    r(
      'live heap after GC (snapshots) start → end',
      `${mb(o.heap.start.bytes)} → ${mb(o.heap.end.bytes)} MB (${signed(mb(o.heap.end.bytes - o.heap.start.bytes))} MB), ${fmt(o.heap.start.nodes)} → ${fmt(o.heap.end.nodes)} objects`,
    );
    r(
      'grew most',
      o.heap.growth
        .slice(0, 5)
        .map((g) => `\`${g.name.replaceAll('|', '\\|').slice(0, 40)}\` ${g.count > 0 ? '+' : ''}${fmt(g.count)} (${signed((g.bytes / 1024).toFixed(0))} KiB)`)
        .join(', '),
    );
  }
  if (o.exit) r('shutdown', `exit ${o.exit.code}${o.exit.signal ? ` (${o.exit.signal})` : ''}, ${o.leftBehind} server processes left`);
  return ['| | |', '| --- | --- |', ...rows].join('\n');
}

function checksTable(o) {
  return ['| check | result | |', '| --- | --- | --- |', ...o.checks.map((c) => `| ${c.what} | ${c.pass ? 'pass' : '**FAIL**'} | ${String(c.detail).replaceAll('|', '\\|')} |`)].join('\n');
}

function samplesOf(o) {
  const parts = [];
  const show = (title, list) => {
    if (list?.length) parts.push(`${title}:\n\n\`\`\`\n${list.map((x) => JSON.stringify(x).slice(0, 500)).join('\n')}\n\`\`\``);
  };
  show('Lost (keys)', o.lostSamples);
  show('Unexpected errors', o.unexpectedSamples);
  show('Errors from a killed server without data.server', o.unnamedSamples);
  for (const [k, list] of Object.entries(o.samples)) show(`${k[0].toUpperCase()}${k.slice(1)}`, list);
  show('Gateway warnings (other than a server going down)', o.warnings);
  return parts.join('\n\n');
}

function renderReport(legs, wallMs) {
  const pass = legs.every((o) => o.checks.every((c) => c.pass));
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const lines = [
    `# Soak run${quick ? ' (quick)' : ''}`,
    '',
    `Written by \`node bench/soak.mjs${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}\` on ${new Date().toISOString().slice(0, 10)}: **${pass ? 'PASS' : 'FAIL'}**.`,
    `Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average at the end ${load}; ${(wallMs / 1000).toFixed(0)} s in all.`,
    `Gateway: \`${relative(ROOT_DIR, gatewayFile)}\`.`,
    '',
    ...legs.flatMap((o) => o.checks.filter((c) => !c.pass).map((c) => `- **Failed** (${o.kind}): ${c.what}: ${c.detail}`)),
    ...(pass ? [] : ['']),
    '## Setup',
    '',
    `- ${cfg.servers} servers (\`bench/echo-server.mjs\`) behind one gateway, \`reconnect: { initialDelay: ${cfg.reconnect.initialDelay}, maxDelay: ${cfg.reconnect.maxDelay}, maxFailures: ${cfg.reconnect.maxFailures} }\`, \`timeout: ${cfg.serverTimeout}\`, everything else default.`,
    `- **HTTP**: \`serve --http 127.0.0.1:0\`; ${cfg.sessions} Streamable HTTP sessions open at once, ${cfg.concurrency} calls in flight each (${cfg.sessions * cfg.concurrency} in all); each session makes ${cfg.sessionCalls} calls, is DELETEd and replaced by a fresh one; every session holds a GET stream open for its life. Raw client on undici (\`bench/lib/soak-client.mjs\`).`,
    `- **stdio**: \`serve --stdio\`, one client, ${cfg.sessions * cfg.concurrency} calls in flight.`,
    `- Each call is \`tools/call\` of \`echo-<k>__echo\` (round robin over the servers) with a unique text (\`<session>:<id>|\` + 0–230 digits, every 7th with \`ü€😀\`). Every message the gateway sends (POST replies, GET streams, stdout) is matched to its request: answered exactly once, on the request's own channel, with exactly its text — or an error.`,
    `- After ${cfg.warmupShare * 100}% of the calls as warm-up, a SIGKILL to a random server process (a child of the gateway, found in /proc) every ${cfg.kill.http.join('–')} ms (stdio, which runs faster: ${cfg.kill.stdio.join('–')} ms) until the calls are done. An error is expected only if its \`data.code\` is \`CONNECTION_CLOSED\` or \`SERVER_UNAVAILABLE\`, its \`data.server\` is the call's server, and that server had been killed and had not yet logged \`reconnected\` when the call was sent; any other error fails the run. (One that fits but has no \`data.server\` is counted as expected, and fails a check of its own: [docs/errors.md](../docs/errors.md) promises the server's name.)`,
    `- Memory and fds: the gateway's VmRSS and \`/proc/<pid>/fd\` after the warm-up and at the end, each time with no load, the client's POST connections closed (the GET streams stay open, so the same sessions count), every server up, and ${cfg.settleMs} ms of quiet. Nothing is forced (no GC). Fails above ${signed(cfg.maxFdGrowth)} fds or ${signed(cfg.maxRssGrowthMb)} MB. RSS also holds V8's heap headroom and malloc arenas, which grow with load and are not given back, so the full run judges the live heap from heap snapshots (\`--heap-snapshots\`, its default) and \`--quick\` judges RSS.${cfg.heapSnapshots ? ` With \`--heap-snapshots\` (this run), a heap snapshot follows each sample; the live heap (after the GC the snapshot does) is judged instead of RSS (${signed(cfg.maxHeapGrowthMb)} MB).` : ''}`,
    '',
  ];
  for (const o of legs) {
    lines.push(`## ${o.kind === 'http' ? 'Streamable HTTP' : 'stdio'}: ${fmt(o.calls)} calls`, '', legTable(o), '', checksTable(o), '');
    const s = samplesOf(o);
    if (s) lines.push(s, '');
  }
  return { pass, text: lines.join('\n') };
}

// --- main ---------------------------------------------------------------------------------------

const wallStart = Date.now();
log(`soak: ${fmt(cfg.httpCalls)} calls over HTTP${cfg.stdioCalls ? ` + ${fmt(cfg.stdioCalls)} over stdio` : ''}, ${cfg.servers} servers, gateway ${relative(ROOT_DIR, gatewayFile)}`);
const legs = [];
try {
  if (cfg.httpCalls > 0) legs.push(await httpLeg(cfg.httpCalls));
  if (cfg.stdioCalls > 0) legs.push(await stdioLeg(cfg.stdioCalls));
} catch (err) {
  console.error(`soak: ${err.stack ?? err}`);
  await stopAll();
  process.exit(1);
}
await stopAll();

const { pass, text } = renderReport(legs, Date.now() - wallStart);
writeFileSync(reportFile, `${text}\n`);
writeFileSync(jsonFile, `${JSON.stringify({ cfg, legs }, null, 2)}\n`);
for (const o of legs) {
  log(
    `\n${o.kind}: ${fmt(o.sent)} sent, ${fmt(o.answered)} answered, ${fmt(o.ok)} ok, ${fmt(o.errors)} errors (${o.unexpectedErrors} unexpected), lost ${o.lost}, duplicated ${o.duplicated}, mismatched ${o.mismatched}; ${o.kills} kills, ${o.reconnects} reconnects`,
  );
  if (o.start && o.end) log(`  RSS ${mb(o.start.rss)} → ${mb(o.end.rss)} MB, fds ${o.start.fds} → ${o.end.fds}, ${fmt(o.callsPerSec)} calls/s`);
  for (const c of o.checks.filter((c) => !c.pass)) log(`  FAIL: ${c.what}: ${c.detail}`);
}
log(`\nsoak: ${pass ? 'PASS' : 'FAIL'}; report: ${relative(process.cwd(), reportFile)}`);
process.exit(pass ? 0 : 1);

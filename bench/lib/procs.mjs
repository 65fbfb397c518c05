// Child processes of the harness: every one is started in its own process group and tracked,
// so that stop() and the exit hooks can end it and everything it started (gateways' servers,
// peers' shells), even on error or Ctrl-C.

import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/** pid -> { child, label } for every group leader still alive. */
const live = new Map();

/** Reads /proc once: Map ppid -> [pid]. */
function childrenMap() {
  const map = new Map();
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue;
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses; split after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(rest[1]);
    let list = map.get(ppid);
    if (!list) map.set(ppid, (list = []));
    list.push(Number(entry));
  }
  return map;
}

/** The pid and every descendant of it (as seen now). */
export function processTree(pid) {
  const map = childrenMap();
  const out = [];
  const todo = [pid];
  while (todo.length > 0) {
    const p = todo.pop();
    out.push(p);
    for (const c of map.get(p) ?? []) todo.push(c);
  }
  return out;
}

/** VmRSS of one process in bytes (0 if it is gone). */
export function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

let clockTicks;
/** CPU time (user + system) a process has used so far, in microseconds (0 if it is gone). */
export function cpuMicros(pid) {
  if (clockTicks === undefined) {
    const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    clockTicks = Number(r.stdout) > 0 ? Number(r.stdout) : 100;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields after ")": state(0) ppid(1) ... utime(11) stime(12)
    return ((Number(f[11]) + Number(f[12])) * 1e6) / clockTicks;
  } catch {
    return 0;
  }
}

/**
 * CPU time (user + system, every thread) a process has used so far, in nanoseconds, from
 * /proc/PID/task/* /schedstat: nanosecond resolution, where /proc/PID/stat counts in clock ticks
 * (10 ms), too coarse for short windows. Threads that already ended are not counted; Node's
 * threads live as long as the process. Falls back to the ticks (0 if the process is gone).
 */
export function cpuNs(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  let ns = 0;
  for (const t of tasks) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'latin1').split(' ')[0]);
    } catch {
      return cpuMicros(pid) * 1000; // no schedstat (kernel without CONFIG_SCHED_INFO), or a race
    }
  }
  return ns;
}

/**
 * Context switches of a process's main thread so far: voluntary (it slept: waited for input)
 * and involuntary (preempted). Voluntary switches per call tell how many messages each wake-up
 * handled, which is what CPU per call mostly depends on. Zeros if the process is gone.
 */
export function contextSwitches(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'latin1');
    const v = /voluntary_ctxt_switches:\s+(\d+)/.exec(text);
    const n = /nonvoluntary_ctxt_switches:\s+(\d+)/.exec(text);
    return { voluntary: Number(v?.[1] ?? 0), involuntary: Number(n?.[1] ?? 0) };
  } catch {
    return { voluntary: 0, involuntary: 0 };
  }
}

/** The command line of a process, arguments joined by spaces ('' if it is gone). */
export function cmdlineOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Sum of VmRSS over a process and its descendants, and how many processes that is. */
export function treeRss(pid) {
  const pids = processTree(pid);
  let bytes = 0;
  for (const p of pids) bytes += rssOf(p);
  return { bytes, processes: pids.length };
}

/**
 * True while some process is still in the process group `pgid`. Once a group is empty its number
 * may be handed to a new process (pid_max is 32768 here, and the machine is busy), so an exited
 * child whose group is empty must never be signalled again.
 */
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals a tracked child's group and, while its leader lives, each of its descendants. */
function signalTree(pid, signal, leaderExited = false) {
  let pids = [];
  try {
    if (!leaderExited) pids = processTree(pid);
  } catch {
    /* /proc unreadable: fall back to the group */
  }
  try {
    process.kill(-pid, signal);
  } catch {
    /* group gone */
  }
  for (const p of pids) {
    try {
      process.kill(p, signal);
    } catch {
      /* already gone */
    }
  }
}

/**
 * Starts a tracked child in its own process group.
 * stdio defaults to pipes; stderr is kept (last 16 KiB) for error messages unless told otherwise.
 * Returns { child, pid, label, stderrTail(), stop() }.
 */
export function start(command, args, { label = command, stdio = ['pipe', 'pipe', 'pipe'], env, cwd, onStderrLine } = {}) {
  const child = spawn(command, args, { stdio, env: env ?? process.env, cwd, detached: true });
  const handle = { child, pid: child.pid, label, exited: false, exitCode: null, exitSignal: null };
  let tail = '';
  let partial = '';
  if (child.stderr) {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      tail = (tail + chunk).slice(-16384);
      if (onStderrLine) {
        partial += chunk;
        let nl;
        while ((nl = partial.indexOf('\n')) !== -1) {
          const line = partial.slice(0, nl);
          partial = partial.slice(nl + 1);
          onStderrLine(line);
        }
      }
    });
  }
  // Without these, a child that dies would crash the harness with EPIPE.
  child.stdin?.on('error', () => {});
  child.stdout?.on('error', () => {});
  handle.exitPromise = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      handle.exited = true;
      handle.exitCode = code;
      handle.exitSignal = signal;
      if (!groupAlive(child.pid)) live.delete(child.pid); // nothing left to stop; its number may be reused
      resolve();
    });
    child.on('error', (err) => {
      handle.spawnError = err;
      handle.exited = true;
      resolve();
    });
  });
  if (child.pid !== undefined) live.set(child.pid, handle);
  handle.stderrTail = () => tail;
  /** Ends the child and its whole tree: SIGTERM, then SIGKILL after graceMs. */
  handle.stop = async (graceMs = 1500) => {
    if (child.pid === undefined) return;
    if (handle.exited && !groupAlive(child.pid)) {
      live.delete(child.pid);
      return;
    }
    const pids = handle.exited ? [] : processTree(child.pid);
    signalTree(child.pid, 'SIGTERM', handle.exited);
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && (pids.some(alive) || (handle.exited && groupAlive(child.pid)))) await sleep(25);
    for (const p of pids) if (alive(p)) kill(p, 'SIGKILL');
    if (!handle.exited || groupAlive(child.pid)) signalTree(child.pid, 'SIGKILL', handle.exited);
    live.delete(child.pid);
    await Promise.race([handle.exitPromise, sleep(500)]);
  };
  return handle;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    // Zombies answer kill(0) but are dead for our purposes.
    const state = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return state.slice(state.lastIndexOf(')') + 2, state.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function kill(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
    /* gone */
  }
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How many children are still tracked (exited ones with an empty group are not). */
export function trackedCount() {
  return live.size;
}

/** Stops every tracked child but those in `except` (used between scenarios and at exit). */
export async function stopAll(except = new Set()) {
  await Promise.all([...live.values()].filter((h) => !except.has(h.pid)).map((h) => h.stop(500)));
}

/** Synchronous last resort: SIGKILL every tracked tree. */
export function killAllNow() {
  for (const [pid, h] of live) if (!h.exited || groupAlive(pid)) signalTree(pid, 'SIGKILL', h.exited);
  live.clear();
}

let hooked = false;
/** Installs exit hooks once: Ctrl-C, SIGTERM, uncaught errors and normal exit all clean up. */
export function installCleanupHooks() {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAllNow);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      process.stderr.write(`\nbench: ${sig}, stopping every child process\n`);
      killAllNow();
      process.exit(130);
    });
  }
}

// Process hygiene: every process, client and temp dir a helper creates is tracked here, and
// cleanup() (call it from afterAll / afterEach) gets rid of all of them, so a failing test never
// leaves children behind. A process 'exit' hook SIGKILLs whatever is still tracked as a last resort.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Closable {
  close(): Promise<void>;
}

const trackedProcs = new Set<ChildProcess>();
/** Processes spawned with detached: true lead their own group; cleanup kills the whole group. */
const groupLeaders = new Set<number>();
/** pid -> its start time (from /proc, to never kill a recycled pid), or undefined off Linux. */
const trackedPids = new Map<number, string | undefined>();
const trackedClosables = new Set<Closable>();
const trackedDirs = new Set<string>();

let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of trackedProcs) {
      if (child.pid !== undefined) for (const pid of descendantPids(child.pid)) killQuietly(pid, 'SIGKILL', false);
      killQuietly(child.pid, 'SIGKILL', false);
    }
    for (const pgid of groupLeaders) killQuietly(pgid, 'SIGKILL', true);
    killTrackedPids();
  });
}

function killQuietly(pid: number | undefined, signal: NodeJS.Signals, group: boolean): void {
  if (pid === undefined) return;
  try {
    process.kill(group ? -pid : pid, signal);
  } catch {
    // already gone
  }
}

/** Tracks a child process (killed by cleanup()). Returns it. */
export function trackProcess<T extends ChildProcess>(child: T): T {
  installExitHook();
  trackedProcs.add(child);
  child.once('exit', () => {
    trackedProcs.delete(child);
  });
  return child;
}

/**
 * Tracks a pid we did not spawn directly (e.g. a fixture the gateway spawned, whose pid a test read
 * from stderr as "pid=<n>"): cleanup() SIGKILLs it if it is still alive.
 */
export function trackPid(pid: number): void {
  installExitHook();
  if (!trackedPids.has(pid)) trackedPids.set(pid, startTime(pid));
}

function killTrackedPids(): void {
  for (const [pid, started] of trackedPids) {
    if (started === undefined || startTime(pid) === started) killQuietly(pid, 'SIGKILL', false);
  }
  trackedPids.clear();
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks); undefined if unknown. */
function startTime(pid: number): string | undefined {
  const fields = statFields(pid);
  return fields?.[19];
}

/** /proc/<pid>/stat fields after "(comm)": [state, ppid, pgrp, ...]; undefined if unreadable. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * All live descendants of a process (children, grandchildren, ...), read from /proc (Linux only;
 * [] elsewhere). Independent of process groups: the gateway spawns its servers detached.
 */
export function descendantPids(rootPid: number): number[] {
  if (process.platform !== 'linux') return [];
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = Number(statFields(Number(entry))?.[1]);
    if (!Number.isInteger(ppid)) continue;
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Tracks anything with close() (SDK clients, transports): cleanup() closes it. */
export function trackClosable<T extends Closable>(thing: T): T {
  trackedClosables.add(thing);
  return thing;
}

/** Stops tracking a closable (a test that closed it itself may call this; harmless otherwise). */
export function untrackClosable(thing: Closable): void {
  trackedClosables.delete(thing);
}

/** Tracks a temp dir: cleanup() removes it. */
export function trackDir(dir: string): string {
  trackedDirs.add(dir);
  return dir;
}

/**
 * Spawns a tracked child process. Pass detached: true to make it a process-group leader, so
 * cleanup() can also kill whatever it spawned (the gateway's fixture servers).
 */
export function spawnTracked(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], ...options });
  if (options.detached && child.pid !== undefined) groupLeaders.add(child.pid);
  return trackProcess(child);
}

/** Resolves when the child has exited (immediately if it already has). */
export function exited(child: ChildProcess): Promise<ExitInfo> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** SIGTERM, then SIGKILL after graceMs if it is still running; resolves with how it exited. */
export async function terminate(child: ChildProcess, graceMs = 5000): Promise<ExitInfo> {
  const done = exited(child);
  if (child.exitCode !== null || child.signalCode !== null) return done;
  // Remember its descendants now: if it dies without stopping them, cleanup() kills them.
  if (child.pid !== undefined) for (const pid of descendantPids(child.pid)) trackPid(pid);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    return await done;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Closes every tracked client, stops every tracked process (SIGTERM, SIGKILL of the whole group
 * after a short grace), kills tracked pids and removes temp dirs. Safe to call many times.
 */
export async function cleanup(): Promise<void> {
  const closables = [...trackedClosables];
  trackedClosables.clear();
  await Promise.all(
    closables.map((c) =>
      withTimeout(
        c.close().catch(() => {}),
        5000,
      ),
    ),
  );

  const procs = [...trackedProcs];
  await Promise.all(procs.map((child) => terminate(child, 2000)));
  // Whatever is left in the groups of detached children (the gateway's own children).
  for (const pgid of groupLeaders) killQuietly(pgid, 'SIGKILL', true);
  groupLeaders.clear();

  killTrackedPids();

  const dirs = [...trackedDirs];
  trackedDirs.clear();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }).catch(() => {})));
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * True if a process with this pid exists and is not a zombie. (signal 0 checks existence only;
 * EPERM means it exists but belongs to someone else.)
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform === 'linux') {
    try {
      // /proc/<pid>/stat: "pid (comm) S ..." - state Z is an exited, unreaped process.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') return false;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * Polls a cheap predicate until it is true; rejects after `timeout` ms.
 *
 * RULE: use this ONLY for OS-level facts that emit no event we can listen to (a grandchild
 * process is gone, a file appeared). Anything the code under test reports - a log line, a
 * message, a process we spawned exiting - must be awaited through its event
 * (waitForStderr, exited(), a client promise), never polled, and never slept for.
 */
export async function waitFor(predicate: () => boolean | Promise<boolean>, options: { timeout?: number; interval?: number; message?: string } = {}): Promise<void> {
  const { timeout = 5000, interval = 10, message = 'condition' } = options;
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() > deadline) throw new Error(`waitFor: ${message} not met within ${timeout} ms`);
    await new Promise((resolve) => (interval <= 0 ? setImmediate(resolve) : setTimeout(resolve, interval)));
  }
}

/**
 * Collects the lines of a stream (stderr usually) into an array and emits 'line' for each.
 * waitForLine(regex) resolves with the first line matching - already collected or future.
 */
export class LineCollector extends EventEmitter {
  readonly lines: string[] = [];
  private buffer = '';
  private ended_ = false;

  constructor(stream: Readable | null | undefined) {
    super();
    this.setMaxListeners(0); // one listener per pending wait; many concurrent waits are normal
    if (!stream) return;
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        this.push(this.buffer.slice(0, nl).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(nl + 1);
      }
    });
    stream.on('end', () => this.end());
    stream.on('close', () => this.end());
  }

  private push(line: string): void {
    this.lines.push(line);
    this.emit('line', line);
  }

  private end(): void {
    if (this.ended_) return;
    this.ended_ = true;
    if (this.buffer !== '') this.push(this.buffer);
    this.buffer = '';
    this.emit('end');
  }

  /** Resolves once the stream has ended (or after maxWaitMs, whichever is first). */
  ended(maxWaitMs = 1000): Promise<void> {
    if (this.isEnded) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, maxWaitMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.once('end', done);
    });
  }

  get isEnded(): boolean {
    return this.ended_;
  }

  get text(): string {
    return this.lines.join('\n');
  }

  /**
   * Resolves with the first line matching `re` (searching lines already collected first).
   * Rejects if the stream ends first or after timeoutMs; the error includes everything collected.
   */
  waitForLine(re: RegExp, timeoutMs = 10_000, label = 'stream'): Promise<string> {
    const hit = this.lines.find((l) => re.test(l));
    if (hit !== undefined) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const onLine = (line: string) => {
        if (re.test(line)) {
          done();
          resolve(line);
        }
      };
      const onEnd = () => {
        done();
        reject(new Error(`${label} ended before a line matched ${re}. Collected:\n${this.text}`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${label} line matched ${re} within ${timeoutMs} ms. Collected:\n${this.text}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.off('line', onLine);
        this.off('end', onEnd);
      };
      this.on('line', onLine);
      if (this.ended_) onEnd();
      else this.on('end', onEnd);
    });
  }
}

// Outbound stdio: spawns one MCP server as a child (execa's only home), frames newline-delimited
// JSON on its stdin/stdout, and sends its stderr to our log. The child runs in its own process
// group so that shutdown reaches grandchildren too (npx → node): close stdin, then SIGTERM the
// group, then SIGKILL. A registry kills every live group synchronously if the gateway exits.
// At start-up a child may be spawned before its transport exists (spawnEarly); the transport adopts it.

import { execa, type ResultPromise } from 'execa';
import { GatewayError } from '../errors.js';
import { LineWriter } from '../jsonrpc/line-writer.js';
import { LineDecoder, encodeLine, responseIdInHead, textOf } from '../jsonrpc/ndjson.js';
import { DEFAULT_MAX_DEPTH, parseJsonText } from '../jsonrpc/parse.js';
import { ErrorCode, errorResponse, type JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { Logger } from '../log.js';
import { NO_SINK, SENT, type Transport, type TransportSink } from '../transport.js';
import { StderrTail } from './stderr-tail.js';

export interface StdioTransportOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Which of the gateway's own variables the child also gets (see baseEnvironment). */
  inheritEnv?: boolean | string[];
  cwd: string;
  logger: Logger;
  maxMessageBytes?: number;
  /** Deepest nesting accepted in a message from the server (limits.maxDepth). */
  maxDepth?: number;
  /** Bytes queued on the child's stdin before sends are refused (limits.writeBuffer). */
  writeBufferBytes?: number;
  /** How long to wait after closing stdin, then after SIGTERM, before the next step. */
  gracePeriodMs?: number;
}

/** What every child gets of the gateway's environment, as the official SDK does: enough to run, no secrets. */
const BASE_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/**
 * The child's environment: the base variables, those `inherit` names (or all, for true), then the
 * entry's own env. A token the gateway holds for another server (in its environment) stays here.
 */
export function childEnvironment(env: Record<string, string>, inherit: boolean | string[] = false, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  const names = inherit === true ? Object.keys(from) : [...BASE_ENV, ...(inherit === false ? [] : inherit)];
  for (const name of names) {
    const value = from[name];
    if (value !== undefined) out[name] = value;
  }
  return { ...out, ...env };
}

const DEFAULT_WRITE_BUFFER_BYTES = 32 * 1024 * 1024;
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last line of defence against orphans: whatever way we exit, no child group survives us.
  process.on('exit', () => {
    for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  });
}

type Child = ResultPromise<{ stdin: 'pipe'; stdout: 'pipe'; stderr: 'pipe'; buffer: false; reject: false; detached: true }>;
type SpawnOptions = Pick<StdioTransportOptions, 'command' | 'args' | 'env' | 'inheritEnv' | 'cwd'>;
interface Launched {
  child: Child;
  /** Settles when the OS has started the process (or failed to). */
  spawned: Promise<void>;
  /** An early child's output from before it was adopted (see spawnEarly). */
  held?: HeldOutput;
}

/** What an early child wrote before its transport existed, kept in order for the transport. */
interface HeldOutput {
  stdout: Buffer[];
  stderr: Buffer[];
  stdoutEnded: boolean;
  stderrEnded: boolean;
  /** Stops holding (the transport reads from here on) and resumes a stream paused at the bound. */
  release(): void;
}

/** Output held for one early child, per stream, before reading from it pauses. */
const MAX_HELD_BYTES = 1024 * 1024;

/**
 * Reads an early child's stdout and stderr until it is adopted. Nothing may be dropped: a server
 * that dies at start says why on stderr at once, possibly before its transport exists.
 */
function holdOutput(child: Child): HeldOutput {
  const held: HeldOutput = { stdout: [], stderr: [], stdoutEnded: false, stderrEnded: false, release: () => {} };
  const sizes = { stdout: 0, stderr: 0 };
  const hold = (name: 'stdout' | 'stderr') => (chunk: Buffer) => {
    held[name].push(chunk);
    sizes[name] += chunk.length;
    if (sizes[name] > MAX_HELD_BYTES) child[name].pause();
  };
  const onOut = hold('stdout');
  const onErr = hold('stderr');
  const outEnd = () => (held.stdoutEnded = true);
  const errEnd = () => (held.stderrEnded = true);
  child.stdout.on('data', onOut).once('end', outEnd);
  child.stderr.on('data', onErr).once('end', errEnd);
  held.release = () => {
    child.stdout.off('data', onOut).off('end', outEnd);
    child.stderr.off('data', onErr).off('end', errEnd);
    child.stdout.resume();
    child.stderr.resume();
  };
  return held;
}

function launch(o: SpawnOptions): Launched {
  installExitHook();
  const child = execa(o.command, o.args, {
    cwd: o.cwd,
    env: childEnvironment(o.env, o.inheritEnv),
    extendEnv: false,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    detached: true,
    // Not execa's forceKillAfterDelay, cleanup or cancelSignal: each of them signals the child's
    // own pid, and an `npx` wrapper's real server is a grandchild that would outlive it. We run
    // our own sequence on the whole process group (stdin end → SIGTERM → SIGKILL) in close(),
    // and the exit hook above is the group-wide equivalent of execa's cleanup.
    forceKillAfterDelay: false,
    cleanup: false,
    windowsHide: true,
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', (err) => reject(err));
  });
  return { child, spawned };
}

/**
 * Start-up: children spawned before their transport exists (spawnEarly), so that their boot
 * overlaps the gateway's own. Keyed by everything that makes the spawn (command, args, cwd, the
 * child's environment); the first transport started with the same key adopts one, unchanged.
 */
const early = new Map<string, Launched[]>();
const spawnKey = (o: SpawnOptions) => JSON.stringify([o.command, o.args, o.cwd, childEnvironment(o.env, o.inheritEnv)]);

/** Spawns a server now (its pid, if the OS started it); the transport that later starts with the same options adopts it. */
export function spawnEarly(o: SpawnOptions): number | undefined {
  let launched: Launched;
  try {
    launched = launch(o);
  } catch {
    return undefined; // the transport's own start() reports it
  }
  const { child, spawned } = launched;
  // Until adopted nobody else listens: a failure to spawn is reported by the adopting transport.
  child.stdin.on('error', () => {});
  launched.held = holdOutput(child);
  spawned.then(
    () => child.pid !== undefined && liveGroups.add(child.pid),
    () => {},
  );
  const key = spawnKey(o);
  early.set(key, [...(early.get(key) ?? []), launched]);
  return child.pid;
}

function adoptEarly(o: SpawnOptions): Launched | undefined {
  if (early.size === 0) return undefined;
  const key = spawnKey(o);
  const waiting = early.get(key);
  const launched = waiting?.shift();
  if (waiting?.length === 0) early.delete(key);
  return launched;
}

/** Kills the early children no transport adopted (their server did not start after all); resolves once they are gone. */
export async function dropEarly(): Promise<void> {
  const left = [...early.values()].flat();
  early.clear();
  await Promise.all(
    left.map(async ({ child }) => {
      child.stdin.end();
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
      await child;
      if (child.pid !== undefined) liveGroups.delete(child.pid);
    }),
  );
}

export class StdioTransport implements Transport {
  /** Where what the pipe carries goes (given to start). */
  private sink: TransportSink = NO_SINK;

  private child?: Child;
  private exited?: Promise<void>;
  private writer?: LineWriter;
  private closing = false;
  /** Set while closing: called when the server sends a request it cannot get an answer to. */
  private askedWhileClosing?: () => void;
  private closedNotified = false;
  private readonly stderrTail = new StderrTail();

  constructor(private readonly options: StdioTransportOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    const o = this.options;
    const { child, spawned, held } = adoptEarly(o) ?? launch(o);
    this.child = child;
    this.writer = new LineWriter(child.stdin);
    this.exited = child.then(
      (result) => this.onExit(result.exitCode, result.signal ?? undefined, result.failed && !result.exitCode && !result.signal ? result.message : undefined),
      (err: unknown) => this.onExit(undefined, undefined, String(err)),
    );

    const decoder = new LineDecoder(
      {
        line: (chunks) => this.receiveLine(chunks),
        oversized: (bytes, head) => this.receiveOversized(bytes, head),
      },
      o.maxMessageBytes,
    );
    const stderrLines = new LineDecoder({ line: (chunks) => this.receiveStderr(textOf(chunks)), oversized: () => {} }, 64 * 1024);
    // An adopted child's output so far comes first, in the same turn as the listeners below: in order, none lost.
    if (held) {
      held.release();
      for (const chunk of held.stdout) decoder.push(chunk);
      for (const chunk of held.stderr) stderrLines.push(chunk);
    }
    child.stdout.on('data', (chunk: Buffer) => decoder.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderrLines.push(chunk));
    if (held?.stdoutEnded) decoder.end();
    else child.stdout.on('end', () => decoder.end());
    if (held?.stderrEnded) stderrLines.end();
    else child.stderr.on('end', () => stderrLines.end());
    // EPIPE on a dead child's stdin is reported through the exit path, not as a crash.
    child.stdin.on('error', () => {});

    try {
      await spawned;
    } catch (err) {
      throw new GatewayError('SERVER_UNAVAILABLE', `cannot start \`${o.command}\`: ${(err as Error).message}`, { cause: err });
    }
    if (child.pid !== undefined) liveGroups.add(child.pid);
  }

  send(message: JsonRpcMessage): Promise<void> {
    const child = this.child;
    if (!child || this.closing || child.stdin.destroyed || !child.stdin.writable) {
      return Promise.reject(new GatewayError('CONNECTION_CLOSED', 'the server process is not running'));
    }
    // A server that stops reading must not make us queue without bound: past the limit its
    // callers are refused at once (the queue drains when it reads again).
    const limit = this.options.writeBufferBytes ?? DEFAULT_WRITE_BUFFER_BYTES;
    if (child.stdin.writableLength + this.writer!.pendingBytes > limit) {
      return Promise.reject(new GatewayError('LIMIT_EXCEEDED', `the server is not reading its input (over ${limit} bytes queued, limits.writeBuffer)`, { retryAfterMs: 1000 }));
    }
    this.writer!.write(encodeLine(message));
    return SENT;
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closing) {
      await this.exited;
      return;
    }
    this.closing = true;
    const grace = this.options.gracePeriodMs ?? 2000;
    const pid = child.pid;
    this.writer?.flush();
    // A server that asks us something now waits for an answer that cannot come (its input is
    // closed): it gets SIGTERM at once instead of after the grace (server-everything asks for
    // roots 350 ms after start, and a client that leaves at once would wait 2 s for us).
    const asked = new Promise<void>((resolve) => (this.askedWhileClosing = resolve));
    child.stdin.end();
    if (!(await this.exitsWithin(grace, asked)) && pid !== undefined) {
      killGroup(pid, 'SIGTERM');
      if (!(await this.exitsWithin(grace))) {
        this.options.logger.warn({ pid }, 'server ignored SIGTERM; killing it');
        killGroup(pid, 'SIGKILL');
        await this.exited;
      }
    }
    // Grandchildren that outlived their parent (npx wrappers) share its group.
    if (pid !== undefined) killGroup(pid, 'SIGKILL');
  }

  /** The last lines the server wrote on stderr (bounded), for error reports. */
  get lastStderr(): readonly string[] {
    return this.stderrTail.all;
  }

  /** True once the child exits; false after `ms`, or as soon as `giveUp` settles. */
  private exitsWithin(ms: number, giveUp?: Promise<void>): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void giveUp?.then(() => {
        clearTimeout(timer);
        resolve(false);
      });
      this.exited!.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private receiveLine(chunks: readonly Buffer[]): void {
    if (this.askedWhileClosing !== undefined && this.askedAfterClose(chunks)) return;
    // A response someone takes as it is is passed on without being decoded or parsed (jsonrpc/raw.ts).
    if (this.sink.text?.(chunks) !== undefined) return;
    const text = textOf(chunks);
    const parsed = parseJsonText(text, this.options.maxDepth ?? DEFAULT_MAX_DEPTH);
    if (parsed.ok) {
      this.sink.message(parsed.value as JsonRpcMessage);
      return;
    }
    if (parsed.why === 'invalid-json') {
      this.sink.error(new GatewayError('PROTOCOL_ERROR', `ignored a non-JSON line on stdout: ${text.slice(0, 80)}`));
      // A line that reads as an answer to one of our requests but is not JSON fails that request now.
      const id = responseIdInHead(text.slice(0, 256));
      if (id !== undefined) this.sink.fail(id, new GatewayError('PROTOCOL_ERROR', 'the server answered with invalid JSON; dropped'));
      return;
    }
    const error = new GatewayError('MESSAGE_TOO_DEEP', `the server sent a message nested deeper than ${this.options.maxDepth ?? DEFAULT_MAX_DEPTH} levels (limits.maxDepth); dropped`);
    this.sink.error(error);
    if (parsed.id === undefined) return;
    // A request of the server's gets a refusal; an answer to one of ours fails that call now.
    if (parsed.method !== undefined) void this.send(errorResponse(parsed.id, ErrorCode.InvalidRequest, error.message)).catch(() => {});
    else this.sink.fail(parsed.id, error);
  }

  /** While closing: a request from the server ends it now (see close); anything else goes on as usual. */
  private askedAfterClose(chunks: readonly Buffer[]): boolean {
    const parsed = parseJsonText(textOf(chunks), this.options.maxDepth ?? DEFAULT_MAX_DEPTH);
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) return false;
    const m = parsed.value as { id?: unknown; method?: unknown };
    if (typeof m.method !== 'string' || m.id === undefined) return false;
    this.options.logger.info(`asked ${m.method} after its input was closed: ending it now (SIGTERM), not after the grace`);
    this.askedWhileClosing?.();
    return true;
  }

  /** A message over the limit was dropped; if it answered one of our requests, that request fails now. */
  private receiveOversized(bytes: number, head: string): void {
    const limit = this.options.maxMessageBytes ?? 16 * 1024 * 1024;
    const error = new GatewayError('MESSAGE_TOO_LARGE', `the server sent a ${bytes}-byte message, over the limit of ${limit} bytes (limits.maxMessageBytes)`);
    this.sink.error(error);
    const id = responseIdInHead(head);
    if (id !== undefined) this.sink.fail(id, error);
  }

  private receiveStderr(text: string): void {
    this.stderrTail.push(text);
    this.options.logger.info({ stream: 'stderr' }, text);
  }

  private onExit(code: number | undefined, signal: string | undefined, failure?: string): void {
    const pid = this.child?.pid;
    if (pid !== undefined) liveGroups.delete(pid);
    if (this.closedNotified) return;
    this.closedNotified = true;
    if (this.closing) {
      this.sink.close();
      return;
    }
    const how = failure ?? (signal ? `was killed by ${signal}` : `exited with code ${code}`);
    // What the server printed may hold paths and secrets: it is for the operator (logs, check,
    // status), never part of the message a client receives.
    const reason = this.stderrTail.reason();
    this.sink.close(new GatewayError('CONNECTION_CLOSED', `server process ${how}`, { detail: reason ? `stderr: ${reason}` : undefined }));
  }
}

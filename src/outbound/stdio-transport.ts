// Outbound stdio: spawns one MCP server as a child (execa's only home), frames newline-delimited
// JSON on its stdin/stdout, and sends its stderr to our log. The child runs in its own process
// group so that shutdown reaches grandchildren too (npx → node): close stdin, then SIGTERM the
// group, then SIGKILL. A registry kills every live group synchronously if the gateway exits.

import { execa, type ResultPromise } from 'execa';
import { GatewayError } from '../errors.js';
import { LineWriter } from '../jsonrpc/line-writer.js';
import { LineDecoder, encodeLine, responseIdInHead } from '../jsonrpc/ndjson.js';
import { ErrorCode, type JsonRpcMessage } from '../jsonrpc/types.js';
import type { Logger } from '../log.js';
import type { Transport } from '../transport.js';

export interface StdioTransportOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  logger: Logger;
  maxMessageBytes?: number;
  /** How long to wait after closing stdin, then after SIGTERM, before the next step. */
  gracePeriodMs?: number;
}

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

export class StdioTransport implements Transport {
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;

  private child?: ResultPromise<{ stdin: 'pipe'; stdout: 'pipe'; stderr: 'pipe'; buffer: false; reject: false; detached: true }>;
  private exited?: Promise<void>;
  private writer?: LineWriter;
  private closing = false;
  private closedNotified = false;
  private readonly recentStderr: string[] = [];

  constructor(private readonly options: StdioTransportOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    installExitHook();
    const o = this.options;
    const child = execa(o.command, o.args, {
      cwd: o.cwd,
      env: o.env,
      extendEnv: true,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
      buffer: false,
      reject: false,
      detached: true,
      // We run our own shutdown sequence (stdin → SIGTERM → SIGKILL on the whole group).
      forceKillAfterDelay: false,
      cleanup: false,
      windowsHide: true,
    });
    this.child = child;
    this.writer = new LineWriter(child.stdin);
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err) => reject(err));
    });
    this.exited = child.then(
      (result) => this.onExit(result.exitCode, result.signal ?? undefined, result.failed && !result.exitCode && !result.signal ? result.message : undefined),
      (err: unknown) => this.onExit(undefined, undefined, String(err)),
    );

    const decoder = new LineDecoder(
      {
        line: (text) => this.receiveLine(text),
        oversized: (bytes, head) => this.receiveOversized(bytes, head),
      },
      o.maxMessageBytes,
    );
    child.stdout.on('data', (chunk: Buffer) => decoder.push(chunk));
    child.stdout.on('end', () => decoder.end());
    const stderrLines = new LineDecoder({ line: (text) => this.receiveStderr(text), oversized: () => {} }, 64 * 1024);
    child.stderr.on('data', (chunk: Buffer) => stderrLines.push(chunk));
    child.stderr.on('end', () => stderrLines.end());
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
    // Back-pressure is left to the pipe buffer: a stdio server that stops reading eventually
    // stalls its own callers, never the gateway's event loop.
    this.writer!.write(encodeLine(message));
    return Promise.resolve();
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
    child.stdin.end();
    if (!(await this.exitsWithin(grace)) && pid !== undefined) {
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

  /** The last lines the server wrote on stderr, for error reports. */
  get lastStderr(): string[] {
    return this.recentStderr;
  }

  private exitsWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.exited!.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private receiveLine(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.onerror?.(new GatewayError('PROTOCOL_ERROR', `ignored a non-JSON line on stdout: ${text.slice(0, 80)}`));
      return;
    }
    this.onmessage?.(message as JsonRpcMessage);
  }

  /** A message over the limit was dropped; if it answered one of our requests, that request fails now. */
  private receiveOversized(bytes: number, head: string): void {
    const limit = this.options.maxMessageBytes ?? 16 * 1024 * 1024;
    const message = `the server sent a ${bytes}-byte message, over the limit of ${limit} bytes (limits.maxMessageBytes)`;
    this.onerror?.(new GatewayError('MESSAGE_TOO_LARGE', message));
    const id = responseIdInHead(head);
    if (id !== undefined) this.onmessage?.({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message, data: { code: 'MESSAGE_TOO_LARGE' } } });
  }

  private receiveStderr(text: string): void {
    if (this.recentStderr.length >= 10) this.recentStderr.shift();
    this.recentStderr.push(text);
    this.options.logger.info({ stream: 'stderr' }, text);
  }

  private onExit(code: number | undefined, signal: string | undefined, failure?: string): void {
    const pid = this.child?.pid;
    if (pid !== undefined) liveGroups.delete(pid);
    if (this.closedNotified) return;
    this.closedNotified = true;
    if (this.closing) {
      this.onclose?.();
      return;
    }
    const how = failure ?? (signal ? `was killed by ${signal}` : `exited with code ${code}`);
    const last = this.recentStderr.at(-1);
    this.onclose?.(new GatewayError('CONNECTION_CLOSED', `server process ${how}${last ? ` (last stderr: ${last.slice(0, 200)})` : ''}`));
  }
}

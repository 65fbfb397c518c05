// Running fixture servers directly (without the gateway), and a raw JSON-lines peer for
// wire-level tests of anything that speaks MCP over stdio (a fixture, or `serve --stdio`).
import type { ChildProcess } from 'node:child_process';
import type { StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fixture, nodeBin, repoRoot, type FixtureName } from './paths.js';
import { LineCollector, exited, spawnTracked, terminate, type ExitInfo } from './processes.js';

/** StdioClientTransport parameters that run a fixture: connectStdioClient(fixtureParams('echo')). */
export function fixtureParams(name: FixtureName, args: string[] = []): StdioServerParameters & { stderr: 'pipe' } {
  return { command: nodeBin, args: [fixture(name), ...args], cwd: repoRoot, stderr: 'pipe' };
}

export interface SpawnedFixture {
  proc: ChildProcess;
  pid: number;
  stdout: LineCollector;
  stderr: LineCollector;
  exited: Promise<ExitInfo>;
  /** SIGTERM, SIGKILL after graceMs (default 5000). */
  stop(graceMs?: number): Promise<ExitInfo>;
}

/** Spawns a fixture with piped stdio (tracked for cleanup()); stdout and stderr are collected as lines. */
export function spawnFixture(name: FixtureName, args: string[] = []): SpawnedFixture {
  const proc = spawnTracked(nodeBin, [fixture(name), ...args], { cwd: repoRoot });
  return {
    proc,
    pid: proc.pid ?? -1,
    stdout: new LineCollector(proc.stdout),
    stderr: new LineCollector(proc.stderr),
    exited: exited(proc),
    stop: (graceMs = 5000) => terminate(proc, graceMs),
  };
}

export interface HttpFixture extends SpawnedFixture {
  /** http://127.0.0.1:PORT/mcp, or .../sse with legacy: true */
  url: string;
}

/** Starts http-server.mjs and waits for the URL line it prints. */
export async function startHttpFixture(options: { name?: string; legacy?: boolean } = {}): Promise<HttpFixture> {
  const args: string[] = [];
  if (options.name) args.push('--name', options.name);
  if (options.legacy) args.push('--legacy-sse');
  const spawned = spawnFixture('http-server', args);
  try {
    const line = await spawned.stdout.waitForLine(/"url"/, 10_000, 'http-server stdout');
    return { ...spawned, url: (JSON.parse(line) as { url: string }).url };
  } catch (err) {
    await spawned.stop(500);
    throw new Error(`${(err as Error).message}\nstderr:\n${spawned.stderr.text}`);
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  params?: Json;
  result?: Json;
  error?: { code: number; message: string; data?: Json };
}

/**
 * A minimal JSON-RPC-over-JSON-lines peer on a child's stdin/stdout, for wire-level tests
 * (framing, ordering, raw errors) that the SDK client would hide.
 */
export class JsonLinePeer {
  readonly messages: JsonRpcMessage[] = [];
  /** Lines on stdout that were not JSON. */
  readonly garbage: string[] = [];
  private nextId = 1;
  private readonly out: LineCollector;

  constructor(
    private readonly proc: ChildProcess,
    stdout?: LineCollector,
  ) {
    this.out = stdout ?? new LineCollector(proc.stdout);
    for (const line of this.out.lines) this.take(line);
    this.out.on('line', (line: string) => this.take(line));
  }

  private take(line: string): void {
    try {
      this.messages.push(JSON.parse(line) as JsonRpcMessage);
    } catch {
      this.garbage.push(line);
    }
  }

  /** Writes one message (or any raw string, written as-is: include the '\n' yourself). */
  write(message: JsonRpcMessage | JsonRpcMessage[] | string): void {
    this.proc.stdin!.write(typeof message === 'string' ? message : `${JSON.stringify(message)}\n`);
  }

  notify(method: string, params?: Json): void {
    this.write(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Sends a request and resolves with its response message (result or error). */
  request(method: string, params?: Json, timeoutMs = 10_000): Promise<JsonRpcMessage> {
    const id = this.nextId++;
    const waiting = this.next((m) => m.id === id && m.method === undefined, timeoutMs);
    this.write(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return waiting;
  }

  /** initialize + notifications/initialized; resolves with the initialize result. */
  async initialize(protocolVersion = '2025-11-25', capabilities: Json = {}): Promise<JsonRpcMessage> {
    const response = await this.request('initialize', {
      protocolVersion,
      capabilities,
      clientInfo: { name: 'test-client', version: '1.0.0' },
    });
    this.notify('notifications/initialized');
    return response;
  }

  /** Resolves with the first message (already received or future) matching the predicate. */
  next(predicate: (m: JsonRpcMessage) => boolean, timeoutMs = 10_000): Promise<JsonRpcMessage> {
    const found = this.messages.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const onLine = () => {
        const last = this.messages[this.messages.length - 1];
        if (last && predicate(last)) {
          done();
          resolve(last);
        }
      };
      const onEnd = () => {
        done();
        reject(new Error(`stdout ended before a matching message arrived. Received:\n${this.out.text}`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching message within ${timeoutMs} ms. Received:\n${this.out.text}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.out.off('line', onLine);
        this.out.off('end', onEnd);
      };
      // Registered after the constructor's listener, so `take` has already run for each line.
      this.out.on('line', onLine);
      if (this.out.isEnded) onEnd();
      else this.out.once('end', onEnd);
    });
  }
}

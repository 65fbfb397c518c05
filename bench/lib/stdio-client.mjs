// A raw MCP client over stdio: newline-delimited JSON-RPC on a child's stdin/stdout, ids matched
// in a Map. No SDK, no validation: as little client work per call as we can manage, so that the
// figures measure what sits between the client and the echo server.

import { start } from './procs.mjs';

export const PROTOCOL_VERSION = '2025-06-18';

export class RpcFailure extends Error {
  constructor(error) {
    super(`JSON-RPC error ${error?.code}: ${error?.message}`);
    this.rpc = error;
  }
}

/**
 * Calls `fn` with each non-empty line of a stream, however the chunks fall. One loop per chunk;
 * a partial line waits in `pieces` until its newline arrives.
 */
export function onLines(stream, fn) {
  stream.setEncoding('utf8');
  let pieces = [];
  stream.on('data', (chunk) => {
    let from = 0;
    let nl;
    while ((nl = chunk.indexOf('\n', from)) !== -1) {
      let line = chunk.slice(from, nl);
      if (pieces.length > 0) {
        pieces.push(line);
        line = pieces.join('');
        pieces = [];
      }
      if (line.length > 0) fn(line);
      from = nl + 1;
    }
    if (from < chunk.length) pieces.push(chunk.slice(from));
  });
}

export class StdioClient {
  /** Spawns command (tracked, own process group) and wires up line parsing. */
  constructor(command, args, { label, env, onStderrLine } = {}) {
    this.proc = start(command, args, { label, env, onStderrLine });
    this.pending = new Map();
    this.nextId = 1;
    this.closed = false;
    onLines(this.proc.child.stdout, (line) => this.#onLine(line));
    this.proc.exitPromise.then(() => {
      this.closed = true;
      const why = new Error(`${this.proc.label} exited (code ${this.proc.exitCode}, signal ${this.proc.exitSignal})${tailOf(this.proc)}`);
      for (const p of this.pending.values()) p.reject(why);
      this.pending.clear();
    });
  }

  get pid() {
    return this.proc.pid;
  }

  #onLine(line) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      return; // not ours to judge here; a broken line will surface as a timeout
    }
    if (msg.id === undefined || msg.method !== undefined) return; // notifications, server requests
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.error) p.reject(new RpcFailure(msg.error));
    else p.resolve(msg.result);
  }

  /** Sends a request whose params are already serialized (the hot path). */
  requestRaw(method, paramsJson) {
    if (this.closed) return Promise.reject(new Error(`${this.proc.label} is closed${tailOf(this.proc)}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.proc.child.stdin.write(paramsJson === undefined ? `{"jsonrpc":"2.0","id":${id},"method":"${method}"}\n` : `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${paramsJson}}\n`);
    });
  }

  request(method, params) {
    return this.requestRaw(method, params === undefined ? undefined : JSON.stringify(params));
  }

  notify(method, params) {
    this.proc.child.stdin.write(`${JSON.stringify(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params })}\n`);
  }

  /** initialize + notifications/initialized; resolves with the initialize result. */
  async initialize() {
    const result = await this.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'switchboard-bench', version: '1.0.0' },
    });
    this.notify('notifications/initialized');
    return result;
  }

  /** Ends the child (closes stdin, then signals its tree). */
  async close() {
    try {
      this.proc.child.stdin.end();
    } catch {
      /* gone */
    }
    await Promise.race([this.proc.exitPromise, new Promise((r) => setTimeout(r, 300))]);
    await this.proc.stop();
  }
}

function tailOf(proc) {
  const tail = proc.stderrTail().trim();
  return tail ? `\n--- stderr of ${proc.label} (tail) ---\n${tail.slice(-2000)}` : '';
}

// The one host function the sandbox's prelude holds (`__sb_host(op, a, b)`): console lines,
// timers, and the nested calls (tools, search, describe) with their checks: call limit, argument
// validation against the tool's inputSchema, result size. Everything from the sandbox is untrusted.

import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle } from 'quickjs-emscripten-core';
import { declareTool } from './bindings.js';
import { type CallGate, CallLimitError } from './calls.js';
import type { CodeModeLimits } from './limits.js';
import type { BindingNames, CallableRef, NamedCallable } from './names.js';
import type { LogCollector } from './output.js';
import { parseSafe, tooDeep } from './output.js';
import type { PreludeConfig } from './prelude.js';
import { callFailure, errorEnvelope, okEnvelope, type RunError } from './run-error.js';
import { type JsonSchema, validateArgs } from './validate.js';

/** A tool the run may call, with what the sandbox needs to validate and describe it. */
export interface Callable extends CallableRef {
  description?: string;
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
}

export interface CallContext {
  /** Aborted when the run ends early (limit, abort, script returned with the call in flight). */
  signal: AbortSignal;
}

export interface SearchHit {
  server: string;
  tool: string;
  [key: string]: unknown;
}

/** What the gateway gives a run: its tools, and the callbacks that do the real work. */
export interface Bindings {
  callables: readonly Callable[];
  /** Resolves with the value the script sees; rejects with {code, message, data} for an McpError. */
  call(server: string, tool: string, args: Record<string, unknown>, ctx: CallContext): Promise<unknown>;
  /** tools.search(query): hits of tools not in `callables` are dropped. */
  search?(query: string, ctx: CallContext): Promise<readonly SearchHit[]>;
  /** tools.describe(name): extra fields for the answer (the sandbox already gives the declaration). */
  describe?(server: string, tool: string, ctx: CallContext): Promise<Record<string, unknown> | undefined>;
}

/** Pending setTimeout calls per run. */
const MAX_TIMERS = 1_000;
/** Arguments of one call, as JSON. */
export const MAX_ARG_CHARS = 1_000_000;
/** A search query or a name to describe. */
export const MAX_QUERY_CHARS = 2_000;
/** Arguments nesting deeper than this are refused: every later walk of them would be recursive. */
const MAX_ARG_DEPTH = 64;

interface Hooks {
  deliver(d: QuickJSDeferredPromise, text: string): void;
  halt(error: RunError): void;
}

export class HostOps {
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Answers the sandbox still waits for (calls and timers): none, and nothing to run, is a stall. */
  private pendingAnswers = 0;
  /** An answer larger than this would not fit the sandbox's memory once parsed. */
  private readonly maxAnswerChars: number;

  constructor(
    private readonly ctx: QuickJSContext,
    private readonly names: BindingNames<Callable>,
    private readonly bindings: Bindings,
    private readonly limits: CodeModeLimits,
    private readonly gate: CallGate,
    private readonly logs: LogCollector,
    private readonly hooks: Hooks,
  ) {
    this.maxAnswerChars = Math.floor(limits.memoryBytes / 8);
  }

  get outstanding(): number {
    return this.pendingAnswers;
  }

  /** Nested calls admitted (refused ones past the limit are not counted). */
  get callCount(): number {
    return this.gate.admitted;
  }

  preludeServers(): PreludeConfig['servers'] {
    const servers = new Map<string, PreludeConfig['servers'][number]>();
    this.names.list.forEach((n, index) => {
      let s = servers.get(n.serverName);
      if (!s) servers.set(n.serverName, (s = [n.serverName, n.entry.server, []]));
      s[2].push([n.toolName, n.entry.tool, index]);
    });
    return [...servers.values()];
  }

  hostFunction(): QuickJSHandle {
    const ctx = this.ctx;
    const str = (h: QuickJSHandle | undefined) => (h !== undefined && ctx.typeof(h) === 'string' ? ctx.getString(h) : '');
    const num = (h: QuickJSHandle | undefined) => (h !== undefined && ctx.typeof(h) === 'number' ? ctx.getNumber(h) : NaN);
    return ctx.newFunction('__sb_host', (op, a, b) => {
      switch (str(op)) {
        case 'log':
          // A full log only counts: the line is not even copied out of the sandbox.
          if (this.logs.full) this.logs.drop();
          else this.logs.add(str(a), str(b));
          return undefined;
        case 'timer':
          return this.timer(num(a));
        case 'call':
          return this.call(num(a), str(b));
        case 'search':
          return this.search(str(a));
        case 'describe':
          return this.describe(str(a));
        default:
          throw new Error('unknown host operation');
      }
    });
  }

  close(reason: Error): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.gate.close(reason);
  }

  private timer(ms: number): QuickJSHandle {
    if (this.timers.size >= MAX_TIMERS) throw new RangeError(`more than ${MAX_TIMERS} timers pending`);
    const d = this.ctx.newPromise();
    const delay = Number.isFinite(ms) ? Math.min(Math.max(ms, 0), this.limits.wallMs) : 0;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.pendingAnswers--;
      this.hooks.deliver(d, '');
    }, delay);
    this.timers.add(t);
    this.pendingAnswers++;
    return d.handle;
  }

  /** Counts the call, then answers it later through the deferred promise it returns at once. */
  private async_(label: { kind: 'tool' | 'search' | 'describe'; server?: string; tool?: string }, work: (signal: AbortSignal) => Promise<unknown>): QuickJSHandle {
    try {
      this.gate.admit();
    } catch (err) {
      if (err instanceof CallLimitError) this.hooks.halt({ kind: 'calls', message: err.message });
      throw err;
    }
    const d = this.ctx.newPromise();
    const where = label.kind === 'tool' ? { server: label.server, tool: label.tool } : {};
    const what = label.kind === 'tool' ? `${label.server}.${label.tool}` : `tools.${label.kind}`;
    this.pendingAnswers++;
    this.gate
      .run(label, work)
      .then(
        (value) => okEnvelope(value, this.maxAnswerChars, what),
        (err: unknown) => errorEnvelope(err, where),
      )
      .then((envelope) => {
        this.pendingAnswers--;
        this.hooks.deliver(d, envelope);
      });
    return d.handle;
  }

  private call(index: number, argsJson: string): QuickJSHandle {
    const named: NamedCallable<Callable> | undefined = Number.isInteger(index) ? this.names.list[index] : undefined;
    if (!named) {
      return this.async_({ kind: 'tool' }, () => Promise.reject(callFailure(-32602, 'Unknown tool')));
    }
    const { server, tool, inputSchema } = named.entry;
    return this.async_({ kind: 'tool', server, tool }, async (signal) => {
      if (argsJson.startsWith('!')) throw callFailure(-32602, `arguments of ${named.path} are not JSON-serialisable: ${argsJson.slice(1)}`);
      if (argsJson.length > MAX_ARG_CHARS) throw callFailure(-32602, `arguments of ${named.path} are ${argsJson.length} characters; at most ${MAX_ARG_CHARS}`);
      if (tooDeep(argsJson, MAX_ARG_DEPTH)) throw callFailure(-32602, `arguments of ${named.path} nest deeper than ${MAX_ARG_DEPTH} levels`);
      const args = parseSafe(argsJson);
      if (typeof args !== 'object' || args === null || Array.isArray(args)) {
        throw callFailure(-32602, `arguments of ${named.path} must be an object`);
      }
      if (inputSchema !== undefined) {
        const problems = validateArgs(inputSchema, args);
        if (problems.length > 0) {
          const shown = problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; and ${problems.length - 5} more` : '');
          throw callFailure(-32602, `Invalid arguments for ${named.path}: ${shown}`, { problems });
        }
      }
      return this.bindings.call(server, tool, args as Record<string, unknown>, { signal });
    });
  }

  private search(query: string): QuickJSHandle {
    return this.async_({ kind: 'search' }, async (signal) => {
      if (query.length > MAX_QUERY_CHARS) throw callFailure(-32602, `the query is over ${MAX_QUERY_CHARS} characters`);
      if (!this.bindings.search) throw callFailure(-32601, 'tools.search is not available in this run');
      const hits = await this.bindings.search(query, { signal });
      if (!Array.isArray(hits)) throw callFailure(-32603, 'tools.search answered with no list');
      // Only what this run may call, with the name the script calls it by.
      return hits.flatMap((h: SearchHit) => {
        const n = typeof h?.server === 'string' && typeof h?.tool === 'string' ? this.names.get(h.server, h.tool) : undefined;
        return n ? [{ ...h, call: n.path }] : [];
      });
    });
  }

  private describe(name: string): QuickJSHandle {
    return this.async_({ kind: 'describe' }, async (signal) => {
      const n = this.names.resolve(name);
      if (!n) {
        throw callFailure(-32602, `Unknown tool "${name}": find tools with tools.search(query), then describe them by the name it gives (tools.<server>.<tool>)`);
      }
      const extra = (await this.bindings.describe?.(n.entry.server, n.entry.tool, { signal })) ?? {};
      const { description, inputSchema, outputSchema } = n.entry;
      return {
        ...extra,
        call: n.path,
        server: n.entry.server,
        tool: n.entry.tool,
        ...(description === undefined ? {} : { description }),
        declaration: declareTool(n),
        ...(inputSchema === undefined ? {} : { inputSchema }),
        ...(outputSchema === undefined ? {} : { outputSchema }),
      };
    });
  }
}

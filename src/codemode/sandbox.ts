// runScript: one code-mode run in a fresh QuickJS instance. The engine runs on this event loop in
// short slices (a slice ends when the script awaits the host), all runs together at most half of
// the loop (fairness.ts); nested calls are host promises the sandbox awaits. Invariants: nothing but
// strings and numbers crosses; no slice outlives sliceMs; a run always ends (result, limit, abort)
// and then aborts every nested call it still has.

import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import { CallGate } from './calls.js';
import { type EngineInstance, newEngineInstance } from './engine.js';
import { engineWait, sliceEnded } from './fairness.js';
import { HostOps, MAX_ARG_CHARS, MAX_QUERY_CHARS } from './host-ops.js';
import { type CodeModeLimits, resolveLimits } from './limits.js';
import { bindingNames } from './names.js';
import { LogCollector, MAX_LINE_CHARS, maxOutputChars, shapeOutput } from './output.js';
import { PRELUDE, PRELUDE_FILE, SCRIPT_FILE, type PreludeConfig, wrapScript } from './prelude.js';
import { type RunError, classifyThrown, isSyntaxError, syntaxError } from './run-error.js';
import type { RunOptions, RunResult, RunStats } from './run-types.js';
import { stripTypes } from './transpile.js';

export type { Bindings, Callable, SearchHit, CallContext } from './host-ops.js';
export type { RunError, RunErrorKind } from './run-error.js';
export { formatRunError } from './run-error.js';
export type { LogLine } from './output.js';
export type { CallRecord } from './calls.js';
export type { RunOptions, RunResult, RunStats } from './run-types.js';

/** Jobs run in batches; past this the host gets a turn even if the script is only awaiting itself. */
const YIELD_MS = 20;
/**
 * A trap this close to the memory cap is the engine running out of memory: the engine grows its
 * memory by 5-20% at a time, so its last growth can fail that far below the cap.
 */
const NEAR_CAP = 0.08;

export async function runScript(code: string, options: RunOptions): Promise<RunResult> {
  const limits = resolveLimits(options.limits);
  const started = performance.now();
  const logs = new LogCollector(limits.maxLogLines, limits.maxLogChars, options.onLog);
  const gate = new CallGate(limits.maxCalls, limits.maxInFlight);
  const early = (error: RunError): RunResult => ({
    ok: false,
    error,
    logs: logs.result(),
    calls: gate.records,
    stats: { wallMs: performance.now() - started, startMs: 0, memoryBytes: 0, maxSliceMs: 0, calls: 0, transpiled: false },
  });
  if (code.length > limits.maxCodeChars) {
    return early({ kind: 'code-size', message: `the script is ${code.length} characters, over the limit of ${limits.maxCodeChars} (codeMode.maxCodeChars)` });
  }
  if (options.signal?.aborted) return early({ kind: 'aborted', message: 'the run was cancelled before it started' });
  const engine = await newEngineInstance(limits.memoryBytes);
  return new Run(engine, code, limits, options, logs, gate, started).start();
}

class Run {
  private readonly rt: QuickJSRuntime;
  private readonly ctx: QuickJSContext;
  private readonly ops: HostOps;
  private readonly scriptLines: number;
  private readonly deadline: number;
  private main: QuickJSHandle | undefined;
  private depth = 0;
  private sliceStart = 0;
  /** The process's CPU time (µs) when the slice started: see sliceOverrun. */
  private sliceCpuStart = 0;
  private stop: RunError | undefined;
  private finished = false;
  private transpiled = false;
  private startMs = 0;
  private maxSliceMs = 0;
  private deadlineTimer: NodeJS.Timeout | undefined;
  /** A pump put off until the loop has had its break (fairness.ts). */
  private pumpTimer: NodeJS.Timeout | undefined;
  private resolve!: (r: RunResult) => void;

  constructor(
    private readonly engine: EngineInstance,
    private readonly code: string,
    private readonly limits: CodeModeLimits,
    private readonly options: RunOptions,
    private readonly logs: LogCollector,
    private readonly gate: CallGate,
    private readonly started: number,
  ) {
    this.scriptLines = code.split('\n').length;
    // The clock starts once the engine is up: its first load in a process is not the script's time.
    this.deadline = performance.now() + limits.wallMs;
    this.rt = engine.module.newRuntime();
    this.rt.setMaxStackSize(limits.stackBytes);
    // Bounds single allocations only (see engine.ts); the instance's memory cap bounds the total.
    this.rt.setMemoryLimit(limits.memoryBytes);
    this.rt.setInterruptHandler(() => this.shouldInterrupt());
    this.ctx = this.rt.newContext();
    const names = bindingNames(options.bindings.callables);
    this.ops = new HostOps(this.ctx, names, options.bindings, limits, gate, logs, {
      deliver: (d, text) => this.deliver(d, text),
      halt: (e) => this.halt(e),
    });
  }

  start(): Promise<RunResult> {
    return new Promise<RunResult>((resolve) => {
      this.resolve = resolve;
      this.deadlineTimer = setTimeout(() => this.halt(this.timeoutError()), Math.max(0, this.deadline - performance.now()));
      this.options.signal?.addEventListener('abort', this.onAbort, { once: true });
      // Aborted while the engine was being made: the event has come and gone.
      if (this.options.signal?.aborted) return this.onAbort();
      this.boot().catch((err: unknown) => this.crashed(err));
    });
  }

  private readonly onAbort = (): void => this.halt({ kind: 'aborted', message: 'the run was cancelled' });

  private timeoutError(): RunError {
    return { kind: 'timeout', message: `the run took longer than ${this.limits.wallMs} ms (limit codeMode.wallTime)` };
  }

  private shouldInterrupt(): boolean {
    if (this.stop) return true;
    const now = performance.now();
    if (now > this.deadline) this.stop = this.timeoutError();
    else if (now - this.sliceStart > this.limits.sliceMs && this.sliceOverrun()) {
      this.stop = {
        kind: 'slice',
        message: `the script computed for more than ${this.limits.sliceMs} ms without awaiting (limit codeMode.slice): the gateway serves nobody else meanwhile; await between chunks of work (e.g. await new Promise(r => setTimeout(r, 0)))`,
      };
    }
    return this.stop !== undefined;
  }

  /**
   * The slice bounds the script's computing, so it is judged by CPU time, asked only once the
   * wall clock is over (a syscall, not worth making every interrupt): on a loaded host the wall
   * clock also counts time the OS gave other processes, and a script of 20 ms of work failed
   * there as if it had held the loop for 100. Process CPU time can only overcount the script
   * (the GC's helper threads), never undercount it.
   */
  private sliceOverrun(): boolean {
    const { user, system } = process.cpuUsage();
    return (user + system - this.sliceCpuStart) / 1000 > this.limits.sliceMs;
  }

  /** Every entry into the engine: a slice. A stop asked for during it takes effect right after. */
  private enter<T>(fn: () => T): T {
    this.depth++;
    if (this.depth === 1) {
      this.sliceStart = performance.now();
      const { user, system } = process.cpuUsage();
      this.sliceCpuStart = user + system;
    }
    try {
      return fn();
    } finally {
      if (--this.depth === 0) {
        const ms = performance.now() - this.sliceStart;
        if (ms > this.maxSliceMs) this.maxSliceMs = ms;
        sliceEnded(ms);
      }
    }
  }

  /** Resolves when scripts may compute again (fairness.ts): the loop has had its break. */
  private async turn(): Promise<void> {
    for (let wait = engineWait(); wait > 0 && !this.finished; wait = engineWait()) await new Promise((r) => setTimeout(r, wait));
  }

  private async boot(): Promise<void> {
    const config: PreludeConfig = {
      servers: this.ops.preludeServers(),
      maxOutputChars: maxOutputChars(this.limits.maxOutputTokens),
      maxArgChars: MAX_ARG_CHARS,
      maxLineChars: MAX_LINE_CHARS,
      maxQueryChars: MAX_QUERY_CHARS,
    };
    this.ctx.setProp(this.ctx.global, '__sb_config', this.ctx.newString(JSON.stringify(config)));
    this.ctx.setProp(this.ctx.global, '__sb_host', this.ops.hostFunction());
    const prelude = this.enter(() => this.ctx.evalCode(PRELUDE, PRELUDE_FILE));
    if (prelude.error) {
      if (this.stop) return this.finish(this.stop);
      throw new Error(`prelude: ${JSON.stringify(this.ctx.dump(prelude.error))}`);
    }
    this.startMs = performance.now() - this.started;

    const wrapped = wrapScript(this.code);
    await this.turn();
    if (this.finished) return;
    let result = this.enter(() => this.ctx.evalCode(wrapped, SCRIPT_FILE));
    if (result.error && !this.stop) {
      const thrown: unknown = this.ctx.dump(result.error);
      if (isSyntaxError(thrown)) {
        const stripped = await stripTypes(wrapped);
        if (this.finished) return;
        const jsError = classifyThrown(thrown, this.scriptLines);
        if (!stripped.ok) return this.finish(syntaxError(jsError, stripped));
        this.transpiled = true;
        result = this.enter(() => this.ctx.evalCode(stripped.code, SCRIPT_FILE));
        if (result.error && !this.stop) {
          const again: unknown = this.ctx.dump(result.error);
          return this.finish(isSyntaxError(again) ? syntaxError(classifyThrown(again, this.scriptLines)) : classifyThrown(again, this.scriptLines));
        }
      } else {
        return this.finish(classifyThrown(thrown, this.scriptLines));
      }
    }
    if (this.stop) return this.finish(this.stop);
    if (result.error) return this.finish({ kind: 'internal', message: 'the script did not start' });
    this.main = result.value;
    this.pump();
  }

  /**
   * The engine trapped (a WebAssembly error, not a JavaScript exception): the instance is done
   * for. Out of bounds at the memory cap is the engine's out-of-memory path failing; a host
   * RangeError is V8's own stack running out under a deep recursion.
   */
  private crashed(err: unknown): void {
    const e = err as { name?: unknown; message?: unknown };
    const message = String(e?.message ?? err);
    if (e?.name === 'RangeError' && /call stack/i.test(message)) {
      return this.finish({ kind: 'stack', message: 'stack overflow: recursion too deep (limit codeMode.stack)' });
    }
    if (this.nearCap()) {
      return this.finish({ kind: 'memory', message: 'out of memory (limit codeMode.memory)' });
    }
    this.finish({ kind: 'internal', message: `the sandbox failed: ${message}` });
  }

  /**
   * Out of memory, the engine sometimes cannot even make the error: the script then sees (and
   * the run ends with) a bare null. Near the memory cap that is the memory limit, not the script.
   */
  private outOfMemory(e: RunError): boolean {
    return e.kind === 'exception' && e.name === undefined && (e.message === 'null' || e.message === 'undefined') && this.nearCap();
  }

  private nearCap(): boolean {
    return this.engine.memory.buffer.byteLength >= this.limits.memoryBytes * (1 - NEAR_CAP);
  }

  /** Runs the engine's pending jobs, then looks at the script's promise. */
  private pump(): void {
    try {
      this.pumpOnce();
    } catch (err) {
      this.crashed(err);
    }
  }

  private pumpOnce(): void {
    if (this.finished || this.depth > 0 || !this.main || this.pumpTimer) return;
    const wait = engineWait();
    if (wait > 0) {
      this.pumpTimer = setTimeout(() => {
        this.pumpTimer = undefined;
        this.pump();
      }, wait);
      return;
    }
    let jobError: unknown;
    this.enter(() => {
      while (this.rt.hasPendingJob() && performance.now() - this.sliceStart < YIELD_MS) {
        const r = this.rt.executePendingJobs(256);
        if (r.error) {
          jobError = this.ctx.dump(r.error);
          return;
        }
      }
    });
    if (this.stop) return this.finish(this.stop);
    if (jobError !== undefined) return this.finish(classifyThrown(jobError, this.scriptLines));
    const state = this.ctx.getPromiseState(this.main);
    if (state.type === 'fulfilled') return this.settle(this.ctx.dump(state.value));
    if (state.type === 'rejected') {
      return this.finish(classifyThrown(this.ctx.dump(state.error), this.scriptLines));
    }
    if (this.rt.hasPendingJob()) setImmediate(() => this.pump());
    else if (this.ops.outstanding === 0) {
      // Nothing to run and nothing the host will answer: waiting would only burn the wall time.
      this.finish({ kind: 'stalled', message: 'the script awaits a promise that nothing will settle (no call, timer or job is pending)' });
    }
  }

  /** A nested call's or timer's answer enters the sandbox, and the script goes on. */
  private deliver(d: QuickJSDeferredPromise, text: string): void {
    if (this.finished) return;
    try {
      this.enter(() => {
        const s = this.ctx.newString(text);
        d.resolve(s);
        s.dispose();
        d.dispose();
      });
    } catch (err) {
      return this.crashed(err);
    }
    this.pump();
  }

  /** Stops the run: at once when outside the engine, else as soon as the current slice unwinds. */
  private halt(error: RunError): void {
    if (this.finished) return;
    if (this.depth > 0) {
      this.stop ??= error;
      return;
    }
    this.finish(error);
  }

  private settle(dumped: unknown): void {
    if (!Array.isArray(dumped) || typeof dumped[0] !== 'number' || typeof dumped[1] !== 'string') {
      return this.finish({ kind: 'result', message: 'the script returned something the sandbox could not read' });
    }
    try {
      this.finish(undefined, shapeOutput(dumped[1], dumped[0], this.limits.maxOutputTokens));
    } catch (err) {
      this.finish({ kind: 'result', message: `the returned value could not be read: ${(err as Error).message}` });
    }
  }

  private finish(failure?: RunError, output?: ReturnType<typeof shapeOutput>): void {
    if (this.finished) return;
    this.finished = true;
    const error = failure && this.outOfMemory(failure) ? { kind: 'memory' as const, message: 'out of memory (limit codeMode.memory)', line: failure.line } : failure;
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.pumpTimer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    this.ops.close(new Error(error ? `the run ended: ${error.message}` : 'the run ended'));
    const stats: RunStats = {
      wallMs: performance.now() - this.started,
      startMs: this.startMs,
      memoryBytes: this.engine.memory.buffer.byteLength,
      maxSliceMs: this.maxSliceMs,
      calls: this.ops.callCount,
      transpiled: this.transpiled,
    };
    // No dispose: the instance is this run's alone and goes with it (a dispose with a call still
    // pending would trip the engine's leak assertion for nothing).
    const base = { logs: this.logs.result(), calls: this.gate.records, stats };
    if (error || !output) this.resolve({ ok: false, error: error ?? { kind: 'internal', message: 'no result' }, ...base });
    else this.resolve({ ok: true, ...(output.value === undefined ? {} : { value: output.value }), json: output.json, truncated: output.truncated, ...base });
  }
}

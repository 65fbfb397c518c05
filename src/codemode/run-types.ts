// The shapes of a run: what runScript takes and what it answers. A failed run still carries its
// console lines, its call records (for the audit log) and its stats.

import type { CallRecord } from './calls.js';
import type { Bindings } from './host-ops.js';
import type { CodeModeLimits } from './limits.js';
import type { LogLine } from './output.js';
import type { RunError } from './run-error.js';

export interface RunOptions {
  bindings: Bindings;
  limits?: Partial<CodeModeLimits>;
  /** Ends the run (kind "aborted") and its nested calls. */
  signal?: AbortSignal;
  /** Each console line as it is kept (for progress notifications). */
  onLog?: (line: LogLine) => void;
}

export interface RunStats {
  /** From the call of runScript to its answer. */
  wallMs: number;
  /** Engine instance, runtime, context and prelude ready (the run's cold start). */
  startMs: number;
  /** The instance's linear memory at the end: the run's high-water mark (bytes). */
  memoryBytes: number;
  /** The longest slice of computing without a break (the engine held the event loop this long). */
  maxSliceMs: number;
  /** Nested calls admitted (at most limits.maxCalls). */
  calls: number;
  /** True when the script was TypeScript (types stripped). */
  transpiled: boolean;
}

export type RunResult =
  | { ok: true; value?: unknown; json: string; truncated: boolean; logs: LogLine[]; calls: CallRecord[]; stats: RunStats }
  | { ok: false; error: RunError; logs: LogLine[]; calls: CallRecord[]; stats: RunStats };

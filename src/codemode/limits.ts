// The hard limits of one code-mode run, with their defaults. Every limit is answered with a run
// that fails with its own error kind (never a hung or crashed gateway); docs/code-mode.md lists
// them with the message each gives. The config's codeMode section (wallTime, slice, memory…) maps onto it.

export interface CodeModeLimits {
  /** Wall time of the whole run, waits on nested calls included (ms). Enforced by interrupt. */
  wallMs: number;
  /**
   * Longest the script may run without yielding to the host (ms): the engine runs on the
   * gateway's event loop, so a slice of pure computation stalls every other client meanwhile.
   * Awaiting a tool call or a timer yields.
   */
  sliceMs: number;
  /** The whole WebAssembly memory of the run: engine, stack and heap (bytes). */
  memoryBytes: number;
  /** The engine's stack (bytes): deep recursion ends in a clean "stack overflow". */
  stackBytes: number;
  /** Nested calls per run: tools.*, tools.search and tools.describe, refused or not. */
  maxCalls: number;
  /** Nested calls in flight at once; extra calls wait their turn (first come, first served). */
  maxInFlight: number;
  /** The returned value, serialised as JSON, in estimated tokens; over it the text is cut. */
  maxOutputTokens: number;
  /** console.* lines kept per run; later ones are counted, not kept. */
  maxLogLines: number;
  /** Characters of console output kept per run (all lines together). */
  maxLogChars: number;
  /** Size of the script itself (characters). */
  maxCodeChars: number;
}

export const DEFAULT_LIMITS: Readonly<CodeModeLimits> = Object.freeze({
  wallMs: 30_000,
  sliceMs: 100,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxCalls: 100,
  maxInFlight: 8,
  maxOutputTokens: 4_000,
  maxLogLines: 100,
  maxLogChars: 16_000,
  maxCodeChars: 100_000,
});

/** The least memory a run can have: the engine alone takes 16 MiB of linear memory. */
export const MIN_MEMORY_BYTES = 24 * 1024 * 1024;
/**
 * Above this the host's own stack (V8's, ~1 MB) can run out before the engine's limit is
 * reached: measured in bench/codemode/README.md. The run still fails cleanly (kind "stack").
 */
export const MAX_STACK_BYTES = 1024 * 1024;

/** Defaults for what is not given; numbers clamped to what the engine can honour. */
export function resolveLimits(partial: Partial<CodeModeLimits> = {}): CodeModeLimits {
  const merged: CodeModeLimits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof CodeModeLimits)[]) {
    const value = partial[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) merged[key] = Math.floor(value);
  }
  merged.memoryBytes = Math.max(merged.memoryBytes, MIN_MEMORY_BYTES);
  merged.stackBytes = Math.min(Math.max(merged.stackBytes, 32 * 1024), MAX_STACK_BYTES);
  merged.maxInFlight = Math.max(merged.maxInFlight, 1);
  merged.sliceMs = Math.max(Math.min(merged.sliceMs, merged.wallMs), 1);
  return merged;
}

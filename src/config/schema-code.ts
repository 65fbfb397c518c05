// The codeMode section: the hard limits of one run_code run, with their defaults (the same as
// codemode/limits.ts DEFAULT_LIMITS; a unit test keeps the two equal). Durations and sizes in the
// config's own syntax; normalize.ts maps them onto the engine's CodeModeLimits one to one.

import * as z from 'zod';
import { duration, size, type Subst } from './schema-values.js';

/** The engine alone takes 16 MiB of linear memory: a run needs some room above it. */
export const MIN_CODE_MEMORY = 24 * 1024 * 1024;
/** Past this the host's own stack can run out before the engine's limit (bench/codemode/README.md). */
export const MAX_CODE_STACK = 1024 * 1024;
export const MIN_CODE_STACK = 32 * 1024;

/** catalog.codeBudget and clients[].catalog.codeBudget. */
export const DEFAULT_CODE_BUDGET = 4000;
export const codeBudgetSchema = (subst: Subst) => subst(z.int().min(0).max(100_000_000));

export function codeModeSchema(subst: Subst) {
  const count = (max: number, fallback: number, description: string) => subst(z.int().min(1).max(max)).prefault(fallback).meta({ description });
  return z
    .strictObject({
      wallTime: subst(duration).prefault('30s').meta({ description: 'Wall time of one run, waits on nested calls included; enforced by interrupt, so an endless loop ends too (default 30s).' }),
      slice: subst(duration).prefault('100ms').meta({
        description: "Longest a script may compute without awaiting, at most wallTime: the engine runs on the gateway's event loop, so every other client waits meanwhile (default 100ms).",
      }),
      memory: subst(size.refine((n) => n >= MIN_CODE_MEMORY, { error: 'must be at least 24MiB (the engine alone takes 16MiB)' }))
        .prefault('64MiB')
        .meta({ description: "One run's whole WebAssembly memory: engine, stack and heap; at least 24MiB (default 64MiB)." }),
      stack: subst(size.refine((n) => n >= MIN_CODE_STACK && n <= MAX_CODE_STACK, { error: 'must be from 32KiB to 1MiB' }))
        .prefault('256KiB')
        .meta({ description: "The engine's stack: deeper recursion ends the run with a stack overflow; 32KiB to 1MiB (default 256KiB)." }),
      maxCalls: count(100_000, 100, 'Nested calls per run (tools, tools.search, tools.describe); the call past it ends the run (default 100).'),
      maxInFlight: count(1_000, 8, 'Nested calls of one run in flight at once; more wait their turn (default 8).'),
      maxOutputTokens: count(10_000_000, 4000, 'The returned value as JSON, in estimated tokens; over it the text is cut with a note (default 4000).'),
      maxLogLines: count(100_000, 100, 'console lines kept per run; later ones are counted, not kept (default 100).'),
      maxLogChars: count(10_000_000, 16_000, 'Characters of console output kept per run (default 16000).'),
      maxCodeChars: count(10_000_000, 100_000, 'Size of one script, in characters; a longer one is refused before it runs (default 100000).'),
      maxRuns: count(100_000, 16, 'Runs at once across the gateway; one more is refused at once (LIMIT_EXCEEDED). With memory, what bounds the memory scripts may take in all (default 16).'),
      maxRunsPerPrincipal: count(100_000, 8, 'Runs at once of one principal (a token, an OAuth subject, an address) on the HTTP face; one more gets 429 (default 8). Read at start.'),
    })
    .prefault({})
    .meta({ description: 'The hard limits of a run_code run (catalog.mode: code). Each is answered with a failed run that names it; the run ends its nested calls.' });
}

/** The engine's limits (codemode/limits.ts CodeModeLimits) from the validated section, and how many runs at once. */
export function toCodeLimits(c: z.output<ReturnType<typeof codeModeSchema>>) {
  return {
    maxRuns: c.maxRuns,
    maxRunsPerPrincipal: c.maxRunsPerPrincipal,
    wallMs: c.wallTime,
    sliceMs: c.slice,
    memoryBytes: c.memory,
    stackBytes: c.stack,
    maxCalls: c.maxCalls,
    maxInFlight: c.maxInFlight,
    maxOutputTokens: c.maxOutputTokens,
    maxLogLines: c.maxLogLines,
    maxLogChars: c.maxLogChars,
    maxCodeChars: c.maxCodeChars,
  };
}

// The engine's share of the event loop, across every run at once. Scripts compute on the gateway's
// own thread: each slice of computing earns the loop a break as long as itself before any script
// starts another, so the scripts of all runs together take at most half of it, and a client waiting
// behind them waits about one slice (limits.sliceMs), however many runs compute at once.

/** A break this short is not worth a timer: slices that small run at once (their debt still counts). */
const TOLERANCE_MS = 1;
/** Small slices' debts add up, to no more than this beyond the last slice's own. */
const MAX_DEBT_MS = 100;

/** When the next slice may start: the end of the last one plus the computing not yet paid back by a break. */
let resumeAt = 0;

/** How long a run must wait before it starts a slice (0: now). */
export function engineWait(now = performance.now()): number {
  const wait = resumeAt - now;
  return wait > TOLERANCE_MS ? wait : 0;
}

/**
 * A slice of `ms` just ended (at `now`): the loop is owed as much before the next one, on top of
 * what it was still owed when this slice started (a slice let through within TOLERANCE_MS).
 */
export function sliceEnded(ms: number, now = performance.now()): void {
  const owed = Math.max(0, resumeAt - (now - ms));
  resumeAt = now + Math.min(owed + ms, Math.max(ms, MAX_DEBT_MS));
}

/** For tests: forget every debt. */
export function resetFairness(): void {
  resumeAt = 0;
}

// RFC 5424 levels as MCP uses them (logging/setLevel, notifications/message): ordering helpers.

const ORDER = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

function rank(level: unknown): number {
  return typeof level === 'string' ? ORDER.indexOf(level) : -1;
}

/** Whether a message at `level` reaches a session that asked for `threshold` (none asked: all do). */
export function passesLevel(level: unknown, threshold: string | undefined): boolean {
  if (threshold === undefined) return true;
  const r = rank(level);
  return r === -1 || r >= rank(threshold);
}

/** The most verbose of the levels sessions asked for, or undefined if none asked. */
export function mostVerbose(levels: readonly (string | undefined)[]): string | undefined {
  let best: string | undefined;
  for (const l of levels) if (l !== undefined && (best === undefined || rank(l) < rank(best))) best = l;
  return best;
}

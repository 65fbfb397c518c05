// Scope selection (MCP authorization, "Scope Selection Strategy" and "Step-Up"): configured
// scopes, else the challenge's `scope`, else the PRM's `scopes_supported`, else no scope
// parameter at all; a step-up asks for the union of what was asked before and what is challenged.
// Pure functions over string lists; results are deduplicated and keep first-seen order.

export interface ScopeInputs {
  configured?: readonly string[];
  challenged?: readonly string[];
  prmSupported?: readonly string[];
  /** The AS metadata's scopes_supported: offline_access is added only when it lists it. */
  asSupported?: readonly string[];
}

export function union(...lists: (readonly string[] | undefined)[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const list of lists) for (const s of list ?? []) if (s && !seen.has(s)) seen.add(s), out.push(s);
  return out;
}

/** undefined means: send no `scope` parameter. */
export function selectInitialScopes(inputs: ScopeInputs): string[] | undefined {
  const base = nonEmpty(inputs.configured) ?? nonEmpty(inputs.challenged) ?? nonEmpty(inputs.prmSupported);
  if (!base) return undefined;
  // SEP-2207: ask for a refresh token only when the AS says it knows offline_access.
  if (inputs.asSupported?.includes('offline_access')) return union(base, ['offline_access']);
  return union(base);
}

/** The scopes to re-authorize with after a 403 insufficient_scope: previous ∪ challenged. */
export function stepUpScopes(previous: readonly string[] | undefined, challenged: readonly string[] | undefined): string[] {
  return union(previous, challenged);
}

/** True when every scope in `needed` is in `have`. */
export function covers(have: readonly string[] | undefined, needed: readonly string[]): boolean {
  const set = new Set(have ?? []);
  return needed.every((s) => set.has(s));
}

/** A stable key for a scope set (order-insensitive). */
export function scopeKey(scopes: readonly string[] | undefined): string {
  return [...new Set(scopes ?? [])].sort().join(' ');
}

function nonEmpty(list: readonly string[] | undefined): string[] | undefined {
  return list && list.length > 0 ? [...list] : undefined;
}

// Top-k selection with a deterministic order: higher score first, then key in code-unit order.
// The visibility filter runs only on candidates that would enter the top k, before they take a
// slot, so a rejected key can never push an accepted one out.

import type { SearchHit } from './types.js';

export interface Candidate {
  key: string;
  score: number;
}

/** True when a ranks before b. */
export function before(aScore: number, aKey: string, bScore: number, bKey: string): boolean {
  return aScore > bScore || (aScore === bScore && aKey < bKey);
}

export function takeTop(candidates: readonly Candidate[], limit: number, accept?: (key: string) => boolean): SearchHit[] {
  const top: SearchHit[] = [];
  if (limit <= 0) return top;
  for (const c of candidates) {
    if (!(c.score > 0)) continue;
    if (top.length === limit) {
      const last = top[limit - 1]!;
      if (!before(c.score, c.key, last.score, last.key)) continue;
    }
    if (accept !== undefined && !accept(c.key)) continue;
    let i = top.length;
    while (i > 0 && before(c.score, c.key, top[i - 1]!.score, top[i - 1]!.key)) i--;
    top.splice(i, 0, { key: c.key, score: c.score });
    if (top.length > limit) top.pop();
  }
  return top;
}

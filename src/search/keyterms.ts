// Key-term selection for verbose requests (a task pasted whole, a chatty paragraph): a request with
// more than `above` distinct content terms keeps its `kept` rarest terms at full weight and the rest
// at `weight`. Rarity is the term's idf in the index: a word few tools use says what the request is
// about ("invoice", "kubernetes"), a word many use says little ("new", "list", "data"). Plain BM25
// sums every term, so a long request's many common words outvote its few telling ones; here they
// only break ties. General by construction: no word lists, no phrase rules, only the index's own
// statistics. A short request (up to `above` terms; every request of 2-8 words) is never changed.
// A concept that matches no tool is left out of the count's ranking: its weight changes nothing.

import type { Concept } from './inverted.js';

export interface KeyTermParams {
  /** Requests with more distinct content terms than this are reduced. */
  above: number;
  /** How many of the rarest terms keep full weight. */
  kept: number;
  /** Weight of the other terms (0 drops them). */
  weight: number;
}

/**
 * The concepts with all but the `kept` rarest scaled by `weight`, when there are more than
 * `above` of them; otherwise the same array. `df(term)` is the term's document frequency; a
 * concept's rarity is its first term's (the word as read), as BM25F's idf is (inverted.ts).
 */
export function selectKeyTerms(concepts: readonly Concept[], df: (term: string) => number, p: KeyTermParams): readonly Concept[] {
  if (concepts.length <= p.above || p.weight >= 1) return concepts;
  const matched = (c: Concept): boolean => c.some(([t]) => df(t) > 0);
  // Rarest first; a concept that matches nothing last; ties in the request's order (stable sort).
  const order = concepts.map((c, i) => ({ i, df: matched(c) ? Math.max(1, df(c[0]![0])) : Infinity })).sort((a, b) => a.df - b.df);
  const keep = new Set(order.slice(0, p.kept).map((x) => x.i));
  const out: Concept[] = [];
  concepts.forEach((c, i) => {
    if (keep.has(i)) out.push(c);
    else if (p.weight > 0) out.push(c.map(([t, w]) => [t, w * p.weight] as const));
  });
  return out;
}

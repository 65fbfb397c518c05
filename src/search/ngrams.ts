// The fallback for a request that matches nothing: its words compared with the index's terms by
// shared character trigrams (Dice coefficient over the trigrams of " word "), which survives what
// edit distance does not (unknown derivations, compounds, a mistyped first letter). Trigram
// postings over the vocabulary, not the documents: a term costs its trigrams once, however many
// tools say it. Terms follow the index's adds and deletes, like spelling.ts's.

import { Filing } from './filing.js';

/** Shortest word compared by trigrams: shorter ones share trigrams with nearly everything. */
export const MIN_GRAM_WORD = 4;
/** Longest: a URL or a hash left whole by some analyzer is nobody's word. */
export const MAX_GRAM_WORD = 32;
const fits = (term: string): boolean => term.length >= MIN_GRAM_WORD && term.length <= MAX_GRAM_WORD;

export class GramIndex {
  private readonly terms = new Filing();
  private readonly sizes = new Map<string, number>();

  add(term: string): void {
    if (!fits(term)) return;
    const gs = trigrams(term);
    if (this.terms.add(term, () => gs)) this.sizes.set(term, gs.size);
  }

  delete(term: string): void {
    if (this.terms.delete(term, () => trigrams(term))) this.sizes.delete(term);
  }

  /**
   * Terms other than `word` whose trigrams' Dice coefficient with its own is at least `min`,
   * best first (ties in code-unit order), at most `limit` of them.
   */
  similar(word: string, min: number, limit: number): [term: string, dice: number][] {
    if (!fits(word)) return [];
    const gs = trigrams(word);
    const shared = new Map<string, number>();
    for (const g of gs) for (const t of this.terms.under(g)) shared.set(t, (shared.get(t) ?? 0) + 1);
    const out: [string, number][] = [];
    for (const [t, n] of shared) {
      if (t === word) continue;
      const dice = (2 * n) / (gs.size + this.sizes.get(t)!);
      if (dice >= min) out.push([t, dice]);
    }
    return out.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, limit);
  }
}

/** The distinct character trigrams of a word padded with one space each side. */
export function trigrams(word: string): Set<string> {
  const p = ` ${word} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= p.length; i++) out.add(p.slice(i, i + 3));
  return out;
}

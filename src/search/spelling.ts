// Corrections for misspelt query words: the vocabulary terms nearest a word by Damerau distance
// (optimal string alignment), at most 1 edit, or 2 when both words are long, and starting with the
// same letter (people rarely mistype a word's first letter; "catch" is not "batch"). Found through a
// deletion neighbourhood kept with the index: every term is filed under itself and the strings
// left by deleting 1 (2 for long terms) of its characters; a term and a word within the bound
// always share such a string, so a look-up reads a few dozen keys, never the whole vocabulary.

import { Filing } from './filing.js';

/** Shortest word that may be a misspelling: shorter ones are one edit away from too many. */
export const MIN_TYPO = 5;
/**
 * Shortest term a misspelling may be corrected to: one letter shorter, since a 5-letter word
 * reaches a 4-letter term only by dropping a letter ("darrk", "jirra", "repso"), an error that
 * is nearly always one, while substitutions among 4-letter words are too many to trust.
 */
export const MIN_TERM = 4;
/** Shortest word (and term) that may be two edits from its correction. */
export const LONG_WORD = 8;
/** Only words of Latin letters, and not longer than this, are filed: a URL or a hash is nobody's typo, and would cost hundreds of keys. */
export const MAX_TYPO = 24;
const SPELLABLE = /^[a-z]+$/;

/** Latin letters only, at least `min` and at most MAX_TYPO of them. */
function spelt(word: string, min: number): boolean {
  return word.length >= min && word.length <= MAX_TYPO && SPELLABLE.test(word);
}

/** True for a word the index corrects. */
export function spellable(term: string): boolean {
  return spelt(term, MIN_TYPO);
}

/** True for a term the index files as a possible correction. */
export function fileable(term: string): boolean {
  return spelt(term, MIN_TERM);
}

export class SpellingIndex {
  private readonly terms = new Filing();

  constructor(private readonly longWord = LONG_WORD) {}

  add(term: string): void {
    if (fileable(term)) this.terms.add(term, () => neighbourhood(term, this.reach(term)));
  }

  delete(term: string): void {
    this.terms.delete(term, () => neighbourhood(term, this.reach(term)));
  }

  has(term: string): boolean {
    return this.terms.has(term);
  }

  /**
   * The terms other than `word` that start with its first character, at the smallest distance
   * from it (1, or 2 when both are at least `longWord` long), in code-unit order; empty when
   * none is that close.
   */
  nearest(word: string): string[] {
    if (!spellable(word)) return [];
    const max = this.reach(word);
    let best = max + 1;
    let out: string[] = [];
    const seen = new Set<string>();
    for (const key of neighbourhood(word, max)) {
      for (const t of this.terms.under(key)) {
        if (t === word || !sameStart(t, word) || seen.has(t)) continue;
        seen.add(t);
        const bound = Math.min(best, Math.min(this.reach(t), max));
        const d = distanceWithin(word, t, bound);
        if (d > bound) continue;
        if (d < best) {
          best = d;
          out = [t];
        } else out.push(t);
      }
    }
    return out.sort();
  }

  /** How many edits a word of this length may be from its correction. */
  private reach(word: string): number {
    return word.length >= this.longWord ? 2 : 1;
  }
}

/** Same first letter, or the first two letters swapped ("lsit" for list). */
function sameStart(a: string, b: string): boolean {
  return a.charCodeAt(0) === b.charCodeAt(0) || (a.charCodeAt(0) === b.charCodeAt(1) && a.charCodeAt(1) === b.charCodeAt(0));
}

/** The word and every string left by deleting up to `depth` of its characters. */
export function neighbourhood(word: string, depth: number): Set<string> {
  const out = new Set<string>([word]);
  let layer = [word];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const w of layer) {
      for (let i = 0; i < w.length; i++) {
        const s = w.slice(0, i) + w.slice(i + 1);
        if (!out.has(s)) {
          out.add(s);
          next.push(s);
        }
      }
    }
    layer = next;
  }
  return out;
}

/**
 * Optimal string alignment distance between a and b (insertions, deletions, substitutions,
 * swaps of neighbours), or `max + 1` as soon as it is known to exceed `max`.
 */
export function distanceWithin(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const m = b.length;
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[m]!, max + 1);
}

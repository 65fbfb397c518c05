// Which known terms a misspelt query word stands for, read from both its stem and its surface
// form. The stem alone fails twice: a stem under spelling.ts's MIN_TYPO is never looked up
// ("delte" → "delt"), and the stemmer may cut a typo where it would not cut the word. The
// surface word (lower-case) is then compared with the index's stems too: a stem is a word's
// prefix, so "delte" is one swap from "delet" (delete). Two look-ups at most per word.

import { distanceWithin } from './spelling.js';

export interface Correction {
  /** The candidate terms, in code-unit order (deterministic whatever the look-up order). */
  readonly terms: readonly string[];
  /**
   * One candidate only, one edit from the stem or the surface word: the reading a person would
   * make without hesitating, weighed nearer the word itself than an ambiguous guess.
   */
  readonly sure: boolean;
}

const NONE: Correction = { terms: [], sure: false };

/**
 * Corrections of stem `term` typed as `surface` (lower-case; equal to the term when unknown),
 * through `nearest` (spelling.ts's look-up, which yields nothing for words it does not file).
 */
export function correct(term: string, surface: string, nearest: (word: string) => string[]): Correction {
  const found = new Set(nearest(term));
  // The surface word adds candidates only when the stem found none: a stem's correction is the
  // nearer reading, and merging both would make a clear case ("shedul" → schedul) ambiguous.
  if (found.size === 0 && surface !== term) for (const c of nearest(surface)) found.add(c);
  if (found.size === 0) return NONE;
  const terms = [...found].sort();
  const only = terms.length === 1 ? terms[0]! : undefined;
  const sure = only !== undefined && (distanceWithin(term, only, 1) <= 1 || distanceWithin(surface, only, 1) <= 1);
  return { terms, sure };
}
